"""The mirror flip (scene/core/mirror.py): which fields mirror and how, twice is the chain bit for bit, a refused
flip changes nothing, and a flipped chain goes on as the mirror image: its target's motion, its solve, a
snake's wandering, a walker's legs.

Mirror about the vertical ``x = x0`` through the anchor (an IK chain's root, a snake's head, a walker's
body): ``x -> x0 - (x - x0)``, a heading ``a -> pi - a``, a relative angle ``a -> -a`` (docs/design.md).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build, walker_build
from ikplayground.scene.core.mirror import flip_chain, mirror_limits
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.step import target_paths, walker
from ikplayground.scene.step.terrain import generated
from ikplayground.scene.step.walker import ANKLE, KNEE
from ikplayground.solvers import forward_kinematics

PI = math.pi
TAU = 2.0 * math.pi
STAGE = (1000.0, 700.0)
TOL = 1e-9
DEG = math.radians


def flipped_x(p, x0: float) -> np.ndarray:
    p = np.array(p, dtype=float)
    p[..., 0] = x0 - (p[..., 0] - x0)
    return p


def gaps(a, b) -> np.ndarray:
    return np.abs(np.remainder(np.asarray(a) - np.asarray(b) + PI, TAU) - PI)


def snapshot(chain) -> dict:
    return {k: v.copy() for k, v in chain.fields.items()}


def bits(fields: dict) -> dict:
    return {k: v.tobytes() for k, v in fields.items()}


def arm(solver: str, root=(400.0, 600.0), **kw):
    """An IK chain of ``solver`` (4 bones; a two-bone arm 2, free: its formula has no limits) with joint 0
    limited to -160..-60 degrees (up and to the left, y down) and lopsided limits past it, unless ``kw``
    says otherwise."""
    n = 2 if solver == "two-bone" else 4
    lengths = kw.pop("lengths", [70.0, 55.0, 45.0, 35.0][:n])
    limits = kw.pop("limits", None if n == 2 else [(DEG(-160), DEG(-60))] + [(DEG(-30), DEG(50))] * (n - 1))
    angles = kw.pop("angles", [DEG(-100)] + [DEG(20)] * (n - 1))
    target = kw.pop("target", (root[0] + 60.0, root[1] - 120.0))
    return build.make_ik_chain(solver, root, angles, lengths, target, limits=limits, **kw)


# --- which fields mirror, and how --------------------------------------------------------------------
@pytest.mark.parametrize("solver", ["ccd", "fabrik", "dls"])
def test_an_ik_chain_mirrors_its_target_pose_limits_pole_and_motion(solver):
    scene = Scene(STAGE)
    chain = scene.add(arm(solver, pole=(480.0, 560.0), motion={"path": "circle", "speed": 3.0, "size": 50.0}))
    for _ in range(20):
        scene.step()
    before = snapshot(chain)
    x0 = float(before["root"][0])
    scene.flip(chain)
    f = chain.fields
    np.testing.assert_array_equal(f["root"], before["root"])
    for name in ("target", "points", "pole", "motion_centre"):
        np.testing.assert_allclose(f[name], flipped_x(before[name], x0), atol=TOL, rtol=0)
    # joint 0 is a heading, pi - a; the others turn the other way; the ranges follow
    for name in ("angles", "goal"):
        assert gaps(f[name][0], PI - before[name][0]) <= TOL
        np.testing.assert_array_equal(f[name][1:], -before[name][1:])
    np.testing.assert_allclose(f["limits"][0], (DEG(-120), DEG(-20)), atol=TOL)
    np.testing.assert_array_equal(f["limits"][1:], np.tile((DEG(-50), DEG(30)), (3, 1)))
    assert np.all((f["limits"][:, 0] <= f["angles"]) & (f["angles"] <= f["limits"][:, 1]))
    np.testing.assert_allclose(forward_kinematics(f["root"], f["angles"], f["lengths"]), f["points"], atol=TOL)
    assert f["bend"][0] == -before["bend"][0] and f["side"][0] == -before["side"][0]
    np.testing.assert_array_equal(f["motion_velocity"], before["motion_velocity"] * (-1, 1))
    assert gaps(f["motion_phase"][0], PI - before["motion_phase"][0]) <= TOL
    assert f["motion_reverse"][0] == 1.0 and before["motion_reverse"][0] == 0.0  # the circle goes the other way round
    for name in ("lengths", "rate", "iterations", "tolerance", "error", "reached", "status", "motion", "mix"):
        np.testing.assert_array_equal(f[name], before[name])


def test_a_two_bone_arm_flips_its_bend_unless_auto_bend_keeps_its_knee_up_or_down():
    plain = arm("two-bone", mirror=False)
    flip_chain(plain)
    assert plain.mirror and plain.fields["side"][0] == -1.0
    auto = arm("two-bone", mirror=True, auto_bend=True)
    flip_chain(auto)
    assert auto.mirror, "with auto bend, the setting says knee down (here): the mirror image's knee is down too"
    assert auto.fields["side"][0] == -1.0  # (its side, left or right of the root, is the other)


def test_a_figure_eight_runs_half_a_turn_on_and_a_bounce_turns_its_x_round():
    eight = arm("ccd", motion={"path": "figure-eight", "phase": 1.0})
    flip_chain(eight)
    assert gaps(eight.fields["motion_phase"][0], 1.0 + PI) <= TOL and eight.fields["motion_reverse"][0] == 0.0
    bounce = arm("ccd", motion={"path": "bounce", "speed": 4.0})
    v = bounce.fields["motion_velocity"].copy()
    flip_chain(bounce)
    np.testing.assert_array_equal(bounce.fields["motion_velocity"], (-v[0], v[1]))


def test_a_snake_mirrors_about_its_head():
    snake = build.make_snake(np.array([[500.0, 300.0], [470.0, 320.0], [445.0, 350.0], [430.0, 385.0]]),
                             bend_limits=(DEG(-20), DEG(35)), wander=True)
    snake.fields["turn"][0] = 1.0
    before = snapshot(snake)
    flip_chain(snake)
    f = snake.fields
    np.testing.assert_array_equal(f["points"], flipped_x(before["points"], 500.0))
    assert gaps(f["heading"][0], PI - before["heading"][0]) <= TOL and -PI < f["heading"][0] <= PI
    np.testing.assert_array_equal(f["bend_limits"], (DEG(-35), DEG(20)))
    assert f["turn"][0] == -1.0 and f["wander_mirror"][0] == 1.0
    for name in ("lengths", "speed", "max_speed", "turn_rate", "wander", "wander_phase"):
        np.testing.assert_array_equal(f[name], before[name])


@pytest.mark.slow
@pytest.mark.parametrize("leg_bones", [2, 3])
def test_a_walker_mirrors_about_its_body_and_stands_on_the_ground_again(leg_bones):
    scene = Scene(STAGE, terrain=generated(STAGE, seed=3))
    w = scene.add(walker_build.make_walker((500.0, 300.0), legs=5, leg_bones=leg_bones))
    for _ in range(40):
        scene.step()
    before = snapshot(w)
    scene.flip(w)
    f = w.fields
    x0 = float(before["body"][0])
    np.testing.assert_array_equal(f["body"], before["body"])
    for name in ("velocity", "facing", "tilt", "home"):
        np.testing.assert_array_equal(f[name], -before[name])
    np.testing.assert_array_equal(f["hips"], before["hips"] * (-1, 1))
    for name in ("points", "foot", "step_from", "step_to"):
        np.testing.assert_array_equal(f[name], flipped_x(before[name], x0))
    assert gaps(f["angles"][:, 0], PI - before["angles"][:, 0]).max() <= TOL
    np.testing.assert_array_equal(f["angles"][:, 1:], -before["angles"][:, 1:])
    assert np.signbit(f["home"][2]), "the centre leg (home 0) is now on the back side: -0.0"
    assert f["settled"][0] == 0.0
    scene.step()
    assert f["settled"][0] == 1.0
    feet = f["foot"][f["state"] < 0.5]
    np.testing.assert_allclose(feet[:, 1], scene.terrain.height_at(feet[:, 0]), atol=1e-9)


def legs_bend_outward(f) -> bool:
    """Whether every three-bone leg's knee and ankle bend outward: inside their ranges as the leg's side
    sees them (a back leg's in a mirror). (The thigh keeps its range too, but for the exact pose a leg
    takes where CCD leaves it off its foot.)"""
    out = np.where(np.signbit(f["home"]), -1.0, 1.0)
    a = walker.mirrored(f["angles"], out)[:, 1:]
    return bool(np.all((a >= np.array([KNEE, ANKLE])[:, 0] - 1e-9) & (a <= np.array([KNEE, ANKLE])[:, 1] + 1e-9)))


@pytest.mark.slow
@pytest.mark.parametrize("legs", [3, 4, 5])
def test_a_flipped_walker_solves_its_legs_as_the_mirror_image_and_they_bend_outward(legs):
    scene = Scene(STAGE, terrain=generated(STAGE, seed=legs))
    w = scene.add(walker_build.make_walker((500.0, 300.0), legs=legs, leg_bones=3))
    twin = scene.add(walker_build.make_walker((500.0, 300.0), legs=legs, leg_bones=3))
    for _ in range(30):
        scene.step()
    assert legs_bend_outward(w.fields)
    x0 = float(w.fields["body"][0])
    flip_chain(twin)
    assert legs_bend_outward(twin.fields)
    # the legs alone, solved from where they are toward the same (mirrored) feet: mirror images
    a = {k: v[None].copy() for k, v in w.fields.items()}
    b = {k: v[None].copy() for k, v in twin.fields.items()}
    a["foot"] += (3.0, -4.0)
    b["foot"] += (-3.0, -4.0)
    walker.solve_legs(a)
    walker.solve_legs(b)
    assert gaps(b["angles"][0, :, 0], PI - a["angles"][0, :, 0]).max() <= TOL
    np.testing.assert_allclose(b["angles"][0, :, 1:], -a["angles"][0, :, 1:], atol=TOL)
    np.testing.assert_allclose(b["points"][0], flipped_x(a["points"][0], x0), atol=TOL)
    for _ in range(120):
        scene.step()
        assert legs_bend_outward(twin.fields)


# --- twice is the chain, bit for bit -------------------------------------------------------------
@st.composite
def chains(draw):
    """A chain of any solver, set up at random and stepped a few times in a scene (so its per-step state,
    the solver's last answer, the auto-bend side, a walker's gait... is not the builder's)."""
    solver = draw(st.sampled_from(["two-bone", "ccd", "fabrik", "dls", "snake", "walker"]))
    scene = Scene(STAGE)
    root = (draw(st.floats(200.0, 800.0)), draw(st.floats(200.0, 600.0)))
    if solver == "snake":
        chain = build.straight_snake(root, draw(st.floats(-PI, PI)), nodes=draw(st.integers(2, 12)),
                                     wander=draw(st.booleans()))
    elif solver == "walker":
        chain = walker_build.make_walker(root, legs=draw(st.integers(2, 8)), leg_bones=draw(st.sampled_from([2, 3])),
                                         facing=draw(st.sampled_from([1.0, -1.0])))
    else:
        n = 2 if solver == "two-bone" else draw(st.integers(1, 6))
        lengths = [draw(st.floats(10.0, 60.0)) for _ in range(n)]
        side = draw(st.sampled_from([1.0, -1.0]))
        lo, hi = sorted(side * draw(st.floats(0.0, PI)) for _ in range(2))
        first = (-PI, PI) if draw(st.booleans()) else (lo, hi)
        rest = [sorted(draw(st.floats(-PI, PI)) for _ in range(2)) for _ in range(n - 1)]
        angles = [draw(st.floats(-PI, PI)) for _ in range(n)]
        reach = sum(lengths)
        target = (root[0] + draw(st.floats(-0.1, 0.1)) * reach, root[1] + draw(st.floats(-1.2, 1.2)) * reach)
        pole = (root[0] + draw(st.floats(-80.0, 80.0)), root[1] + draw(st.floats(-80.0, 80.0)))
        path = draw(st.sampled_from(target_paths.PATHS))
        chain = build.make_ik_chain(solver, root, angles, lengths, target, limits=[first] + rest,
                                    mirror=draw(st.booleans()), auto_bend=draw(st.booleans()),
                                    pole=pole if draw(st.booleans()) else None,
                                    motion={"path": path, "speed": 2.0, "size": 30.0, "phase": draw(st.floats(0, 6))},
                                    mix=draw(st.sampled_from([1.0, 0.6])), softness=draw(st.sampled_from([0.0, 15.0])))
    scene.add(chain)
    for _ in range(draw(st.integers(0, 6))):
        scene.step()
    return chain


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(chains())
def test_flipping_twice_gives_back_the_chain_bit_for_bit(chain):
    before = bits(chain.fields)
    flip_chain(chain)
    assert bits(chain.fields) != before
    flip_chain(chain)
    assert bits(chain.fields) == before


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(chains())
def test_the_mirror_of_the_mirror_is_the_chain_to_rounding(chain):
    """Without the kept state (a flip computed afresh both times): the same chain to 1e-9 (a walker's
    feet aside: a flipped walker stands on the ground again at its next step)."""
    before = snapshot(chain)
    flip_chain(chain)
    chain.flip_memo = None
    flip_chain(chain)
    for name, value in before.items():
        if chain.is_walker and name == "settled":
            continue
        same = (chain.fields[name] == value) | np.isnan(value)  # an inf (a rate limit that is off) equal to itself
        diff = np.subtract(chain.fields[name], value, out=np.zeros(np.shape(value)), where=~same)
        close = same | (np.abs(diff) <= TOL)
        turned = name in ("angles", "goal", "heading") and gaps(chain.fields[name], value).max() <= TOL
        assert close.all() or turned, name


def test_a_flip_after_a_change_is_computed_afresh():
    scene = Scene(STAGE)
    chain = scene.add(arm("ccd"))
    scene.flip(chain)
    scene.step()  # it moved on: the kept state no longer applies
    stepped = snapshot(chain)
    scene.flip(chain)
    np.testing.assert_allclose(chain.fields["target"], flipped_x(stepped["target"], 400.0), atol=TOL)


# --- refused flips --------------------------------------------------------------------------------
def test_a_joint_0_range_across_0_cannot_be_mirrored_and_nothing_changes():
    chain = arm("fabrik", limits=[(DEG(-30), DEG(60))] + [(DEG(-30), DEG(50))] * 3, angles=[0.2, 0.1, 0.1, 0.1])
    before = bits(chain.fields)
    with pytest.raises(ValueError) as e:
        flip_chain(chain)
    assert "joint 0's range -30° to 60° runs across 0°" in str(e.value) and "\n" not in str(e.value)
    assert bits(chain.fields) == before and chain.flip_memo is None
    with pytest.raises(ValueError, match="joint 0"):
        mirror_limits([(DEG(-30), DEG(60))])


def test_a_full_circle_at_joint_0_stays_full_and_ranges_touching_0_mirror():
    np.testing.assert_array_equal(mirror_limits([(-PI, PI), (-1.0, 2.0)]), [(-PI, PI), (-2.0, 1.0)])
    np.testing.assert_array_equal(mirror_limits([(0.0, 1.0)]), [(PI - 1.0, PI)])
    np.testing.assert_array_equal(mirror_limits([(-1.0, 0.0)]), [(-PI, -PI + 1.0)])


@pytest.mark.parametrize("part", ["target", "pole"])
def test_a_flip_that_would_put_the_target_or_pole_off_the_stage_is_refused(part):
    scene = Scene(STAGE)
    chain = scene.add(arm("ccd", root=(60.0, 600.0), target=(100.0, 500.0), pole=(100.0, 560.0)))
    chain.fields[part][0] = 150.0  # its mirror image: x = -30
    before = bits(chain.fields)
    with pytest.raises(ValueError, match=f"^its mirror image would put the {part} \\(at x = -30 px\\) off the stage$"):
        scene.flip(chain)
    assert bits(chain.fields) == before and chain.flip_memo is None


# --- the mirror image goes on as the mirror image --------------------------------------------------
def twins(make, flip_second=True):
    """A scene holding two chains made alike by ``make()``, the second flipped."""
    scene = Scene(STAGE)
    a, b = scene.add(make()), scene.add(make())
    if flip_second:
        scene.flip(b)
    return scene, a, b


@pytest.mark.slow
@pytest.mark.parametrize("path, root", [("circle", (500.0, 650.0)), ("figure-eight", (430.0, 650.0)),
                                        ("bounce", (500.0, 650.0))])
def test_a_flipped_target_runs_the_mirror_image_of_the_path(path, root):
    # (a bounce turns at the stage's edges: a mirror image only for a root on the stage's middle vertical)
    motion = {"path": path, "speed": 7.0, "size": 120.0, "phase": 0.3, "heading": 0.7}
    scene, a, b = twins(lambda: arm("ccd", root=root, target=(root[0] + 150.0, 300.0), motion=motion))
    xs = []
    for step in range(400):
        scene.step()
        np.testing.assert_allclose(b.fields["target"], flipped_x(a.fields["target"], root[0]), atol=TOL,
                                   err_msg=f"step {step}")
        xs.append(a.fields["target"][0])
    assert np.ptp(xs) > 100.0  # it went round (and a bounce off both sides of the stage)


def test_a_bounce_off_the_middle_is_the_mirror_image_until_it_meets_a_side():
    scene, a, b = twins(lambda: arm("ccd", root=(300.0, 650.0), target=(400.0, 300.0),
                                    motion={"path": "bounce", "speed": 5.0, "heading": 0.3}))
    for _ in range(40):  # the mirror image, from x = 200 at 4.78 px a step to the left, meets x = 0 at step 42
        scene.step()
        np.testing.assert_allclose(b.fields["target"], flipped_x(a.fields["target"], 300.0), atol=TOL)
    for _ in range(5):
        scene.step()
    assert abs(b.fields["target"][0] - flipped_x(a.fields["target"], 300.0)[0]) > 1.0  # it turned at x = 0


def assert_mirrored_chain(a, b, x0: float):
    assert gaps(b.fields["angles"][0], PI - a.fields["angles"][0]) <= TOL
    assert gaps(b.fields["angles"][1:], -a.fields["angles"][1:]).max(initial=0.0) <= TOL
    assert gaps(b.fields["goal"][0], PI - a.fields["goal"][0]) <= TOL
    np.testing.assert_allclose(b.fields["points"], flipped_x(a.fields["points"], x0), atol=TOL, rtol=0)
    assert abs(b.fields["error"][0] - a.fields["error"][0]) <= TOL
    assert b.status == a.status


CASES = {
    "two-bone": dict(pole=(520.0, 520.0), softness=10.0, stretch=1.3),
    "two-bone-auto-bend": dict(auto_bend=True),
    "ccd": dict(pole=(520.0, 520.0)),
    "fabrik": dict(pole=(300.0, 480.0), iterations=20),
    "dls": dict(pole=(520.0, 520.0), mix=0.8),
    # joint 0 held below the root's right (10..60 degrees): the rest pose (straight up) is outside, and
    # mix pulls toward the bound nearer round the circle, 10 degrees (its mirror image: 170)
    "dls-down": dict(mix=0.5, limits=[(DEG(10), DEG(60))] + [(DEG(-30), DEG(50))] * 3,
                     angles=[DEG(30), 0.1, 0.1, 0.1]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_flipped_copy_stays_the_mirror_image_for_300_steps(case):
    """Limits (lopsided, joint 0's too), a rate limit of 3 degrees a step, a pole: the copy, flipped and
    given the mirror image of the original's target every step, is the mirror image after every step."""
    solver = "two-bone" if case.startswith("two-bone") else case.split("-")[0]
    scene, a, b = twins(lambda: arm(solver, **CASES[case]))
    x0 = 400.0
    for step in range(300):
        t = step / 60.0  # the target wanders over and around the arm's reach
        target = (x0 + 150.0 * math.sin(0.9 * t) + 40.0 * math.sin(2.3 * t),
                  560.0 - 110.0 * math.cos(0.7 * t) - 30.0 * math.sin(1.9 * t))
        a.fields["target"][:] = target
        b.fields["target"][:] = flipped_x(target, x0)
        scene.step()
        assert_mirrored_chain(a, b, x0)


@pytest.mark.slow
def test_a_flipped_wandering_snake_wanders_as_the_mirror_image():
    """A head on the stage's middle vertical: the stage's edges are mirror images too, so its wandering
    (and its turn toward the middle near an edge) stays the mirror image."""
    scene, a, b = twins(lambda: build.straight_snake((500.0, 350.0), 0.4, nodes=8, wander=True))
    for _ in range(300):
        scene.step()
        np.testing.assert_allclose(b.fields["points"], flipped_x(a.fields["points"], 500.0), atol=1e-6)
    assert abs(a.fields["points"][0, 0] - 500.0) > 20.0  # it went somewhere


def test_a_flipped_chain_saves_and_loads_the_same(tmp_path):
    scene = Scene(STAGE)
    chain = scene.add(arm("ccd", motion={"path": "circle", "speed": 2.0, "size": 40.0}))
    scene.flip(chain)
    path = tmp_path / "flipped.json"
    scene_file.save_scene(scene, path)
    loaded = scene_file.load_scene(path, STAGE).chains[0]
    assert loaded.fields["motion_reverse"][0] == 1.0
    np.testing.assert_allclose(loaded.fields["limits"], chain.fields["limits"], atol=1e-6)
    np.testing.assert_allclose(loaded.fields["target"], chain.fields["target"], atol=1e-3)
