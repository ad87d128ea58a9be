"""Making path chains: a chain whose joints lie along a cubic Bezier curve (scene/step/path_step.py), many at once
or one.

docs/design.md, "The path". Pixels, y down; a new path chain's curve is a gentle S from its root to the right.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ikplayground.scene.build.build_batch import _batched, _chains, _col, as_columns, empty_fields
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import PATH_BONES, PATH_SEGMENT
from ikplayground.scene.core.settings import field_settings, fill_fields
from ikplayground.scene.step import path_step

_OPTIONS = field_settings("path")  # Start, Slide: a keyword of make_path each (the field's name)
_FIELDS: dict[str, type] = {cast(str, s.field): s.field_type for s in _OPTIONS}  # field -> its type
_ARGS = frozenset(("control", "lengths", "palette_index", *_FIELDS))
S_CURVE = np.array([(0.0, 0.0), (0.4, -0.35), (0.6, 0.35), (1.0, 0.0)])  # a new curve's control points / its reach


def make_paths(paths: list[Any], consume: bool = False) -> list[Chain]:
    """Many path chains at once, each as :func:`make_path` makes it (in order), fields in arrays shared by a bone
    count. ``consume``: set each entry to None once built."""
    return _batched(paths, lambda kw: len(kw["lengths"]), path_group, consume)


def make_path(control, lengths, **kw) -> Chain:
    """A path chain on the cubic Bezier curve ``control`` (4, 2) px with bones ``lengths`` (n,) px of arc.

    ``kw``: ``start`` (px along the curve where its root sits, default 0), ``slide`` (px/s), ``palette_index``,
    and the :class:`~ikplayground.scene.core.chain.Chain` settings.
    """
    return make_paths([dict(kw, control=control, lengths=lengths)])[0]


def s_curve(at, reach: float) -> np.ndarray:
    """The control points (4, 2) px of a gentle S from ``at`` (2,) px, ``reach`` px to the right."""
    return np.asarray(at, dtype=float) + reach * S_CURVE


def new_path(at, palette_index: int = 0, bones: int = PATH_BONES, segment: float = PATH_SEGMENT, facing: float = 1.0,
             **kw) -> Chain:
    """A new path chain of the playground's defaults from ``at`` (2,) px, its curve an S about a tenth longer than it
    to the right (``facing`` -1: to the left, turned half round)."""
    return make_path(s_curve(at, facing * bones * segment), np.full(bones, segment), palette_index=palette_index,
                     **kw)


def path_from(line: np.ndarray, count: int, **kw) -> Chain:
    """A path chain of ``count`` equal bones on a curve through the polyline ``line`` (k, 2) px (a conversion):
    control points at its start, a third and two thirds of the way along it, and its end."""
    from ikplayground.scene.build.build import resample  # (build imports this module)

    reach = float(np.linalg.norm(np.diff(line, axis=0), axis=1).sum())
    control = resample(line, 3) if reach > 0 else s_curve(line[0], count * PATH_SEGMENT)
    return make_path(control, np.full(count, reach / count if reach > 0 else PATH_SEGMENT), **kw)


def with_bones(chain: Chain, n: int, settings: dict) -> Chain:
    """``chain`` (a path chain) with ``n`` bones: the first kept, new ones as long as its last (``settings``: the
    chain's, ``preferred_bones`` set)."""
    f = chain.fields
    keep = min(n, chain.bones)
    lengths = np.full(n, float(f["lengths"][-1]))
    lengths[:keep] = f["lengths"][:keep]
    return make_path(f["control"].copy(), lengths, palette_index=chain.palette_index,
                     **{name: kind(f[name][0]) for name, kind in _FIELDS.items()}, **settings)


def path_group(n: int, kws: list[dict]) -> tuple[dict[str, np.ndarray], list[Chain]]:
    """(fields, chains) of ``kws`` (keywords of :func:`make_path`), all of ``n`` bones: group arrays (N, ...)."""
    count = len(kws)
    cols = as_columns(kws)

    def col(key, default=None):
        return _col(cols, {}, key, default)

    f = empty_fields("path", n, rows=count)
    f["control"][:] = col("control")
    f["lengths"][:] = col("lengths")
    fill_fields(f, _OPTIONS, col)
    path_step.lay(f)
    return f, _chains("path", f, count, col("palette_index", 0), {k: col(k) for k in cols if k not in _ARGS})
