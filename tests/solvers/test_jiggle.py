"""jiggle_step: a chain with inertia that springs back toward its rest pose (Verlet, constraints from the root out).

The specification of issue 28: bones keep their lengths, a damped chain comes to rest at its rest pose, a free
damped chain hangs straight down under gravity, a rigid one is its rest pose wherever the root goes, and the
batch is the single call row by row.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import forward_kinematics, jiggle_step

PI = math.pi
FAST = settings(deadline=None, max_examples=60)
LONG = settings(deadline=None, max_examples=8)


def rest_points(root, root_angle, rest, lengths) -> np.ndarray:
    """Where the rest pose puts the joints (the solvers' forward kinematics: bone 0 from ``root_angle``)."""
    return forward_kinematics(root, np.r_[root_angle + rest[0], rest[1:]], lengths)


def bone_lengths(points) -> np.ndarray:
    return np.hypot(*np.diff(points, axis=-2).T).T


@st.composite
def chains(draw, max_bones=8):
    """A chain: its lengths, a rest pose, a root and root angle, and joints scattered about its rest spots."""
    n = draw(st.integers(1, max_bones))
    lengths = np.array(draw(st.lists(st.floats(2.0, 80.0), min_size=n, max_size=n)))
    rest = np.array(draw(st.lists(st.floats(-1.2, 1.2), min_size=n, max_size=n)))
    root = np.array(draw(st.tuples(st.floats(-500, 1500), st.floats(-500, 1500))))
    root_angle = draw(st.floats(-PI, PI))
    kick = np.array(draw(st.lists(st.tuples(st.floats(-40, 40), st.floats(-40, 40)), min_size=n + 1,
                                  max_size=n + 1)))
    points = rest_points(root, root_angle, rest, lengths) + kick
    points[0] = root
    return dict(points=points, previous=points - kick * draw(st.floats(0.0, 0.5)), lengths=lengths, root=root,
                root_angle=root_angle, rest_angles=rest)


@st.composite
def limits_for(draw, rest):
    """(n, 2) ranges around each rest angle (so the rest pose is inside them)."""
    rows = []
    for a in rest:
        lo = max(-PI, a - draw(st.floats(0.0, 2.0)))
        hi = min(PI, a + draw(st.floats(0.0, 2.0)))
        rows.append((lo, hi))
    return np.array(rows)


def run(chain, steps, root_path=None, **knobs):
    """``steps`` steps from ``chain``; the root and root angle from ``root_path(k)`` when given. The last two."""
    p, prev = chain["points"], chain["previous"]
    for k in range(steps):
        root, angle = root_path(k) if root_path else (chain["root"], chain["root_angle"])
        p, prev = jiggle_step(p, prev, chain["lengths"], root, angle, chain["rest_angles"], **knobs)
    return p, prev


@FAST
@given(chains(), st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.tuples(st.floats(-2000, 2000), st.floats(-2000, 2000)),
       st.integers(1, 30), st.booleans(), st.data())
def test_every_bone_keeps_its_length_after_every_step(chain, stiffness, damping, gravity, steps, limited, data):
    limits = data.draw(limits_for(chain["rest_angles"])) if limited else None
    p, prev = chain["points"], chain["previous"]
    for _ in range(steps):
        p, prev = jiggle_step(p, prev, chain["lengths"], chain["root"], chain["root_angle"], chain["rest_angles"],
                              stiffness=stiffness, damping=damping, gravity=gravity, limits=limits)
        np.testing.assert_allclose(bone_lengths(p), chain["lengths"], rtol=0, atol=1e-6)
        np.testing.assert_array_equal(p[0], chain["root"])  # joint 0 pinned on the root
        if limits is not None:  # each relative angle inside its range
            absolute = np.arctan2(*np.diff(p, axis=0)[:, ::-1].T)
            relative = np.diff(np.r_[chain["root_angle"], absolute])
            relative = (relative + PI) % (2 * PI) - PI
            assert np.all(relative >= limits[:, 0] - 1e-9) and np.all(relative <= limits[:, 1] + 1e-9)


@LONG
@given(chains(), st.floats(0.1, 1.0), st.floats(0.05, 1.0))
def test_a_damped_chain_on_a_fixed_root_comes_to_rest_at_its_rest_pose(chain, stiffness, damping):
    p, prev = run(chain, 600, stiffness=stiffness, damping=damping)
    assert np.abs(p - prev).max() < 1e-3  # largest joint speed, px a step
    rest = rest_points(chain["root"], chain["root_angle"], chain["rest_angles"], chain["lengths"])
    np.testing.assert_allclose(p, rest, rtol=0, atol=1e-2)


@LONG
@given(chains())
def test_a_free_damped_chain_hangs_straight_down_under_gravity(chain):
    p, _ = run(chain, 2000, stiffness=0.0, damping=0.05, gravity=(0.0, 900.0))
    down = chain["root"] + np.c_[np.zeros(len(p)), np.r_[0.0, np.cumsum(chain["lengths"])]]
    np.testing.assert_allclose(p, down, rtol=0, atol=1.0)


@FAST
@given(chains(), st.floats(-30, 30), st.floats(-30, 30), st.floats(-0.3, 0.3),
       st.tuples(st.floats(-2000, 2000), st.floats(-2000, 2000)))
def test_a_rigid_chain_is_its_rest_pose_while_the_root_moves_and_turns(chain, vx, vy, spin, gravity):
    def path(k):
        return chain["root"] + (vx * k, vy * k), chain["root_angle"] + spin * k

    for steps in (1, 7):
        p, _ = run(chain, steps, path, stiffness=1.0, damping=0.0, gravity=gravity)
        root, angle = path(steps - 1)
        np.testing.assert_allclose(p, rest_points(root, angle, chain["rest_angles"], chain["lengths"]), rtol=0,
                                   atol=1e-9)


@FAST
@given(st.lists(chains(max_bones=5), min_size=1, max_size=6), st.data())
def test_batched_rows_equal_single_calls(chain_list, data):
    n = len(chain_list[0]["lengths"])
    same = [dict(c) for c in chain_list if len(c["lengths"]) == n]
    s = np.array([data.draw(st.floats(0.0, 1.0)) for _ in same])
    d = np.array([data.draw(st.floats(0.0, 1.0)) for _ in same])
    g = np.array([data.draw(st.tuples(st.floats(-900, 900), st.floats(-900, 900))) for _ in same])
    stack = {key: np.array([c[key] for c in same]) for key in same[0]}
    new, prev = jiggle_step(stack["points"], stack["previous"], stack["lengths"], stack["root"], stack["root_angle"],
                            stack["rest_angles"], stiffness=s, damping=d, gravity=g)
    for k, c in enumerate(same):
        one, one_prev = jiggle_step(c["points"], c["previous"], c["lengths"], c["root"], c["root_angle"],
                                    c["rest_angles"], stiffness=s[k], damping=d[k], gravity=g[k])
        np.testing.assert_array_equal(new[k], one)
        np.testing.assert_array_equal(prev[k], one_prev)


def test_it_is_deterministic_and_leaves_its_inputs_alone():
    lengths = np.array([30.0, 20.0, 10.0])
    root = np.array([100.0, 100.0])
    points = rest_points(root, 0.3, np.array([0.2, -0.4, 0.5]), lengths) + 3.0
    previous = points - 1.0
    args = (points, previous, lengths, root, 0.3, np.array([0.2, -0.4, 0.5]))
    copies = [np.copy(a) for a in args]
    first = jiggle_step(*args, stiffness=0.3, damping=0.1, gravity=(0, 900))
    second = jiggle_step(*args, stiffness=0.3, damping=0.1, gravity=(0, 900))
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(args, copies):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(first[1], points)  # the positions to pass as previous next step


GOOD = dict(points=np.zeros((3, 2)) + [[0, 0], [10, 0], [20, 0]], previous=np.zeros((3, 2)) + [[0, 0], [10, 0],
            [20, 0]], lengths=[10.0, 10.0], root=(0.0, 0.0), root_angle=0.0, rest_angles=[0.0, 0.0])


@pytest.mark.parametrize("name, value", [
    ("points", np.zeros((1, 2))), ("points", [[0, 0], [1, "a"], [2, 0]]), ("previous", np.zeros((4, 2))),
    ("lengths", [10.0, 0.0]), ("lengths", [10.0]), ("root", (0.0, math.nan)), ("root_angle", math.inf),
    ("rest_angles", [0.0]), ("stiffness", 1.5), ("damping", -0.1), ("gravity", (0.0,)), ("dt", 0.0),
    ("limits", [[0.5, 0.1], [0.0, 0.0]]), ("limits", [[-4.0, 0.0], [0.0, 0.0]]),
])
def test_bad_input_is_a_value_error_naming_the_argument(name, value):
    kwargs = dict(GOOD, stiffness=0.5, damping=0.1)
    kwargs[name] = value
    with pytest.raises(ValueError, match=f"^{name}: "):
        jiggle_step(**kwargs)
