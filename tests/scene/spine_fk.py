"""An independent reading of a Spine 4.x skeleton JSON for the tests: Spine's own bone transform rules
(``Bone.updateWorldTransform`` for inherit "normal") on the setup pose plus the timelines' values, sampled
linearly between keys; and which bone of an export each row of a recording's CSV is at (docs/spine-export.md)."""

from __future__ import annotations

import csv
import math
from collections import defaultdict

import numpy as np

IK = {"two-bone", "ccd", "fabrik", "dls", "transpose", "pseudo-inverse", "sdls", "snake", "rope", "path"}


def sample(keys: list, field: str, times: np.ndarray) -> np.ndarray:
    """A timeline's ``field`` (``value``, ``x``, ``y``: 0 when left out) at ``times`` s, linear between keys."""
    if not keys:
        return np.zeros_like(times)
    t = np.array([k.get("time", 0.0) for k in keys])
    v = np.array([k.get(field, 0.0) for k in keys])
    assert np.all(np.diff(t) > 0), "key times must rise"
    assert all("curve" not in k for k in keys), "the export's keys are linear"
    return np.interp(times, t, v)


def world(doc: dict, times: np.ndarray) -> dict[str, tuple[np.ndarray, ...]]:
    """Every bone's (a, b, c, d, worldX, worldY), each (F,), at ``times``: Spine's rules, parents first."""
    lines = doc["animations"]["run"]["bones"]
    out: dict[str, tuple] = {}
    for bone in doc["bones"]:
        assert bone.get("inherit", "normal") == "normal"
        line = lines.get(bone["name"], {})
        rot = bone.get("rotation", 0.0) + sample(line.get("rotate", []), "value", times)
        x = bone.get("x", 0.0) + sample(line.get("translate", []), "x", times)
        y = bone.get("y", 0.0) + sample(line.get("translate", []), "y", times)
        sx, sy = bone.get("scaleX", 1.0), bone.get("scaleY", 1.0)
        shx, shy = bone.get("shearX", 0.0), bone.get("shearY", 0.0)
        la, lb = np.cos(np.radians(rot + shx)) * sx, np.cos(np.radians(rot + 90 + shy)) * sy
        lc, ld = np.sin(np.radians(rot + shx)) * sx, np.sin(np.radians(rot + 90 + shy)) * sy
        if "parent" not in bone:
            out[bone["name"]] = (la, lb, lc, ld, x, y)
            continue
        pa, pb, pc, pd, px, py = out[bone["parent"]]
        out[bone["name"]] = (pa * la + pb * lc, pa * lb + pb * ld, pc * la + pd * lc, pc * lb + pd * ld,
                             pa * x + pb * y + px, pc * x + pd * y + py)
    return out


def read_rows(csv_path) -> tuple[int, dict]:
    """The recording's first step and {(step, name): (solver, joints (J, 2) px y down, target (2,))}."""
    rows: dict = defaultdict(list)
    meta: dict = {}
    with open(csv_path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["step"]), row["name"])
            rows[key].append((float(row["x"]), float(row["y"])))
            meta[key] = (row["solver"], (float(row["target_x"]), float(row["target_y"])))
    first = min(step for step, _ in rows)
    return first, {k: (meta[k][0], np.array(v), np.array(meta[k][1])) for k, v in rows.items()}


def _count(names: set, prefix: str) -> int:
    return sum(1 for n in names if n.startswith(prefix) and n[len(prefix):].isdigit())


def children(doc: dict) -> dict[str, list[str]]:
    kids: dict = defaultdict(list)
    for bone in doc["bones"]:
        if "parent" in bone:
            kids[bone["parent"]].append(bone["name"])
    return kids


def by_chain(doc: dict) -> dict[str, set[str]]:
    """Each chain's base (``chain-<name>``) and its bones' full names."""
    out: dict = defaultdict(set)
    for b in doc["bones"]:
        out[b["name"].split("/")[0]].add(b["name"])
    return out


def expected_bones(doc: dict, solver: str, base: str, joints: int, names: set[str],
                   kids: dict) -> list[tuple[int | str, str]]:
    """(row index or "target", bone name) for each row of a chain whose origin is that row's point; ``names`` the
    chain's bones (:func:`by_chain`), ``kids`` each bone's children (:func:`children`)."""
    apps = _count({n.split("/")[1] for n in names if n.startswith(base + "/app-")}, "app-")
    per_app = _count({n[len(base) + 7:] for n in names if n.startswith(base + "/app-0/")}, "bone-")
    tail = joints - apps * (per_app + 1)
    out: list = []
    for a in range(apps):
        at = tail + a * (per_app + 1)
        out.append((at, f"{base}/app-{a}/bone-0"))
        out += [(at + 1 + b, f"{base}/app-{a}/" + (f"bone-{b + 1}" if b + 1 < per_app else "tip"))
                for b in range(per_app)]
    if solver in IK:
        n = _count({n[len(base) + 1:] for n in names if n.startswith(base + "/")}, "bone-")
        out += [(j, f"{base}/" + (f"bone-{j + 1}" if j + 1 < n else "tip")) for j in range(n)]
        if solver in ("rope", "path"):
            out.append((n, f"{base}/bone-0"))
        if solver == "snake":
            out.append(("target", f"{base}/bone-0"))
    elif solver == "walker":
        legs = _count({n.split("/")[1] for n in names if n.startswith(base + "/leg-")}, "leg-")
        m = _count({n[len(base) + 7:] for n in names if n.startswith(base + "/leg-0/")}, "bone-")
        out.append(("target", f"{base}/body"))
        out += [(leg * m + b, f"{base}/leg-{leg}/" + (f"bone-{b + 1}" if b + 1 < m else "tip"))
                for leg in range(legs) for b in range(m)]
    elif solver == "rig":
        n = _count({n[len(base) + 1:] for n in names if n.startswith(base + "/")}, "bone-")
        out.append(("target", f"{base}/bone-0"))
        for j in range(n):
            ends = [k for k in kids[f"{base}/bone-{j}"] if "/app-" not in k]
            out.append((j, ends[0]))
    else:
        raise AssertionError(f"a solver the test does not know: {solver}")
    return out


def worst_error(doc: dict, csv_path) -> tuple[float, int]:
    """The largest distance px between a recorded joint (y flipped) and its bone's origin, and the rows checked."""
    first, rows = read_rows(csv_path)
    steps = sorted({step for step, _ in rows})
    times = (np.array(steps) - first) / doc["skeleton"]["fps"]
    pose = world(doc, times)
    at = {s: i for i, s in enumerate(steps)}
    worst, checked, layout = 0.0, 0, {}
    chains, kids = by_chain(doc), children(doc)
    for (step, name), (solver, joints, target) in rows.items():
        base = f"chain-{name}"
        key = (name, solver, len(joints))
        if key not in layout:
            layout[key] = expected_bones(doc, solver, base, len(joints), chains[base], kids)
        for row, bone in layout[key]:
            point = target if row == "target" else joints[row]
            wx, wy = pose[bone][4][at[step]], pose[bone][5][at[step]]
            worst = max(worst, math.hypot(wx - point[0], wy + point[1]))
            checked += 1
    return worst, checked
