"""A newcomer's set-up: the package runs from a source checkout, an install and any folder.

The README's run line is ``pip install . && python -m ikplayground`` typed in the
clone's folder, where Python imports the source folder ``ikplayground/`` (the
current directory comes first on ``sys.path``), not the installed copy. So the
data the App needs (the top-level ``assets/``) must be found beside that folder,
and the installed package must ship the same files inside itself. ``.ci/run`` runs the README line itself
on a plain install;
these tests pin down why it works.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ikplayground
from ikplayground.resources import asset_path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(ikplayground.__file__).resolve().parent
ASSETS = ROOT / "assets"


def _env() -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("PYTHONPATH", None)
    return env


def test_the_source_folder_finds_its_assets_without_any_install():
    # -S: no site-packages, so no installed or editable package can help; only the
    # source folder under the current directory is importable.
    code = "from ikplayground.resources import asset_path; print(asset_path('theme.json'))"
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, env=_env(),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    found = Path(out.stdout.strip())
    assert found == ROOT / "assets" / "theme.json"


@pytest.mark.slow
@pytest.mark.parametrize("where", ["the clone's folder", "another folder"])
def test_python_m_ikplayground_runs_headless_from(where, tmp_path):
    cwd = ROOT if where == "the clone's folder" else tmp_path
    scene = tmp_path / "scene.json"
    out = subprocess.run([sys.executable, "-m", "ikplayground", "--headless", "--frames", "3", "--scene", str(scene)],
                         cwd=cwd, env=_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert not scene.exists()  # a run that saves nothing writes nothing


def test_every_asset_file_is_shipped_by_the_package_data_patterns():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.findall(r'^"ikplayground\.assets((?:\.\w+)*)"\s*=\s*\[(.*?)\]', text, flags=re.M)
    assert found, "pyproject.toml names no package data for ikplayground.assets"
    patterns = [f"{sub[1:].replace('.', '/')}/{pat}" if sub else pat
                for sub, listed in found for pat in re.findall(r'"([^"]+)"', listed)]
    data = [p for p in ASSETS.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert data, "the assets folder is empty"
    for path in data:
        rel = path.relative_to(ASSETS).as_posix()
        assert any(fnmatch.fnmatch(rel, pat) for pat in patterns), f"{rel} would not be installed"
        assert asset_path(rel) == path


def test_a_leftover_assets_folder_in_the_package_does_not_hide_the_checkouts(tmp_path, monkeypatch):
    from ikplayground import resources

    stale = tmp_path / "ikplayground" / "assets"
    (stale / "__pycache__").mkdir(parents=True)  # what an update over an old checkout leaves behind
    monkeypatch.setattr(resources, "_INSTALLED", stale)
    assert resources.asset_path("theme.json") == ROOT / "assets" / "theme.json"


def test_a_plain_install_maps_the_assets_folder_into_the_package():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^"ikplayground\.assets"\s*=\s*"assets"', text, flags=re.M), "assets/ is not mapped"
    listed = set(re.findall(r'^    "(ikplayground[\w.]*)",', text, flags=re.M))
    packages = {".".join(p.parent.relative_to(ROOT).parts) for p in PACKAGE.rglob("__init__.py")}
    data_packages = {"ikplayground.assets", "ikplayground.assets.scenes"}  # the assets folder, mapped
    assert packages | data_packages == listed, "pyproject.toml's package list is out of date"


def test_every_path_the_layout_table_names_exists():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    layout = design.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    paths = [p for row in re.findall(r"^\|([^|]+)\|", layout, flags=re.M) for p in re.findall(r"`([^`]+)`", row)]
    assert len(paths) >= 20
    for p in paths:
        assert (ROOT / p).exists(), f"docs/design.md's layout names {p}, which is not in the repository"


@pytest.mark.slow
def test_the_repository_cites_no_file_outside_itself():
    pattern = re.compile(r"DESIGN\.md|seeds?/|\bseed 0\d\d\b|[0-9a-f]{16}\.txt")
    skip = {".git", "__pycache__", ".hypothesis", ".pytest_cache", "build", "dist"}
    hits = []
    for path in ROOT.rglob("*"):
        if skip.intersection(path.parts) or not path.is_file():
            continue
        if path.suffix not in (".py", ".md", ".toml", ".json", ".txt", ".cfg") and path.name != "run":
            continue
        if path == Path(__file__).resolve():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)


@pytest.mark.slow
def test_importing_the_app_starts_no_thread_and_opens_no_window():
    """No import-time side effects: the compiled kernels load when an App is made (or a big batch asks), not when
    a module is imported (the file format's size bounds once set the kernels compiling at import)."""
    code = ("import threading, sys; "
            "import ikplayground.app.app, ikplayground.scene.files.scene_file, ikplayground.solvers; "
            "print(threading.active_count(), 'pygame.display' in sys.modules and "
            "sys.modules['pygame'].display.get_init())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(), capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "False"]
