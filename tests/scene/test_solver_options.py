"""The scene's solver options: status codes, auto bend's hysteresis, mix, the pole through moves, edits and files.

The table-driven tests of tests/scene/test_settings.py already set, clamp and
save every setting; here is what each option does to a chain as it steps.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ikplayground.scene.build import build
from ikplayground.scene.core.ik_options import DEFAULTS, rest_pose
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.core.settings import setting
from ikplayground.scene.files.scene_file import load_scene, save_scene
from ikplayground.scene.step.group_step import AUTO_BEND_BAND

STAGE = (1000.0, 800.0)


def scene_with(solver, n=5, target=(600.0, 300.0), **kw):
    scene = Scene(STAGE)
    if solver == "two-bone":
        chain = build.make_ik_chain("two-bone", (500.0, 400.0), (-1.0, 1.5), (100.0, 80.0), target, rate_limit=None,
                                    **kw)
    else:
        chain = build.make_ik_chain(solver, (500.0, 400.0), np.r_[-math.pi / 2, np.zeros(n - 1)], np.full(n, 40.0),
                                    target, rate_limit=None, **kw)
    scene.add(chain)
    return scene, chain


def steps(scene, k=1):
    for _ in range(k):
        scene.step()


@pytest.mark.parametrize("solver", ["two-bone", "ccd", "fabrik", "dls"])
def test_a_target_past_full_reach_is_out_of_reach_and_a_near_one_is_reached(solver):
    scene, chain = scene_with(solver, target=(900.0, 400.0))
    steps(scene, 60)
    assert chain.status == "out of reach"
    chain.fields["target"][:] = (560.0, 230.0)  # 180 px off, a gentle bend away
    steps(scene, 60)
    assert chain.status == "reached" and chain.error <= chain.tolerance


@pytest.mark.parametrize("solver", ["ccd", "fabrik", "dls"])
def test_a_chain_its_limits_pin_short_is_stalled_and_says_how_many_iterations_it_used(solver):
    limits = np.array([(-math.pi, math.pi)] + [(-0.02, 0.02)] * 4)
    scene, chain = scene_with(solver, target=(560.0, 330.0), limits=limits, iterations=50)
    steps(scene, 30)
    assert chain.status == "stalled"
    assert 0 < chain.fields["used"][0] <= 50


def test_the_rate_limit_still_turning_is_iterating():
    scene, chain = scene_with("ccd", target=(420.0, 420.0))
    chain.rate_limit = 0.5
    steps(scene)
    assert chain.status == "iterating"


def test_mix_below_one_holds_a_solved_chain_short_and_says_so():
    scene, chain = scene_with("fabrik", target=(560.0, 230.0), mix=0.5)
    steps(scene, 30)
    assert chain.status == "mixed"
    rest = rest_pose(chain.fields["limits"][None])[0]
    assert np.allclose(chain.fields["angles"], rest + 0.5 * (chain.fields["goal"] - rest))


def test_mix_zero_shows_the_rest_pose_straight_up():
    scene, chain = scene_with("ccd", target=(560.0, 330.0), mix=0.0)
    steps(scene, 5)
    pts = chain.fields["points"]
    assert np.allclose(pts[:, 0], 500.0) and np.all(np.diff(pts[:, 1]) < 0)


def test_softness_eases_the_two_bone_tip_and_says_eased():
    scene, chain = scene_with("two-bone", target=(675.0, 400.0), softness=30.0)  # 5 px short of full reach
    steps(scene, 2)
    assert chain.status == "eased"
    assert 150.0 < chain.fields["points"][-1][0] - 500.0 < 175.0


def test_stretch_scales_both_bones_to_land_on_a_far_target():
    scene, chain = scene_with("two-bone", target=(734.0, 400.0), stretch=1.5)  # 1.3 x full reach
    steps(scene, 2)
    assert chain.status == "reached"
    assert chain.fields["scale"][0] == pytest.approx(1.3)
    bones = np.hypot(*np.diff(chain.fields["points"], axis=0).T)
    assert np.allclose(bones, 1.3 * chain.fields["lengths"])


def knee_y(chain):
    return chain.fields["points"][1][1]


def test_auto_bend_keeps_the_knee_on_top_and_holds_its_side_inside_the_band():
    scene, chain = scene_with("two-bone", target=(600.0, 350.0), auto_bend=True)
    band = AUTO_BEND_BAND * 180.0
    steps(scene)
    assert knee_y(chain) < 350.0  # on top, right of the root
    chain.fields["target"][:] = (400.0, 350.0)
    steps(scene)
    assert knee_y(chain) < 350.0  # still on top, left of it
    side = chain.fields["side"][0]
    for dx in np.linspace(-band + 1.0, band - 1.0, 9):  # hovering about the vertical: no switch
        chain.fields["target"][:] = (500.0 + dx, 300.0)
        steps(scene)
        assert chain.fields["side"][0] == side
    chain.fields["target"][:] = (500.0 + band + 1.0, 300.0)
    steps(scene)
    assert chain.fields["side"][0] == -side


def test_the_pole_moves_with_its_chain_and_survives_a_new_bone_count_and_another_solver():
    scene, chain = scene_with("ccd", target=(560.0, 330.0), pole=(400.0, 300.0))
    scene.move_chain(chain, (520.0, 410.0))
    assert np.allclose(chain.pole, (420.0, 310.0))
    chain = scene.with_bone_count(chain, 7)
    assert np.allclose(chain.pole, (420.0, 310.0))
    for solver in ("dls", "two-bone", "fabrik"):
        chain = scene.set_solver(chain, solver)
        assert np.allclose(chain.pole, (420.0, 310.0)), solver


def test_a_shrinking_stage_pulls_the_pole_in_and_a_growing_one_puts_it_back():
    scene, chain = scene_with("fabrik", target=(560.0, 330.0), pole=(900.0, 300.0))
    scene.resize((700.0, 800.0))
    assert chain.pole[0] == 700.0
    scene.resize(STAGE)
    assert np.allclose(chain.pole, (900.0, 300.0))


@pytest.mark.parametrize("solver", ["two-bone", "ccd", "fabrik", "dls"])
def test_every_option_goes_through_a_file_and_back(tmp_path, solver):
    scene, chain = scene_with(solver, pole=(432.5, 210.25), mix=0.75, softness=12.5, stretch=1.25, auto_bend=True,
                              damping=0.8)
    path = tmp_path / "s.json"
    save_scene(scene, path)
    loaded = load_scene(path).chains[0]
    assert loaded.solver == solver
    # what the solver has is kept; the rest is not written and loads at its default
    owner = {"pole": "pole_on", "mix": "mix", "softness": "softness", "stretch": "stretch", "auto_bend": "auto_bend",
             "damping": "damping", "motion": "motion", "jiggle": "jiggle", "jiggle_damping": "jiggle_damping",
             "jiggle_gravity": "jiggle_gravity"}
    expected = {k: v if setting(owner[k]).applies(solver) else DEFAULTS[k] for k, v in chain.ik_options().items()}
    assert loaded.ik_options() == expected


def test_a_chain_without_a_pole_is_saved_without_the_field(tmp_path):
    scene, _ = scene_with("ccd")
    path = tmp_path / "s.json"
    save_scene(scene, path)
    assert '"pole"' not in path.read_text(encoding="utf-8")
    assert load_scene(path).chains[0].pole is None
