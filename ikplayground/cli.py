"""Command line: parse options and run the App (in a window or headless)."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import tempfile
from pathlib import Path

DEFAULT_SCENE_FILE = "ikplayground-scene.json"


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` (e.g. ``1280x720``) as two positive ints, within the window caps."""
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--size: expected WxH such as 1280x720, got {text!r}") from None
    if w < 1 or h < 1:
        raise argparse.ArgumentTypeError(f"--size: width and height must be positive, got {text!r}")
    from ikplayground.app.size_caps import capped_size, size_limit_text  # plain Python, no pygame

    if capped_size((w, h)) != (w, h):
        raise argparse.ArgumentTypeError(f"--size: {text} is too big: the window may be {size_limit_text()}")
    return w, h


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def scene_file_exists(path: Path) -> bool:
    """False only when nothing is at ``path`` (a path that cannot be looked up counts as there)."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, ValueError):
        return True
    return True


def unknown_scene(name: str, presets: list[str]) -> str:
    """The message for ``--scene NAME`` where NAME is neither a file nor a preset: the presets, and the
    closest one."""
    close = difflib.get_close_matches(name, presets, n=1)
    hint = f" Did you mean {close[0]}?" if close else ""
    return (f"--scene {name}: no such file or preset (the presets are {', '.join(presets)}; a new scene file "
            f"needs a suffix, such as {name}.json).{hint}")


def build_parser() -> argparse.ArgumentParser:
    from ikplayground.scene import PRESETS  # numpy, no pygame

    parser = argparse.ArgumentParser(
        prog="ikplayground",
        description="An interactive playground for 2D inverse kinematics.",
    )
    parser.add_argument("--scene", default=None, metavar="PATH|NAME",
                        help="scene file: loaded at start if it exists; Ctrl+S saves to it, Ctrl+O reloads it "
                             "(default: ikplayground-scene.json in the current directory, and the 'default' preset "
                             f"while it does not exist); or a preset's name ({', '.join(PRESETS)}), which leaves "
                             "the scene file as it is")
    parser.add_argument("--size", type=parse_size, default=(1280, 720), metavar="WxH",
                        help="window size in pixels (default 1280x720)")
    parser.add_argument("--headless", action="store_true",
                        help="no window: use SDL's dummy video driver (needs --frames)")
    parser.add_argument("--frames", type=positive_int, default=None, metavar="N",
                        help="run N frames, then exit with status 0")
    parser.add_argument("--stress", type=positive_int, default=None, metavar="N",
                        help="start with a stress test: N chains (an equal share of each solver) on scripted paths")
    parser.add_argument("--screenshot", default=None, metavar="PNG",
                        help="save the last frame (stage and panel) to this PNG file on exit")
    parser.add_argument("--record", default=None, metavar="FILE.csv",
                        help="record every step to this CSV file from the start (docs/recording.md); it is "
                             "saved when the run ends or Ctrl+R stops it")
    parser.add_argument("--replay", default=None, metavar="FILE.csv",
                        help="drive the targets, snake heads and walker bodies from this recording, from the "
                             "start (give the --scene and --size it was recorded with); then the scene runs on")
    parser.add_argument("--spine", default=None, metavar="OUT.json",
                        help="record the run (to --record's file, else a temporary one) and, when it ends, export it "
                             "as a Spine 4.x skeleton with one animation, 'run' (docs/spine-export.md)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.headless and args.frames is None:
        parser.error("--headless needs --frames N (a headless run must end by itself)")
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from ikplayground.scene import PRESETS, SceneFileError, is_preset, load_preset, load_scene, shown_name

    scene, preset = None, None
    scene_path = Path(args.scene or DEFAULT_SCENE_FILE)
    if args.scene is not None and not scene_file_exists(scene_path) and is_preset(args.scene):
        preset, scene_path = args.scene, Path(DEFAULT_SCENE_FILE)  # a preset never becomes the file Ctrl+S writes
    elif scene_file_exists(scene_path):
        try:
            scene = load_scene(scene_path)
        except SceneFileError as e:
            print(f"ikplayground: {e}", file=sys.stderr)
            return 2
    elif not scene_path.suffix and len(scene_path.parts) == 1:  # a bare word: a preset's name mistyped
        parser.exit(2, f"ikplayground: {unknown_scene(args.scene, list(PRESETS))}\n")
    else:  # a file to come: it starts as the opening scene, already in motion, and Ctrl+S creates it
        preset = "default" if is_preset("default") else None
    if preset is not None:
        scene = load_preset(preset)
    if args.spine and not Path(args.spine).resolve().parent.is_dir():  # said before the run, not after it
        print(f"ikplayground: --spine {args.spine}: the folder {Path(args.spine).resolve().parent} does not exist",
              file=sys.stderr)
        return 2
    from ikplayground.app.app import App  # imports pygame: only now

    app = App(size=args.size, scene=scene, scene_path=scene_path, realtime=not args.headless)
    if args.stress:
        app.stress.start(args.stress)
    elif preset is not None:
        app.panel.show_preset(preset)
        saves = "saves to" if scene_file_exists(scene_path) else "creates"
        app.say(f"Preset {preset}: {PRESETS[preset]}. Ctrl+S {saves} {shown_name(scene_path)}")
    elif scene is None:
        app.say(f"New scene: Ctrl+S will create {shown_name(scene_path)}")
    else:
        count = len(scene.chains)
        app.say(f"Loaded {count} chain{'' if count == 1 else 's'} from {shown_name(scene_path)}")
    with tempfile.TemporaryDirectory(prefix="ikplayground-spine-") as temp:
        record = args.record or (str(Path(temp, "run.csv")) if args.spine else None)
        for start, path in ((app.replay.start, args.replay), (app.record.start, record)):
            error = start(path) if path else None
            if error:
                print(f"ikplayground: {error}", file=sys.stderr)
                app.close()
                return 2
        app.run(max_frames=args.frames)
        if args.screenshot:
            app.save_screenshot(args.screenshot)
        rig = dict(app.record.rig)
        app.close()
        return spine_export(app.record.path, rig, args.spine) if args.spine else 0


def spine_export(csv_path, rig, out) -> int:
    """``--spine OUT``: export the run's recording; 0, or 2 with one line on stderr."""
    from ikplayground.scene import RecordingError, export_spine, shown_name

    try:
        exported = export_spine(csv_path, rig, out)
    except (RecordingError, OSError) as e:
        print(f"ikplayground: --spine {out}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 2
    print(f"Exported {exported.bones} bones, {exported.keys} keys over {exported.frames} frames to "
          f"{shown_name(exported.path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
