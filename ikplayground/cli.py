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


def gif_fps(text: str) -> float:
    """Frames a second of a GIF: a number in (0, 50]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a number of frames a second, such as 25") from None
    if not 0 < value <= 50:
        raise argparse.ArgumentTypeError("must be above 0 and at most 50 (GIF delays are whole hundredths of a "
                                         "second, and browsers slow frames under 2/100 s down)")
    return value


def gif_scale(text: str) -> float:
    """A capture's scale: a number in (0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a number such as 0.5") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError("must be above 0 and at most 1 (it shrinks the frames)")
    return value


def output_problem(flag: str, text: str) -> str | None:
    """Why the file ``text`` given to ``flag`` cannot be written (one line), or None when it can be."""
    path = Path(text)
    folder = path.parent
    if not text or path.name in ("", ".", ".."):
        return f"{flag} {text}: expected a file name"
    if os.path.isdir(path):
        return f"{flag} {text}: is a folder, not a file"
    if not os.path.isdir(folder):
        return f"{flag} {text}: the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{flag} {text}: the folder {folder} is not writable"
    return None


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
    parser.add_argument("--gif", default=None, metavar="OUT.gif",
                        help="write the run as an animated GIF (the stage; --gif-window for the whole window), "
                             "written when the run ends; with --replay and --headless but no --frames, the whole "
                             "recording")
    parser.add_argument("--gif-fps", default=None, metavar="F",
                        help="the GIF's frames a second, above 0, at most and by default 50: the run's 60 frames a "
                             "second are resampled (the first frame of each 1/F s is kept) and every delay is "
                             "written in whole hundredths of a second, rounded cumulatively, so the GIF plays at "
                             "true speed (GIF delays are centiseconds, and browsers show frames under 2 cs for 10 cs)")
    parser.add_argument("--gif-scale", default=None, metavar="S",
                        help="shrink the GIF's (and the video's) frames by S, 0 < S <= 1 (default 1)")
    parser.add_argument("--gif-window", action="store_true",
                        help="capture the whole window (stage, panel, status line), not the stage alone")
    parser.add_argument("--video", default=None, metavar="OUT.mp4",
                        help="write the run as an H.264 MP4 video, every frame at 60 frames a second (same "
                             "--gif-scale and --gif-window); needs the video extra: pip install "
                             "\"ikplayground[video]\"")
    return parser


def capture_problem(args) -> str | None:
    """Why the --gif and --video options cannot be followed (one line), or None."""
    if args.gif is None and args.video is None:
        for flag, given in (("--gif-fps", args.gif_fps), ("--gif-scale", args.gif_scale), ("--gif-window", None)):
            if given is not None or (flag == "--gif-window" and args.gif_window):
                return f"{flag} needs --gif OUT.gif or --video OUT.mp4"
        return None
    if args.gif_fps is not None and args.gif is None:
        return "--gif-fps needs --gif OUT.gif (a video has every frame, at 60 frames a second)"
    try:  # the numbers, checked as the options are read (one line each)
        args.gif_fps = 50.0 if args.gif_fps is None else gif_fps(args.gif_fps)
    except argparse.ArgumentTypeError as e:
        return f"--gif-fps {args.gif_fps}: {e}"
    try:
        args.gif_scale = 1.0 if args.gif_scale is None else gif_scale(args.gif_scale)
    except argparse.ArgumentTypeError as e:
        return f"--gif-scale {args.gif_scale}: {e}"
    if args.video is not None:
        from ikplayground.app.draw.video_writer import video_missing  # no pygame

        missing = video_missing()
        if missing:
            return f"--video {missing}"
    for flag, path in (("--gif", args.gif), ("--video", args.video)):
        problem = output_problem(flag, path) if path is not None else None
        if problem:
            return problem
    return None


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.headless and args.frames is None and args.replay is None:
        parser.error("--headless needs --frames N or --replay FILE.csv (a headless run must end by itself)")
    problem = capture_problem(args)
    if problem:
        parser.exit(2, f"ikplayground: {problem}\n")
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
        if (args.gif or args.video) and app.capture.start(args.gif, args.video, args.gif_fps, args.gif_scale,
                                                          args.gif_window, threaded=False):
            app.close()
            return 1
        if args.headless and args.frames is None:  # --replay: until the recording ends
            while app.running and app.replay.active:
                app.frame()
        else:
            app.run(max_frames=args.frames)
        if args.screenshot:
            app.save_screenshot(args.screenshot)
        errors = app.capture.finish()
        for error in errors:
            print(f"ikplayground: {error}", file=sys.stderr)
        rig = dict(app.record.rig)
        app.close()
        if errors:
            return 1
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
