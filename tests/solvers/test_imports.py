"""The solver library and the scene model import without pygame (docs/design.md, Layers)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow
@pytest.mark.parametrize("module", ["ikplayground.solvers", "ikplayground.scene", "ikplayground.scene.record.bake"])
def test_import_leaves_pygame_out(module):
    # A fresh interpreter: this test process may already have pygame loaded.
    code = (
        "import sys\n"
        f"import {module}\n"
        "loaded = sorted(m for m in sys.modules if m == 'pygame' or m.startswith(('pygame.', 'pygame_gui')))\n"
        "print(repr(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"importing {module} loaded {done.stdout.strip()}"


def test_the_public_solver_api_is_there():
    import ikplayground.solvers as solvers

    for name in ("forward_kinematics", "solve_two_bone", "solve_ccd", "solve_fabrik", "solve_dls", "follow_snake"):
        assert callable(getattr(solvers, name)), name
        assert name in solvers.__all__
