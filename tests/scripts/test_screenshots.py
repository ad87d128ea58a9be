"""The screenshot scripts run end to end (as arcade runs every example in its tests) and make what the docs show."""

import subprocess
import sys
from pathlib import Path

import pytest

from ikplayground.scene import PRESETS

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
MATH_SHOTS = ("math-overlays.png", "step-through.png", "race.png", "joint-map.png")


def run(script: str, *args) -> str:
    done = subprocess.run([sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_math_screenshots_are_made_one_per_feature(tmp_path):
    out = run("math_screenshots.py", "--out", str(tmp_path))
    pngs = [tmp_path / name for name in MATH_SHOTS]
    for png in pngs:
        assert png.stat().st_size > 10_000 and f"wrote {png}" in out
    assert len({png.read_bytes() for png in pngs}) == len(pngs)  # four different pictures


@pytest.mark.parametrize("name", MATH_SHOTS)
def test_the_guide_shows_each_math_screenshot(name):
    guide = (SCRIPTS.parent / "docs" / "guide.md").read_text(encoding="utf-8")
    assert f"]({name})" in guide and (SCRIPTS.parent / "docs" / name).is_file()


def test_the_readme_shows_the_gif_and_the_guide_the_screenshot():
    readme = (SCRIPTS.parent / "README.md").read_text(encoding="utf-8")
    guide = (SCRIPTS.parent / "docs" / "guide.md").read_text(encoding="utf-8")
    assert "](docs/ikplayground.gif)" in readme and "--gif docs/ikplayground.gif" in readme
    assert "](screenshot.png)" in guide and (SCRIPTS.parent / "docs" / "screenshot.png").is_file()
    gif = SCRIPTS.parent / "docs" / "ikplayground.gif"
    assert 100_000 < gif.stat().st_size < 3_000_000  # a few seconds that load quickly


@pytest.mark.slow
def test_the_readme_screenshot_and_every_presets_picture_are_made(tmp_path):
    from ikplayground.scene.build.presets import PRESETS

    png = tmp_path / "shot.png"
    run("screenshot.py", "--out", str(png), "--presets", str(tmp_path / "presets"), "--frames", "10")
    assert png.stat().st_size > 10_000
    for name in PRESETS:
        assert (tmp_path / "presets" / f"{name}.png").stat().st_size > 10_000, name


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_guide_s_gallery_shows_every_preset(name):
    guide = (SCRIPTS.parent / "docs" / "guide.md").read_text(encoding="utf-8")
    assert f"](presets/{name}.png)" in guide and (SCRIPTS.parent / "docs" / "presets" / f"{name}.png").is_file()
