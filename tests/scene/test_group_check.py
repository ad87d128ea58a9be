"""Random chains: each is refused with a message naming its place, or loads with its bones.

The strategies draw chains that are mostly valid and now and then hold a
value at or past a bound, or of another JSON type, where the typed decode
(msgspec's bounds) and the checks after it (counts, pairs in order, whole
numbers) must agree on what a file may hold.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import json

from ikplayground.scene.files import scene_file
from ikplayground.scene.files.file_errors import SceneFileError

# mostly plain numbers well inside the bounds; now and then one at or past a bound, or of another JSON type
_GOOD = st.one_of(st.floats(0.5, 170), st.floats(-170, -0.5), st.integers(1, 9))
_EDGE = st.sampled_from([0, 0.0, -1e-300, 1e-300, 180, 180.5, -180, 1e6, 1e6 + 1, 65e6, 65e6 + 1, 1000, 1001,
                         10**400, float("nan"), float("inf"), True, False, None, "1", [], {}, [1.0]])


def _mostly(good, bad, odds: int = 30):
    """``good``, but one time in ``odds`` ``bad``."""
    return st.integers(1, odds).flatmap(lambda k: bad if k == 1 else good)


_VALUE = _mostly(_GOOD, _EDGE)


def _list(n: int, item=_VALUE):
    return _mostly(st.lists(item, min_size=n, max_size=n), st.one_of(st.lists(item, max_size=n + 1), _EDGE))


def _bounds():
    """Mostly a ``[lo, hi]`` pair with ``lo <= hi``."""
    ordered = _list(2).map(lambda p: sorted(p) if isinstance(p, list) and set(map(type, p)) <= {int, float} else p)
    return _mostly(ordered, _list(2), 5)


def _motion():
    """Mostly a ``motion`` object: a path (now and then not one), some of its optional numbers."""
    path = _mostly(st.sampled_from(["none", "bounce", "circle", "figure-eight"]), _EDGE, 10)
    fields = st.fixed_dictionaries({"path": path}, optional={"speed": _VALUE, "size": _VALUE, "centre": _list(2),
                                                            "phase": _VALUE, "heading": _VALUE})
    return _mostly(fields, _EDGE, 10)


@st.composite
def _chain(draw):
    solver = draw(st.sampled_from(["two-bone", "ccd", "fabrik", "dls", "snake", "snake", "snake"] * 4 + ["rope", None]))
    n = draw(st.sampled_from([1, 2, 3]))
    d = {"solver": solver}
    if solver == "snake":
        d["points"] = draw(_list(n + 1, _list(2)))
        fields = {"lengths": _list(n), "heading": _VALUE, "bend_limits": _bounds(), "max_speed": _VALUE,
                  "turn_rate": _VALUE}
    else:
        d.update(root=draw(_list(2)), lengths=draw(_list(n)), angles=draw(_list(n)), target=draw(_list(2)))
        fields = {"rate_limit": _VALUE, "rate_limit_setting": _VALUE, "mirror": _mostly(st.booleans(), _EDGE, 10),
                  "limits": _list(n, _bounds()), "iterations": _mostly(st.integers(1, 1000), _VALUE, 10),
                  "tolerance": _VALUE, "motion": _motion()}
    for key, values in fields.items():
        if draw(st.booleans()):
            d[key] = draw(values)
    if draw(st.integers(0, 29)) == 0:
        d.pop(draw(st.sampled_from(sorted(d))))
    return d


HEAD = '{"format": "ikplayground-scene", "version": 1, "chains": ['


def _text(ds) -> str:
    return HEAD + ",".join(json.dumps(d) for d in ds) + "]}"


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(_chain(), min_size=1, max_size=6))
def test_a_random_chain_is_refused_at_its_place_or_loads(ds):
    try:
        scene = scene_file.parse_scene(_text(ds), "x")
    except SceneFileError as e:
        bad = int(str(e).split("chains[", 1)[1].split("]", 1)[0])
        if "finite number" not in str(e):  # (one is refused wherever it is, before any chain is read)
            for d in ds[:bad]:  # every chain before the one named loads alone
                scene_file.parse_scene(_text([d]), "x")
        with pytest.raises(SceneFileError):
            scene_file.parse_scene(_text([ds[bad]]), "x")
        return
    assert [c.solver for c in scene.chains] == [d["solver"] for d in ds]
    for c, d in zip(scene.chains, ds):  # as many bones as the file gives
        assert c.bones == (len(d["points"]) - 1 if c.solver == "snake" else len(d["lengths"]))


def test_every_chain_of_a_saved_scene_loads_again():
    from ikplayground.scene.build import build

    chains = [build.make_ik_chain(solver, (1.0, 2.0), np.full(n, 0.1), np.full(n, 5.0), (3.0, 4.0))
              for solver, n in (("two-bone", 2), ("ccd", 5), ("fabrik", 3))]
    chains.append(build.straight_snake((10.0, 10.0), 0.5, nodes=9))
    text = scene_file.scene_to_text(type("S", (), {"chains": chains})())
    assert [c.solver for c in scene_file.parse_scene(text).chains] == ["two-bone", "ccd", "fabrik", "snake"]


@pytest.mark.parametrize("bad, message", [
    ({"lengths": [5.0, -5]}, "chains[1].lengths[1]: must be > 0 (got -5)"),
    ({"angles": [0.0, True]}, "chains[1].angles[1]: must be a number (got true)"),
    ({"limits": [[-180, 180], [10, -10]]}, "chains[1].limits[1]: lo must be <= hi (got [10, -10])"),
])
def test_a_bad_chain_among_good_ones_is_named(bad, message):
    good = {"solver": "ccd", "root": [0, 0], "lengths": [5.0, 5.0], "angles": [0.0, 0.0], "target": [1, 1]}
    with pytest.raises(SceneFileError) as e:
        scene_file.parse_scene(_text([good, dict(good, **bad), good]), "f.json")
    assert str(e.value) == f"f.json: {message}"
