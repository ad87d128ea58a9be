"""Make the guide's screenshots of the math: overlays, a step-through mid-sweep, the race, the joint-space map.

    python scripts/math_screenshots.py [--out docs]

Runs the real App headless (SDL's dummy video driver draws exactly what a
window shows), drives it with the same commands its keys and panel give, and
saves one PNG per feature into ``--out``: ``math-overlays.png``,
``step-through.png``, ``race.png`` and ``joint-map.png``. The tests run it too.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402

from ikplayground.app.app import App  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def fresh(solver: str) -> tuple[App, object]:
    """A new App on the default scene with the chain of ``solver`` selected, the math shown, the Math page up."""
    app = App(size=(1280, 720), realtime=False)
    chain = next(c for c in app.scene.chains if c.solver == solver)
    app.scene.select(chain)
    app.selected_changed()
    app.apply("show_math", True)
    app.panel.show_page("math")
    return app, chain


def run(app: App, frames: int) -> None:
    app.run(max_frames=app.frames + frames)


def overlays(out: Path) -> None:
    """The two-bone arm with soft reach, a moment after its target jumped: reach, triangle, ghost, error."""
    app, arm = fresh("two-bone")
    app.apply("softness", 24.0)
    run(app, 60)
    w, h = app.scene.stage
    app.scene.move_target(arm, (w * 0.30, h * 0.66))
    run(app, 12)  # the rate limit still turning: the solver's pose shows as a ghost
    save(app, out / "math-overlays.png")


def step_through(out: Path) -> None:
    """The CCD chain paused mid-sweep: joint 4 of 7, the lines of the turn and the fading earlier records."""
    app, ccd = fresh("ccd")
    app.apply("show_math", False)  # the step's own lines only
    run(app, 30)
    app.scene.move_target(ccd, ccd.fields["root"] + (170.0, -110.0))
    for _ in range(4):
        app.apply("step")
        run(app, 1)
    save(app, out / "step-through.png")


def race(out: Path) -> None:
    """The race of CCD, FABRIK and DLS on the CCD chain's bones, the target on its figure-eight."""
    app, _ = fresh("ccd")
    app.apply("moving_target", True)
    app.apply("race")
    run(app, 330)
    save(app, out / "race.png")


def joint_map(out: Path) -> None:
    """The two-bone arm's joint space, its target swept round and then out of reach (the shading)."""
    app, arm = fresh("two-bone")
    app.apply("show_math", False)  # the map is the picture
    root = arm.fields["root"].copy()
    for k in range(150):
        a = -math.pi / 2 + 1.2 * math.sin(k / 24.0)
        app.scene.move_target(arm, root + 170.0 * np.array((math.cos(a), math.sin(a))))
        run(app, 1)
    app.scene.move_target(arm, root + (250.0, -60.0))
    run(app, 40)
    save(app, out / "joint-map.png")


def save(app: App, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(path)
    app.close()
    print(f"wrote {path}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    for make in (overlays, step_through, race, joint_map):
        make(out)


if __name__ == "__main__":
    main()
