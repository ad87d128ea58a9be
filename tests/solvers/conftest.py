"""Local set-up for the solver tests.

The shared strategies and reference implementations live in ``solver_cases.py``
next to this file; the tests import it by package (``from .solver_cases import ...``).
"""

# When a hypothesis test fails, its pytest plugin imports
# ``hypothesis.extra._patching`` (libcst) to suggest a patch; in this environment
# that import emits a DeprecationWarning from mypy_extensions, which
# ``filterwarnings = error`` turns into an INTERNALERROR that aborts the whole
# run. Importing it once here, with that warning silenced, keeps failure reports
# working. (The project-wide fix belongs in pyproject's filterwarnings.)
import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass
