"""docs/design.md's recipe "Add a setting", followed literally: its row, and nothing else, in a copy of the package.

The recipe's code block is read from the design document and put at the end of the
settings table of a copy of ``ikplayground``; a script run on that copy checks what the
recipe promises: every IK chain has the field with its default, the setting is set and
undone through the scene's one call, the scene file keeps it, and the panel's help lists
it for DLS only. (The solver recipe is checked in tests/scene/test_solver_registry.py.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import math, sys
from pathlib import Path
from ikplayground.scene import Scene, load_scene, make_ik_chain, save_scene, setting
from ikplayground.scene.edit.edits import set_recorded
from ikplayground.app.panel.param_widgets import panel_help_rows

scene = Scene()
dls = scene.new_chain("dls")
ccd = scene.new_chain("ccd")
assert dls.fields["gain"][0] == 1.0 and ccd.fields["gain"][0] == 1.0, "the default on every IK chain"
assert setting("gain").applies("dls") and not setting("gain").applies("ccd")
new, edit = set_recorded(scene, dls, "gain", 9.0)  # clamped to the row's range
assert new.fields["gain"][0] == 4.0, new.fields["gain"]
edit.undo()
assert scene.chains[0].fields["gain"][0] == 1.0, "undo restores it"
edit.redo()
path = Path(sys.argv[1])
save_scene(scene, path)
assert '"gain": 4' in path.read_text(), path.read_text()
again = load_scene(path)
assert again.chains[0].fields["gain"][0] == 4.0 and again.chains[1].fields["gain"][0] == 1.0
converted = again.set_solver(again.chains[0], "fabrik")
assert converted.fields["gain"][0] == 4.0, "kept through a conversion"
assert "Gain" in [label for label, _ in panel_help_rows("dls")]
assert "Gain" not in [label for label, _ in panel_help_rows("ccd")]
print("recipe holds")
"""


def recipe_row() -> str:
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = design.split("**Add a setting.**", 1)[1].split("**Add a solver.**", 1)[0]
    return re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)


@pytest.mark.slow
def test_the_add_a_setting_recipe_is_one_row(tmp_path):
    row = recipe_row()
    assert row.lstrip().startswith("Setting(") and 'field="gain"' in row
    copy = tmp_path / "ikplayground"
    shutil.copytree(ROOT / "ikplayground", copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    settings = copy / "scene" / "core" / "settings.py"
    text = settings.read_text(encoding="utf-8")
    head = "SETTINGS: tuple[Setting, ...] = ("
    end = text.index("\n)\n", text.index(head))  # the table's closing parenthesis
    settings.write_text(text[:end] + "\n" + "".join("    " + line + "\n" for line in row.splitlines()).rstrip("\n")
                        + text[end:], encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), SDL_VIDEODRIVER="dummy")
    out = subprocess.run([sys.executable, "-c", CHECK, str(tmp_path / "s.json")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("recipe holds")
