"""Every scene that saves also loads, and what a load may cost is bounded.

The size limit is derived from the writer (its widest chain times the chain
cap), so a scene the app holds always loads again; a value the loader would
refuse is refused when saving instead. Hostile files are refused from their
raw bytes, before the parser builds anything: the tests patch the parser so
that a whole document of any size cannot be parsed at all. Times and memory
are measured by ``scripts/bench.py`` (files section), not asserted here.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build, build_batch
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import MAX_BONES, SOLVERS
from ikplayground.scene.core.scene import MAX_CHAINS, Scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.files.scene_file import SceneFileError, load_scene, parse_scene, save_scene

HEAD = '{"format": "ikplayground-scene", "version": 1, "chains": ['
BIG = 1 << 20  # no text this long may reach the JSON parser in one piece


@pytest.fixture
def no_whole_parse(monkeypatch):
    """The JSON parser refuses any text over 1 MB: a test passes only if nothing parses a whole big file."""
    real = json.JSONDecoder.decode

    def decode(self, s, *args, **kwargs):
        if len(s) > BIG:
            raise AssertionError(f"a text of {len(s):,} characters was parsed whole")
        return real(self, s, *args, **kwargs)

    monkeypatch.setattr(json.JSONDecoder, "decode", decode)


def refused(text: str) -> str:
    with pytest.raises(SceneFileError) as info:
        parse_scene(text, "scene.json")
    return str(info.value)


def copies(chain: Chain, count: int) -> Scene:
    """A scene of ``count`` chains like ``chain`` (each its own arrays; quick to make)."""
    scene = Scene()
    for _ in range(count):
        fields = {name: arr.copy() for name, arr in chain.fields.items()}
        scene.add(Chain(chain.solver, fields), select=False)
    return scene


# --- round trip: every scene that saves also loads -----------------------------------
@pytest.mark.slow
def test_20000_ccd_chains_of_64_bones_save_and_load_again(tmp_path):
    """The issue's case: such a scene saved to some 30 MB, and the load then refused what the app had written."""
    rng = np.random.default_rng(3)
    chain = build.make_ik_chain("ccd", (487.123, 301.456), rng.uniform(-0.7, 0.7, MAX_BONES),
                                rng.uniform(5.0, 15.0, MAX_BONES), (612.5, 140.25))
    scene = copies(chain, MAX_CHAINS)
    path = tmp_path / "big.json"
    save_scene(scene, path)
    assert path.stat().st_size > 20 * 1024 * 1024  # over the old limit
    loaded = load_scene(path)
    assert len(loaded.chains) == MAX_CHAINS
    np.testing.assert_allclose(loaded.chains[-1].fields["angles"], chain.fields["angles"], atol=1e-5)


@pytest.mark.parametrize("solver", SOLVERS)
def test_the_widest_chain_the_writer_can_write_loads_and_fits_the_limit(solver):
    from ikplayground.scene.files import file_format
    d = file_format.widest_chain_dict(solver)
    line = file_format.chain_line(d)
    assert len(line.encode()) <= scene_file.MAX_CHAIN_BYTES
    assert len(parse_scene(HEAD + line + "]}").chains) == 1
    whole = len(HEAD) + MAX_CHAINS * (scene_file.MAX_CHAIN_BYTES + len(",\n  ")) + 8
    assert scene_file.MAX_FILE_BYTES >= whole
    assert scene_file.MAX_FILE_BYTES % (1024 * 1024) == 0


COORDS = [-1e6, 1e6, -999999.9995, -123456.78901234567, 5e-324, -1.2345678901234567e-100, 0.1, 0]
POSITIVE = [1e6, 999999.9995, 5e-324, 1.2345678901234567e-100, 123456.78901234567, 0.0004]
LOW, HIGH = [-180, -179.99995, -1.2345678901234567e-100], [180, 179.99995, 1.2345678901234567e-100]


@st.composite
def extreme_chains(draw):
    """A chain of 64 bones (2 for two-bone) whose every number is at an edge of what the loader accepts."""
    solver = draw(st.sampled_from(SOLVERS))
    pick = lambda values, count: [draw(st.sampled_from(values)) for _ in range(count)]  # noqa: E731
    n = 2 if solver == "two-bone" else MAX_BONES
    if solver == "snake":
        return {"solver": "snake", "points": [pick(COORDS, 2) for _ in range(n + 1)], "lengths": pick(POSITIVE, n),
                "heading": pick(COORDS, 1)[0], "bend_limits": [pick(LOW, 1)[0], pick(HIGH, 1)[0]],
                "max_speed": pick([1000, 999.9995, 5e-324], 1)[0], "turn_rate": pick([180, 179.99995], 1)[0]}
    if solver == "rope":
        return {"solver": "rope", "root": pick(COORDS, 2), "lengths": pick(POSITIVE, n),
                "points": [pick(COORDS, 2) for _ in range(n + 1)], "target": pick(COORDS, 2),
                "pin_end": True, "gravity": pick([-10000, 9999.9995, 5e-324], 1)[0],
                "damping": pick([1, 0.99995, 5e-324], 1)[0]}
    if solver == "path":
        return {"solver": "path", "control": [pick(COORDS, 2) for _ in range(4)], "lengths": pick(POSITIVE, n),
                "start": pick(COORDS, 1)[0], "slide": pick([-1000, 999.9995, 5e-324], 1)[0]}
    if solver == "walker":
        m = pick([2, 3], 1)[0]
        return {"solver": "walker", "body": pick(COORDS, 2), "lengths": pick(POSITIVE, m), "facing": -1,
                "legs": pick([2, 8], 1)[0], "leg_bones": m,
                "step_threshold": pick([1000, 999.9995, 1.2345678901234567], 1)[0],
                "step_height": pick([1000, 999.9995, 5e-324], 1)[0], "walk_speed": pick([100, 99.9995, 5e-324], 1)[0],
                "auto_walk": pick([True, False], 1)[0]}
    if solver == "rig":  # 64 bones, or 48 and 16 targets
        k = pick([0, 16], 1)[0]
        n -= k
        return {"solver": "rig", "root": pick(COORDS, 2), "parents": list(range(-1, n - 1)),
                "bones": [f"{i:Z>24}" for i in range(n)], "lengths": pick(POSITIVE, n), "angles": pick(COORDS, n),
                "rest": pick(COORDS, n), "ranges": [[pick(LOW, 1)[0], pick(HIGH, 1)[0]] for _ in range(n)],
                "targets": [{"bone": n - 1 - j, "at": pick(COORDS, 2), "heading": pick(COORDS, 1)[0],
                             "weight": pick(POSITIVE, 1)[0], "mix": pick([0, 1, 0.12345678901234567], 1)[0]}
                            for j in range(k)],
                "rate_limit": pick([180, 179.99995, 5e-324, None], 1)[0], "iterations": pick([1, 1000], 1)[0],
                "tolerance": pick([1e6, 999999.99995, 0, 5e-324], 1)[0], "method": "dls"}
    d = {"solver": solver, "root": pick(COORDS, 2), "lengths": pick(POSITIVE, n), "angles": pick(COORDS, n),
         "target": pick(COORDS, 2), "rate_limit": pick([180, 179.99995, 5e-324, None], 1)[0],
         "rate_limit_setting": pick([180, 179.99995, 5e-324], 1)[0]}
    d.update(jiggle=pick([1, 0.99995, 5e-324], 1)[0], jiggle_damping=pick([1, 0.99995, 5e-324], 1)[0],
             jiggle_gravity=pick([-10000, 9999.9995, 5e-324], 1)[0])
    if solver != "two-bone":
        d.update(limits=[[pick(LOW, 1)[0], pick(HIGH, 1)[0]] for _ in range(n)],
                 iterations=pick([1, 1000], 1)[0], tolerance=pick([1e6, 999999.99995, 0, 5e-324], 1)[0])
    return d


@pytest.mark.slow
@given(extreme_chains())
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_no_chain_the_loader_accepts_is_written_longer_than_the_bound(d):
    scene = parse_scene(HEAD + json.dumps(d) + "]}")
    (line,) = scene_file.scene_to_text(scene).splitlines()[2:3]
    assert len(line.strip().encode()) <= scene_file.MAX_CHAIN_BYTES


def test_a_value_the_loader_would_refuse_is_not_saved(tmp_path):
    """A file must never be written that cannot be loaded: the save says which value, and writes nothing."""
    scene = Scene()
    scene.new_chain("ccd", (400.0, 600.0))
    scene.chains[0].fields["root"][0] = 2e6
    path = tmp_path / "scene.json"
    with pytest.raises(ValueError) as info:
        save_scene(scene, path)
    assert str(info.value) == ("chains[0].root[0]: must be <= 1000000 (got 2000000): "
                               "a file holding it would not load again")
    assert list(tmp_path.iterdir()) == []


def test_a_snake_laid_out_past_a_million_px_saves_and_loads_again(tmp_path):
    """Its head is within +-1,000,000 px, its long body trails behind: the scene the app holds must save."""
    text = HEAD + '{"solver": "snake", "points": [[500, 100], [536125.0, 100], [490, 100], [485, 100]]}]}'
    scene = parse_scene(text)
    assert np.abs(scene.chains[0].fields["points"]).max() > 1e6
    path = tmp_path / "far.json"
    save_scene(scene, path)
    again = load_scene(path)
    np.testing.assert_array_equal(again.chains[0].fields["points"], scene.chains[0].fields["points"])


def test_a_snake_point_past_65_million_px_is_refused():
    text = HEAD + '{"solver": "snake", "points": [[500, 100], [65000001, 100]], "lengths": [40]}]}'
    assert refused(text) == "scene.json: chains[0].points[1][0]: must be <= 65000000 (got 65000001)"


# --- load cost: refused from the raw bytes -----------------------------------------
@pytest.mark.slow
def test_7_million_empty_chains_get_the_chain_count_error_without_being_parsed(no_whole_parse):
    text = HEAD + ",".join(["[]"] * 7_000_000) + "]}"
    assert refused(text) == "scene.json: chains: must have at most 20000 entries (got 7000000)"


@pytest.mark.slow
def test_a_file_over_the_budget_is_checked_for_its_format_first(no_whole_parse):
    text = HEAD.replace("ikplayground-scene", "other") + ",".join(["[]"] * 3_000_000) + "]}"
    assert refused(text) == 'scene.json: format: must be \'ikplayground-scene\' (got "other")'
    text = HEAD.replace('"version": 1', '"version": 3') + ",".join(["[]"] * 3_000_000) + "]}"
    assert refused(text).startswith("scene.json: version: must be 1 or 2 (got 3)")


def test_deep_empty_lists_in_an_unknown_field_are_refused_without_being_parsed(no_whole_parse):
    unit = "[" * 30 + "]" * 30
    text = HEAD + '], "x": [' + ",".join([unit] * 120_000) + "]}"
    assert refused(text) == ("scene.json: 3,600,002 lists are more than a scene file may hold "
                             f"({scene_file.BUDGETS['lists']:,}); not a scene file")


@pytest.mark.slow
@pytest.mark.parametrize(("unit", "what"), [("{}", "objects"), ('"ab"', "strings"), ("1", "values")])
def test_too_many_objects_strings_or_values_are_refused_without_being_parsed(no_whole_parse, unit, what):
    count = scene_file.BUDGETS[what] + 1
    text = HEAD + '], "x": [' + ",".join([unit] * count) + "]}"
    message = refused(text)
    assert message.startswith("scene.json: ") and message.endswith(
        f" {what} are more than a scene file may hold ({scene_file.BUDGETS[what]:,}); not a scene file")


@pytest.mark.slow
def test_a_large_valid_file_is_read_a_chain_at_a_time(no_whole_parse):
    snake = {"solver": "snake", "points": [[500 - 5 * i, 100 + (i % 2)] for i in range(MAX_BONES + 1)]}
    text = HEAD + ",".join([json.dumps(snake)] * 2000) + "]}"
    assert len(text) > BIG
    scene = parse_scene(text)
    assert len(scene.chains) == 2000 and scene.chains[0].solver == "snake"


@pytest.mark.parametrize(("text", "message"), [
    (HEAD + "{}, ]}", "line 1 column 63: not valid JSON: trailing comma in array"),
    (HEAD + "]} x", "line 1 column 63: not valid JSON: trailing characters"),
    (HEAD + '{"solver": "ccd", "root": [NaN, 1]}]}', "line 1 column 86: not valid JSON: NaN is not a finite number"),
])
def test_a_large_file_that_is_not_json_gets_msgspec_s_words_with_line_and_column(monkeypatch, text, message):
    from ikplayground.scene.files import file_decode
    monkeypatch.setattr(file_decode, "_WHOLE_PARSE_BYTES", 0)  # as for a file too large to parse whole again
    assert refused(text) == f"scene.json: {message}"


# --- snakes laid out in batches ----------------------------------------------------
def hand_made_snakes(count: int, rng) -> list[dict]:
    """Snakes whose points are not their lengths apart: loading lays each out again."""
    out = []
    for _ in range(count):
        steps = rng.integers(1, 30, (MAX_BONES + 1, 2))
        out.append({"solver": "snake", "points": np.cumsum(steps, axis=0).tolist()})
    return out


@pytest.mark.slow
def test_hand_made_snakes_are_laid_out_in_batches_as_one_by_one(monkeypatch):
    rng = np.random.default_rng(5)
    snakes = hand_made_snakes(300, rng) + [{"solver": "snake", "points": [[0, 0], [3, 4], [3, 9]]}]
    text = HEAD + ",".join(json.dumps(s) for s in snakes) + "]}"
    calls = []
    real = build_batch.snake_batch
    monkeypatch.setattr(build_batch, "snake_batch", lambda *a: calls.append(len(a[0])) or real(*a))
    scene = parse_scene(text)
    assert len(calls) == 2 and sum(calls) == len(snakes)  # one call per node count, not one per snake
    monkeypatch.undo()
    for d, chain in zip(snakes, scene.chains, strict=True):
        one = build.make_snake(np.array(d["points"], dtype=float), bend_limits=np.radians([-30.0, 30.0]))
        # (to rounding, amplified: the batch runs on numpy or the compiled kernel, the single call on math's trig,
        # and a node laid a hair from its leader turns the rest of the snake by that hair over their distance;
        # 64 nodes of these hand-made snakes have been seen 4.9e-6 px apart)
        np.testing.assert_allclose(chain.fields["points"], one.fields["points"], rtol=0, atol=1e-4)
        np.testing.assert_allclose(chain.fields["lengths"], one.fields["lengths"], rtol=0, atol=1e-9)


coords = st.floats(-500, 500, allow_nan=False).map(lambda v: round(v, 1))


@pytest.mark.slow
@given(st.lists(st.tuples(st.lists(st.tuples(coords, coords), min_size=2, max_size=6),
                          st.booleans(), st.booleans(), st.floats(0, 90)), min_size=1, max_size=12))
@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_make_snakes_makes_what_make_snake_makes(specs):
    kwargs = []
    for pts, with_lengths, with_heading, bend in specs:
        pts = np.array(pts, dtype=float)
        seg = np.hypot(*np.diff(pts, axis=0).T)
        if not with_lengths and np.any(seg <= 0):
            with_lengths = True
        kw = {"points": pts, "bend_limits": (-math.radians(bend), math.radians(bend)), "max_speed": 7.0,
              "turn_deg": 3.0, "palette_index": 2}
        if with_lengths:
            kw["lengths"] = np.maximum(seg, 1.0)
        if with_heading:
            kw["heading"] = 0.25
        kwargs.append(kw)
    batch = build.make_snakes([dict(kw) for kw in kwargs])
    for kw, chain in zip(kwargs, batch, strict=True):
        one = build.make_snake(**kw)
        assert chain.solver == "snake" and chain.palette_index == one.palette_index
        for name, arr in one.fields.items():
            np.testing.assert_array_equal(chain.fields[name], arr, err_msg=name)


angles_st = st.floats(-20, 20, allow_nan=False)


@st.composite
def ik_kwargs(draw):
    solver = draw(st.sampled_from(["two-bone", "ccd", "fabrik", "dls"]))
    n = 2 if solver == "two-bone" else draw(st.integers(1, 5))
    kw = {"solver": solver, "root": (draw(coords), draw(coords)), "target": (draw(coords), draw(coords)),
          "angles": [draw(angles_st) for _ in range(n)],
          "lengths": [draw(st.floats(0.5, 200, allow_nan=False)) for _ in range(n)]}
    if draw(st.booleans()):
        pairs = [sorted((draw(st.floats(-math.pi, math.pi)), draw(st.floats(-math.pi, math.pi)))) for _ in range(n)]
        kw["limits"] = np.array(pairs)
    if draw(st.booleans()):
        kw["joint_limit"] = draw(st.floats(0, 180))
    kw["rate_limit"] = draw(st.one_of(st.none(), st.floats(0.5, 180)))
    if draw(st.booleans()):
        kw["rate_deg"] = draw(st.floats(0.5, 180))
    kw.update(mirror=draw(st.booleans()), iterations=draw(st.integers(1, 1000)),
              tolerance=draw(st.floats(0, 10)), palette_index=draw(st.integers(0, 7)),
              preferred_bones=draw(st.one_of(st.none(), st.integers(1, 64))))
    return kw


@pytest.mark.slow
@given(st.lists(ik_kwargs(), min_size=1, max_size=12))
@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_make_ik_chains_makes_what_make_ik_chain_makes(kwargs):
    batch = build.make_ik_chains([dict(kw) for kw in kwargs])
    for kw, chain in zip(kwargs, batch, strict=True):
        kw = dict(kw)
        one = build.make_ik_chain(kw.pop("solver"), kw.pop("root"), kw.pop("angles"), kw.pop("lengths"),
                                  kw.pop("target"), **kw)
        assert (chain.solver, chain.palette_index, chain.settings()) == (one.solver, one.palette_index, one.settings())
        for name, arr in one.fields.items():
            np.testing.assert_array_equal(chain.fields[name], arr, err_msg=name)


def test_a_loaded_file_builds_its_ik_chains_one_batch_per_group(monkeypatch):
    rng = np.random.default_rng(3)
    scene = Scene()
    for i in range(40):
        solver = ("two-bone", "ccd", "fabrik")[i % 3]
        n = 2 if solver == "two-bone" else 3 + i % 2
        scene.add(build.make_ik_chain(solver, rng.uniform(0, 900, 2), rng.uniform(-0.7, 0.7, n),
                                      rng.uniform(5, 15, n), rng.uniform(0, 900, 2), rate_limit=None if i % 4 else 2.5))
    text = scene_file.scene_to_text(scene)
    groups = []
    real = build_batch.ik_group
    monkeypatch.setattr(build_batch, "ik_group",
                        lambda solver, n, kws: groups.append(len(kws)) or real(solver, n, kws))
    loaded = parse_scene(text)
    assert sorted(groups) == sorted([14, 7, 7, 6, 6])  # two-bone; CCD of 3 and 4 bones; FABRIK of 3 and 4
    monkeypatch.undo()
    for a, b in zip(loaded.chains, parse_scene(text).chains, strict=True):
        assert a.solver == b.solver and a.settings() == b.settings()
    again = [build.make_ik_chain(c.solver, c.fields["root"], c.fields["angles"], c.fields["lengths"],
                                 c.fields["target"],
                                 limits=None if c.solver == "two-bone" else c.fields["limits"], mirror=c.mirror,
                                 rate_limit=c.rate_limit, iterations=c.iterations, tolerance=c.tolerance,
                                 **c.settings()) for c in loaded.chains]
    for a, b in zip(loaded.chains, again, strict=True):
        for name, arr in b.fields.items():
            np.testing.assert_array_equal(a.fields[name], arr, err_msg=name)


@pytest.mark.parametrize(("field", "unit"), [("angles", "0"), ("lengths", "[]"), ("note", '"a"')])
def test_one_giant_list_in_a_chain_is_refused_before_it_is_decoded(monkeypatch, field, unit):
    import msgspec

    from ikplayground.scene.files import file_decode

    real = msgspec.json.decode
    monkeypatch.setattr(file_decode.msgspec.json, "decode", lambda raw, **kw: (
        (_ for _ in ()).throw(AssertionError("a giant chain was decoded")) if len(raw) > BIG and "type" in kw
        and kw["type"] is file_decode.chain_union() else real(raw, **kw)))
    chain = ('{"solver": "ccd", "root": [1, 2], "lengths": [3], "angles": [0], "target": [4, 5], '
             f'"{field}": [' + ",".join([unit] * 600_000) + "]}")
    message = refused(HEAD + chain + "]}")
    assert message.startswith("scene.json: chains[0]: ") and message.endswith(
        f" values are more than it may hold ({file_decode.MAX_CHAIN_VALUES:,}); not a scene file"), message
