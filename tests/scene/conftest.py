"""Local set-up for the scene tests.

When a hypothesis test fails, its pytest plugin imports
``hypothesis.extra._patching`` (libcst) to suggest a patch; in this environment
that import emits a DeprecationWarning, which ``filterwarnings = error`` turns
into an INTERNALERROR that hides the failure. tests/solvers/conftest.py does the
same import for the solver tests; repeating it here keeps failure reports
readable when tests/scene runs on its own.
"""

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass
