"""The shape of the package (docs/design.md, "Layers"): imports point down, packages meet at
their front doors, modules stay small and packages shallow.

These read the source with :mod:`ast`; nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ikplayground"
LAYERS = ("solvers", "scene", "insight", "app")  # low to high: a layer imports only those before it
MAX_DIRECT_MODULES = 12
MAX_MODULE_LINES = 350


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def dotted(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> list[str]:
    """Every module name ``path`` imports, made absolute (``from . import x`` gives ``pkg.x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = dotted(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            names.append(base)
            names += [f"{base}.{a.name}" for a in node.names]
    return names


def layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "ikplayground" and parts[1] in LAYERS else None


@pytest.mark.slow
@pytest.mark.parametrize("path", modules(), ids=lambda p: dotted(p))
def test_imports_point_down_only(path):
    own = layer(dotted(path))
    if own is None:
        return
    allowed = set(LAYERS[: LAYERS.index(own) + 1])
    above = sorted({n for n in imported(path) if layer(n) is not None and layer(n) not in allowed})
    assert not above, f"{dotted(path)} ({own}) imports from a layer above it: {above}"
    if own != "app":
        assert not any(n.split(".")[0] in ("pygame", "pygame_gui") for n in imported(path)), \
            f"{dotted(path)} imports pygame outside the app"


@pytest.mark.slow
@pytest.mark.parametrize("path", modules(), ids=lambda p: dotted(p))
def test_no_module_imports_another_packages_private_module(path):
    # a package here is a layer (ikplayground.solvers, .scene, ...): inside one, private names are shared
    here = dotted(path)
    own = ".".join(here.split(".")[:2])
    bad = []
    for name in imported(path):
        parts = name.split(".")
        for i, part in enumerate(parts):
            if part.startswith("_") and not part.startswith("__"):
                if ".".join(parts[:2]) != own:
                    bad.append(name)
                break
    assert not bad, f"{here} imports private modules of another package: {bad}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: dotted(p))
def test_no_module_is_over_the_size_limit(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(ROOT)} has {lines} lines (limit {MAX_MODULE_LINES})"


@pytest.mark.parametrize("package", ["scene", "app"])
def test_the_big_packages_hold_few_modules_directly(package):
    direct = sorted(p.name for p in (PACKAGE / package).glob("*.py"))
    assert len(direct) <= MAX_DIRECT_MODULES, f"ikplayground/{package} holds {len(direct)} modules: {direct}"


def test_the_scene_front_door_exports_what_it_lists():
    import ikplayground.scene as scene

    missing = [n for n in scene.__all__ if not hasattr(scene, n)]
    assert not missing, missing


@pytest.mark.slow
def test_the_imports_the_app_makes_of_the_scene_go_through_its_front_door():
    # what the app needs of the scene is exported by ikplayground.scene; only the edit and step
    # modules it drives directly (the Edit classes, the target paths' hold) are reached by path
    allowed = {"ikplayground.scene.edit.edits", "ikplayground.scene.edit.moves", "ikplayground.scene.step.target_paths"}
    bad = []
    for path in (PACKAGE / "app").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ikplayground.scene."):
                full = {f"{node.module}.{a.name}" for a in node.names} | {node.module}
                if not full & allowed:
                    bad.append(f"{dotted(path)}: from {node.module} import ...")
    assert not bad, "\n".join(bad)
