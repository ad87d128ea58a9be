"""Make the docs' screenshots: the default scene posed, and a picture of every preset, drawn headless.

    python scripts/screenshot.py [--out docs/screenshot.png] [--presets docs/presets]

Runs the real App with SDL's dummy video driver. The main screenshot moves the
targets to positions that show each solver at work (the CCD, FABRIK and DLS
chains reach for the same spot beside their roots, the arm bends toward its
pole), steers the snake for a while, selects the DLS chain (so its joint-limit
wedges show), and saves the frame. Then it loads each preset
(``ikplayground.scene.build.presets``), lets it run for a few seconds of steps, and
saves ``<presets>/<name>.png`` for the guide's gallery (docs/guide.md).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from ikplayground.app.app import App  # noqa: E402
from ikplayground.scene import available_presets, load_preset  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot.png"))
    parser.add_argument("--presets", default=str(ROOT / "docs" / "presets"), help="folder for the presets' pictures")
    parser.add_argument("--frames", type=int, default=240, help="steps each preset runs before its picture")
    args = parser.parse_args()
    app = App(size=(1280, 720), realtime=False)
    scene = app.scene
    arm, ccd, fabrik, dls, snake = scene.chains
    w, h = scene.stage
    scene.move_target(arm, (w * 0.27, h * 0.42))
    scene.set_setting(arm, "pole_on", True)
    for chain in (ccd, fabrik, dls):  # the same limited target, beside each root
        scene.move_target(chain, chain.fields["root"] + (90.0, -120.0))
    scene.select(snake)
    app.held = {"throttle", "right"}
    app.run(max_frames=50)
    app.held = {"throttle"}
    app.run(max_frames=56)
    app.held = set()
    app.run(max_frames=150)
    scene.select(dls)
    app.panel.sync(dls)
    app.run(max_frames=152)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(args.out)
    app.close()
    print(f"wrote {args.out}")
    for name in available_presets():
        preset_picture(name, Path(args.presets) / f"{name}.png", args.frames)


def preset_picture(name: str, path: Path, frames: int) -> None:
    """The preset ``name`` after ``frames`` steps, saved to ``path``."""
    app = App(size=(1280, 720), realtime=False, scene=load_preset(name))
    app.panel.show_preset(name)
    app.run(max_frames=frames)
    path.parent.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(path)
    app.close()
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
