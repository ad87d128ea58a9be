"""The compiled kernels' thread pool sleeps between loops instead of spinning on the CPU the App needs."""

from __future__ import annotations

import os

import pytest

from ikplayground.solvers import jit


def test_the_openmp_threads_wait_passively_once_the_kernels_are_loaded():
    pytest.importorskip("numba")
    if os.environ.get("OMP_WAIT_POLICY", "passive") != "passive":
        pytest.skip("the environment sets its own OMP_WAIT_POLICY, which is kept")
    assert jit.kernels(wait=True) is not None
    assert os.environ["OMP_WAIT_POLICY"] == "passive"
