"""Making ropes: a chain pinned at its root that hangs and swings (scene/step/rope_step.py), many at once or one.

docs/design.md, "The rope". Pixels, y down; a new rope hangs straight down from its root, at rest.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ikplayground.scene.build.build_batch import _batched, _chains, _col, as_columns, empty_fields
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import ROPE_BONES, ROPE_SEGMENT
from ikplayground.scene.core.settings import field_settings, fill_fields
from ikplayground.solvers import lay_out

_OPTIONS = field_settings("rope")  # Pin end, Gravity, Damping: a keyword of make_rope each (the field's name)
_FIELDS: dict[str, type] = {cast(str, s.field): s.field_type for s in _OPTIONS}  # field -> its type
_ARGS = frozenset(("root", "lengths", "points", "previous", "target", "palette_index", *_FIELDS))


def make_ropes(ropes: list[Any], consume: bool = False) -> list[Chain]:
    """Many ropes at once, each as :func:`make_rope` makes it (in order), fields in arrays shared by a bone count.

    ``consume``: set each entry to None once built.
    """
    return _batched(ropes, lambda kw: len(kw["lengths"]), rope_group, consume)


def make_rope(root, lengths, **kw) -> Chain:
    """A rope from ``root`` (2,) px with bones ``lengths`` (n,) px.

    ``kw``: ``points`` (n + 1, 2) px (None: hanging straight down; joints off their bones' lengths are laid out
    again from the root), ``previous`` (the joints a step ago, None: ``points``, at rest), ``target`` (2,) px
    (None: the last joint), ``pin_end``, ``gravity`` (px/s^2), ``damping`` (0..1), ``palette_index``, and the
    :class:`~ikplayground.scene.core.chain.Chain` settings.
    """
    return make_ropes([dict(kw, root=root, lengths=lengths)])[0]


def hanging_points(root, lengths) -> np.ndarray:
    """The joints (n + 1, 2) px of a rope hanging straight down from ``root`` (2,) px, bones ``lengths`` (n,) px."""
    lengths = np.asarray(lengths, dtype=float)
    pts = np.zeros((len(lengths) + 1, 2))
    pts[:] = np.asarray(root, dtype=float)
    pts[1:, 1] += np.cumsum(lengths)
    return pts


def new_rope(at, palette_index: int = 0, bones: int = ROPE_BONES, segment: float = ROPE_SEGMENT, **kw) -> Chain:
    """A new rope of the playground's defaults hanging from ``at`` (2,) px."""
    return make_rope(at, np.full(bones, segment), palette_index=palette_index, **kw)


def rope_from(line: np.ndarray, count: int, **kw) -> Chain:
    """A rope of ``count`` equal bones along the polyline ``line`` (k, 2) px from its first point (a conversion:
    it lies where the old chain lay, its end's target where the line ends)."""
    from ikplayground.scene.build.build import resample  # (build imports this module)

    seg = np.linalg.norm(np.diff(line, axis=0), axis=1)
    reach = float(seg.sum()) or float(count)
    pts = resample(line, count) if seg.sum() > 0 else hanging_points(line[0], np.full(count, reach / count))
    return make_rope(line[0], np.full(count, reach / count), points=pts, target=line[-1], **kw)


def with_bones(chain: Chain, n: int, settings: dict) -> Chain:
    """``chain`` (a rope) with ``n`` bones: the first kept, new ones hanging on from its end (``settings``: the
    chain's, ``preferred_bones`` set)."""
    f = chain.fields
    keep = min(n, chain.bones)
    lengths = np.full(n, float(f["lengths"][-1]))
    lengths[:keep] = f["lengths"][:keep]
    pts = np.concatenate([f["points"][: keep + 1], hanging_points(f["points"][keep], lengths[keep:])[1:]])
    prev = np.concatenate([f["previous"][: keep + 1], pts[keep + 1:]])
    return make_rope(f["root"].copy(), lengths, points=pts, previous=prev, target=f["target"].copy(),
                     palette_index=chain.palette_index,
                     **{name: kind(f[name][0]) for name, kind in _FIELDS.items()}, **settings)


def rope_group(n: int, kws: list[dict]) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """(fields, chains) of ``kws`` (keywords of :func:`make_rope`), all of ``n`` bones: group arrays (N, ...)."""
    count = len(kws)
    cols = as_columns(kws)

    def col(key, default=None):
        return _col(cols, {}, key, default)

    f = empty_fields("rope", n, rows=count)
    f["root"][:] = col("root")
    f["lengths"][:] = col("lengths")
    given = col("points")
    rows = [r for r, v in enumerate(given) if v is not None] if isinstance(given, list) else []
    f["points"][:] = f["root"][:, None, :]  # hanging straight down, then the rows given theirs
    f["points"][:, 1:, 1] += np.cumsum(f["lengths"], axis=1)
    if rows:
        f["points"][rows] = [given[r] for r in rows]
    sound = sound_rows(f["points"], f["root"], f["lengths"])
    if not sound.all():
        part = f["points"][~sound]
        lay_out(part, f["root"][~sound], f["lengths"][~sound])
        f["points"][~sound] = part
    f["previous"][:] = f["points"]
    prev = col("previous")
    back = [r for r, v in enumerate(prev) if v is not None and sound[r]] if isinstance(prev, list) else []
    if back:
        f["previous"][back] = [prev[r] for r in back]
    f["target"][:] = f["points"][:, -1]
    target = col("target")
    aimed = [r for r, v in enumerate(target) if v is not None] if isinstance(target, list) else []
    if aimed:
        f["target"][aimed] = [target[r] for r in aimed]
    fill_fields(f, _OPTIONS, col)
    return f, _chains("rope", f, count, col("palette_index", 0), {k: col(k) for k in cols if k not in _ARGS})


def sound_rows(points: np.ndarray, root: np.ndarray, lengths: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """(N,) bool: joint 0 on ``root`` (N, 2) and each bone ``lengths`` (N, n) px long (relative ``tol``)."""
    d = np.diff(points, axis=1)
    seg = np.hypot(d[..., 0], d[..., 1])
    return np.all(points[:, 0] == root, axis=1) & np.all(np.abs(seg - lengths) <= tol * lengths, axis=1)
