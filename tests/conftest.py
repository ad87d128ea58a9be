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
