"""Test set-up: headless SDL before anything imports pygame, and hypothesis profiles."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import warnings  # noqa: E402

from hypothesis import HealthCheck, settings  # noqa: E402

# When a hypothesis test fails, its pytest plugin imports ``hypothesis.extra._patching``
# (libcst) to suggest a patch; in this environment that import emits a DeprecationWarning,
# which ``filterwarnings = error`` turns into an INTERNALERROR that hides the failure.
# Importing it once here, with that warning silenced, keeps every folder's reports readable.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# CI runs the same examples every time (the gate must not flake on a new random
# seed); locally each run explores new ones.
settings.register_profile(
    "ci",
    parent=settings.get_profile("default"),
    derandomize=True,
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_configure(config):
    """Before the workers of ``-n N`` start: compile the numba kernels once, into numba's disk cache.

    On a cold cache (a fresh clone, CI) every worker would otherwise compile them all itself, and every App's
    loader once more in its own process, each taking a core for a minute or two while the others wait. A warm
    cache makes this a load of a few seconds. A worker, a run without workers, no numba or ``IKPLAYGROUND_JIT=0``:
    nothing is done here.
    """
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    from concurrent.futures import ThreadPoolExecutor

    from ikplayground.app.draw import crowd_fast
    from ikplayground.solvers import jit

    if not (jit.enabled() and jit.available()):
        return
    with ThreadPoolExecutor(2) as pool:  # each in a process of its own: the solvers' and the crowd's kernels
        list(pool.map(lambda loader: loader.compile_elsewhere(), (jit.SOLVERS, crowd_fast.LOADER)))
