"""Secondary motion's batches on numpy and on the compiled kernels: jiggle_step's rows and pin_ends' FABRIK sweeps.

Any group (one row too) runs on the kernel once it has loaded; its rows must be numpy's to
rounding, and pin_ends must keep its promises (root pinned, every bone its length, the end on a target in reach)
on either backend.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.solvers import forward_kinematics, jiggle_step, lay_out, pin_ends
from ikplayground.solvers.rope import FEW

from .solver_cases import running_on

FAST = settings(deadline=None, max_examples=25)


@st.composite
def groups(draw):
    """A group of chains of one bone count, joints off their rest spots."""
    rows = draw(st.integers(1, FEW + 12))  # on the one-thread build, and over the threads
    n = draw(st.integers(1, 10))
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    lengths = rng.uniform(2.0, 60.0, (rows, n))
    rest = rng.uniform(-1.2, 1.2, (rows, n))
    root = rng.uniform(0.0, 1000.0, (rows, 2))
    root_angle = rng.uniform(-np.pi, np.pi, rows)
    points = np.array([forward_kinematics(root[k], np.r_[root_angle[k] + rest[k, 0], rest[k, 1:]], lengths[k])
                       for k in range(rows)])
    points[:, 1:] += rng.uniform(-30.0, 30.0, (rows, n, 2))
    previous = points - rng.uniform(-5.0, 5.0, points.shape)
    return dict(points=points, previous=previous, lengths=lengths, root=root, root_angle=root_angle,
                rest_angles=rest, stiffness=rng.uniform(0.0, 1.0, rows), damping=rng.uniform(0.0, 1.0, rows),
                gravity=rng.uniform(-900.0, 900.0, (rows, 2)), limits=np.stack([rest - 0.8, rest + 0.8], axis=-1),
                target=root + rng.uniform(-1.3, 1.3, (rows, 2)) * lengths.sum(axis=1, keepdims=True) / 1.5)


def jiggle(g, limited):
    return jiggle_step(g["points"], g["previous"], g["lengths"], g["root"], g["root_angle"], g["rest_angles"],
                       stiffness=g["stiffness"], damping=g["damping"], gravity=g["gravity"],
                       limits=g["limits"] if limited else None)


@pytest.mark.parametrize("limited", [False, True])
@FAST
@given(g=groups())
def test_the_jiggle_kernel_rows_are_numpys(g, limited):
    pytest.importorskip("numba")
    with running_on("numpy"):
        on_numpy = jiggle(g, limited)
    with running_on("numba"):
        on_numba = jiggle(g, limited)
    np.testing.assert_allclose(on_numba[0], on_numpy[0], rtol=0, atol=1e-9)
    np.testing.assert_array_equal(on_numba[1], on_numpy[1])


def pinned(g, backend, passes=8):
    points = g["points"].copy()
    with running_on(backend):
        pin_ends(points, g["root"], g["target"], g["lengths"], passes)
    return points


@pytest.mark.parametrize("backend", ["numpy", "numba"])
@FAST
@given(g=groups())
def test_pinned_ends_keep_the_root_and_every_bone(g, backend):
    if backend == "numba":
        pytest.importorskip("numba")
    points = pinned(g, backend)
    np.testing.assert_array_equal(points[:, 0], g["root"])
    np.testing.assert_allclose(np.hypot(*np.diff(points, axis=1).transpose(2, 0, 1)), g["lengths"], rtol=0,
                               atol=1e-9)


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_pinned_ends_reach_targets_in_reach(backend):
    if backend == "numba":
        pytest.importorskip("numba")
    angles = np.linspace(-np.pi, np.pi, 12, endpoint=False)
    dist = np.array([30.0, 55.0, 90.0])
    target = np.array([(d * np.cos(a), d * np.sin(a)) for d in dist for a in angles])
    rows = len(target)
    points = np.zeros((rows, 6, 2))
    points[:, :, 1] = np.arange(6) * 20.0  # hanging straight down from the root at the origin
    g = dict(points=points, root=np.zeros((rows, 2)), target=target, lengths=np.full((rows, 5), 20.0))
    gap = np.hypot(*(pinned(g, backend, passes=50)[:, -1] - target).T)
    assert (gap < 0.01).all(), gap


@FAST
@given(g=groups())
def test_the_pin_kernel_rows_are_numpys(g):
    pytest.importorskip("numba")
    np.testing.assert_allclose(pinned(g, "numba"), pinned(g, "numpy"), rtol=0, atol=1e-9)


def test_a_laid_out_rope_follows_its_leader_from_the_root():
    unit = np.array([3.0, 40.0]) / np.hypot(3.0, 40.0)
    points = np.array([[[5.0, 5.0], 30.0 * unit, 10.0 * unit]])  # joint 2 lands on joint 1: it goes straight down
    lay_out(points, np.array([[0.0, 0.0]]), np.array([[10.0, 20.0]]))
    np.testing.assert_allclose(points[0], [[0.0, 0.0], 10.0 * unit, 10.0 * unit + (0.0, 20.0)], atol=1e-12)


def test_every_compiled_kernel_has_a_function_of_its_own():
    """numba's disk cache knows a function by its name and first line, not its options: two builds of one function
    (one over the threads, one on the calling thread) would load each other's machine code."""
    numba = pytest.importorskip("numba")
    from ikplayground.solvers import _jit_kernels

    dispatchers = [d for d in vars(_jit_kernels.build()).values() if isinstance(d, numba.core.dispatcher.Dispatcher)]
    keys = [(d.py_func.__module__, d.py_func.__qualname__, d.py_func.__code__.co_firstlineno) for d in dispatchers]
    assert len(dispatchers) >= 11 and len(set(keys)) == len(keys), keys
