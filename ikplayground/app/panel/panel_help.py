"""The panel's controls described for people: docs/controls.md's panel table (the settings' rows from the table
of settings, the rest here)."""

from __future__ import annotations

from ikplayground.app.panel.param_widgets import panel_help_rows
from ikplayground.scene import PRESETS, SOLVER_LABELS, SOLVERS

# the panel's controls other than the settings' rows, for docs/controls.md's table
SOLVER_HELP = ("Solver", f"{', '.join(SOLVER_LABELS[k] for k in SOLVERS)}; the chain stays where it is on screen")
SCENE_HELP = (
    ("Preset", f"load a preset scene ({', '.join(PRESETS)}); your scene file is left as it is, and Ctrl+S "
               "saves to it"),
    ("New chain", "the solver N adds"),
    ("Add obstacle", "a circle at a free spot (O: at the mouse), its radius 8 to 300 px, drawn under the chains "
                     "and kept in the scene file; drag it to move it, its rim to resize it, Delete over it removes "
                     "it; CCD and FABRIK chains bend round it, and the joint-space map shades the poses it "
                     "forbids"),
    ("Scene file, Save, Load", "the file Ctrl+S and Ctrl+O use ([the format](scene-format.md)); Enter keeps "
                               "the typed path, and Ctrl+S / Ctrl+O while typing act on it"),
)


# the Math page's controls for docs/controls.md's panel table (its buttons and boxes are in the command help too)
MATH_HELP = (
    ("Chain / Math / Keep tabs", "the selected chain's settings and the scene, the math page below, or the "
                                 "Keep page after it"),
    ("Show the math (G)", "draw the selected chain's geometry on the stage: a two-bone arm's reach and its "
                          "law-of-cosines triangle with phi, psi and gamma, each joint's limit arc and angle, the "
                          "error in px, the pose the rate limit holds back, the pole's side, a snake's bend ranges; "
                          "a rig's sub-bases (where branches meet) and each target's error"),
    ("Step, Sweep, Finish", "pause and step the selected CCD or FABRIK chain's solve: one joint update or "
                            "half-pass, one sweep or pass, the rest (keys . , /); the status line says where it is"),
    ("Race, Moving target", "one chain of each solver on the selected chain's bones and limits, chasing one "
                            "target; the moving target runs a figure-eight"),
    ("Live numbers", "the selected chain's error, status, iterations, solve time, largest turn, and its error "
                     "over the last 5 s; the race's table while it runs"),
    ("Joint space", "a two-bone arm's (theta1, theta2) map: both elbow answers, the limits, the pose and its "
                    "trail, the unreachable shading, the poses that put a bone inside an obstacle (grey); click or "
                    "drag on it to pose the arm"),
)

# the Keep page's controls (its buttons and boxes are in the command help too)
KEEP_HELP = (
    ("Record, Export animation", "record every step to a CSV beside the scene file ([the format](recording.md)); "
                                 "bake the last recording into a JSON file of keyframes "
                                 "([the format](animation-format.md)), of every chain or, with \"Selected "
                                 "chain only\", the selected one"),
    ("Export to Spine", "export the last recording as a Spine 4.x skeleton JSON beside it, a bone per chain bone "
                        "and one animation, run ([the mapping](spine-export.md))"),
    ("Undo, Redo", "step back and forth through the scene's edits: settings, solver, bone count, add and remove, "
                   "drags, loads, presets, the race"),
    ("Flip", "mirror the selected chain about its root's vertical (a snake's head's, a walker's body's): angles, "
             "limits, bend, pole, target and its motion; again (or Undo) gives it back exactly"),
    ("Screenshot", "save the window as a PNG beside the scene file, named by the date and time"),
    ("Capture GIF", "capture the window to an animated GIF beside the scene file at 50 frames a second; again to "
                    "stop and save it (F9; [sharing](sharing.md))"),
)


def panel_table() -> str:
    """The panel's controls (solver, settings, scene, Math and Keep pages) as docs/controls.md's table."""
    lines = ["| Panel | What it does |", "| --- | --- |"]
    rows = (SOLVER_HELP, *panel_help_rows(), *SCENE_HELP, *MATH_HELP, *KEEP_HELP)
    lines += [f"| {name} | {text} |" for name, text in rows]
    return "\n".join(lines)
