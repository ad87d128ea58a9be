"""Local set-up for the solver tests.

The shared strategies and reference implementations live in ``solver_cases.py``
next to this file; the tests import it by package (``from .solver_cases import ...``).
The ``backend`` fixture runs a test on numpy and again on the compiled kernels.
"""

import pytest

from ikplayground.solvers import jit


@pytest.fixture(params=["numpy", "numba"])
def backend(request, monkeypatch):
    """Run the batched solvers on numpy, or on the compiled kernels (skipped without numba)."""
    if request.param == "numpy":
        monkeypatch.setenv("IKPLAYGROUND_JIT", "0")
    else:
        pytest.importorskip("numba")
        monkeypatch.setenv("IKPLAYGROUND_JIT", "1")
        assert jit.kernels(wait=True) is not None, "numba is installed but the kernels did not compile"
    return request.param

