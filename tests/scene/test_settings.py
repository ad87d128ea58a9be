"""The table of per-chain settings (ikplayground/scene/settings.py), as a specification.

For every entry of the table:

* a new chain of a solver it applies to holds its default, and so does a
  chain read from a file without its field;
* ``Scene.set_setting`` keeps to its range (clamps, or refuses what no range
  can hold), and reads back what it set;
* on a chain of a solver it does not apply to, it is ignored the same way
  everywhere: ``set_setting`` changes nothing, the file neither writes its
  field nor reads one that is there (and the panel disables its control:
  tests/app/test_settings_panel.py, which also checks that the panel has
  exactly one control per entry);
* a value the setting cannot take at all is refused, on every chain;
* it goes through a scene file and comes back, and the fields a chain's line
  holds are its shape's and its solver's settings', nothing else.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build
from ikplayground.scene.core.chain import Chain
from ikplayground.scene.core.constants import SOLVERS
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.core.settings import BY_NAME, FILE_SETTINGS, KEPT_DEFAULTS, SETTINGS, Setting
from ikplayground.scene.files import file_format, scene_file
from tests.scene.scene_cases import assert_chain_ok

FORMAT_DOC = Path(__file__).resolve().parents[2] / "docs" / "scene-format.md"
HEAD = '{"format": "ikplayground-scene", "version": 1, "chains": ['
SHAPE_KEYS = {"ik": {"solver", "number", "root", "lengths", "angles", "target"},  # a chain in a scene: numbered
              "snake": {"solver", "number", "points", "lengths", "heading"},
              "walker": {"solver", "number", "body", "lengths", "facing"},
              "rope": {"solver", "number", "root", "lengths", "points", "target"},
              "path": {"solver", "number", "control", "lengths"},
              "rig": {"solver", "number", "root", "parents", "bones", "lengths", "angles", "rest", "ranges", "targets",
                      "appendage_shapes"}}  # a new rig (a humanoid) has a ponytail
APPLIES = [(s, solver) for s in SETTINGS for solver in SOLVERS if s.applies(solver)]
DOES_NOT_APPLY = [(s, solver) for s in SETTINGS for solver in SOLVERS if not s.applies(solver)]
WITH_DEFAULT = [(s, solver) for s, solver in APPLIES if s.default_for(solver) is not None]


def ids(cases):
    return [f"{s.name}-{solver}" for s, solver in cases]


def fresh(solver: str) -> tuple[Scene, Chain]:
    """A scene with one new chain of ``solver`` (and one of each other solver, so that groups are shared)."""
    scene = Scene((980.0, 720.0))
    for other in SOLVERS:
        if other != solver:
            scene.new_chain(other, (200.0 + 150 * SOLVERS.index(other), 500.0))
    return scene, scene.new_chain(solver, (490.0, 400.0))


def sample(s: Setting, solver: str | None = None):
    """A value of ``s`` inside its slider's span and not its default (for a chain of ``solver``)."""
    if s.kind == "flag":
        return not (s.default if solver is None else s.default_for(solver))
    if s.kind == "choice":
        return next(c for c in s.choices if c != s.default)
    lo, hi = s.span
    value = lo + 0.37 * (hi - lo)
    if s.kind == "whole":  # a narrow range (2 to 3) rounds down onto its default: the next one up
        whole = int(value)
        return whole + 1 if whole == s.default and whole < hi else whole
    return round(value, 2)


def state(chain: Chain) -> tuple:
    return {k: v.copy() for k, v in chain.fields.items()}, chain.settings(), chain.solver


def assert_same_state(a: tuple, b: tuple) -> None:
    assert a[2] == b[2] and a[1] == b[1]
    for name, arr in a[0].items():
        np.testing.assert_array_equal(b[0][name], arr, err_msg=name)


def reloaded(scene: Scene, chain: Chain) -> Chain:
    """``chain`` as a save and a load of ``scene`` give it back."""
    return scene_file.parse_scene(scene_file.scene_to_text(scene)).chains[scene.chains.index(chain)]


def line_of(chain: Chain) -> dict:
    return json.loads(file_format.chain_line(scene_file.chain_to_dict(chain)))


# --- the table itself ---------------------------------------------------------------------
def test_every_entry_is_complete_and_consistent():
    assert len(BY_NAME) == len(SETTINGS)  # one entry per name
    for s in SETTINGS:
        assert s.label and s.help and s.solvers, s.name
        assert s.solver_names and set(s.solvers) <= set(SOLVERS) | {"ik", "iterative", "all"}, s.name
        assert s.kind in ("number", "whole", "flag", "choice"), s.name
        if s.kind == "flag":
            assert isinstance(s.default, bool), s.name
            continue
        if s.kind == "choice":
            assert len(s.choices) >= 2 and s.default in s.choices and len(set(s.choices)) == len(s.choices), s.name
            continue
        lo, hi = s.span
        assert s.lo <= lo < hi <= s.hi, s.name
        assert s.click_step > 0, s.name
        if s.default is not None:
            assert s.lo <= s.default <= s.hi and (s.default > s.lo or not s.positive), s.name
        if s.needs is not None:
            assert BY_NAME[s.needs].kind == "flag", s.name


def test_a_kept_setting_is_an_attribute_of_its_own_on_every_chain():
    chain = build.straight_snake((100.0, 100.0), 0.0)
    for name, default in KEPT_DEFAULTS.items():
        assert name not in vars(Chain) and name not in chain.fields, name  # no clash with the chain's own names
        assert getattr(chain, name) == default
    with pytest.raises(TypeError, match="unknown settings"):
        Chain("ccd", build.make_ik_chain("ccd", (0, 0), [0.0], [1.0], (1, 1)).fields, no_such_setting=True)


# --- defaults -------------------------------------------------------------------------------
@pytest.mark.parametrize(("s", "solver"), WITH_DEFAULT, ids=ids(WITH_DEFAULT))
def test_a_new_chain_and_a_file_without_the_field_hold_the_default(s, solver):
    _, chain = fresh(solver)
    default = s.default_for(solver)
    default = default if s.kind == "choice" else pytest.approx(default, rel=1e-12)
    assert s.read(chain) == default
    bare = ({"solver": "snake", "points": [[500, 200], [460, 200], [420, 200]]} if solver == "snake" else
            {"solver": "walker", "body": [300, 400], "lengths": [50, 50]} if solver == "walker" else
            {"solver": "rope", "root": [300, 400], "lengths": [50, 50], "points": [[300, 400], [300, 450], [300, 500]],
             "target": [300, 500]} if solver == "rope" else
            {"solver": "path", "control": [[300, 400], [350, 350], [400, 450], [450, 400]], "lengths": [50, 50]}
            if solver == "path" else
            {"solver": "rig", "root": [300, 400], "parents": [-1, 0], "bones": ["upper", "lower"], "lengths": [50, 50],
             "angles": [-90, 10], "targets": [{"bone": 1, "at": [330, 320]}]} if solver == "rig" else
            {"solver": solver, "root": [300, 400], "lengths": [50, 50], "angles": [-90, 10], "target": [330, 320]})
    loaded = scene_file.parse_scene(HEAD + json.dumps(bare) + "]}").chains[0]
    assert s.read(loaded) == default


# --- set: the range, clamping, reading back ---------------------------------------------------
def set_to_a_sample(s, solver):
    """A fresh scene whose chain of ``solver`` has setting ``s`` set to a sample value (its
    prerequisite ticked first): ``(scene, the chain before, value, the chain now)``."""
    scene, chain = fresh(solver)
    if s.needs is not None:
        scene.set_setting(chain, s.needs, True)
    value = sample(s, solver)
    return scene, chain, value, scene.set_setting(chain, s.name, value)


@pytest.mark.parametrize(("s", "solver"), APPLIES, ids=ids(APPLIES))
def test_set_takes_a_value_of_the_range_and_reads_it_back(s, solver):
    scene, chain, value, now = set_to_a_sample(s, solver)
    assert now in scene.chains and (now is chain or s.name in ("bones", "legs", "leg_bones"))
    assert s.read(now) == (value if s.kind == "choice" else pytest.approx(value, rel=1e-12))
    assert_chain_ok(now)
    scene.step()
    assert_chain_ok(now)


NUMBERS = [(s, solver) for s, solver in APPLIES if s.kind in ("number", "whole")]


@pytest.mark.parametrize(("s", "solver"), NUMBERS, ids=ids(NUMBERS))
def test_set_clamps_to_the_range(s, solver):
    scene, chain = fresh(solver)
    ratios = chain.fields["lengths"] / chain.fields["lengths"].max()
    high = scene.set_setting(chain, s.name, s.hi * 2 + 10)
    if s.name == "bone_length":  # the bones are scaled alike, until the longest is at the top of the range
        np.testing.assert_allclose(high.fields["lengths"], ratios * s.hi, rtol=1e-12)
    else:
        assert s.read(high) == pytest.approx(s.hi, rel=1e-12)
    if s.positive:  # no value of the range is nearest: refused, nothing changed
        before = state(high)
        for bad in (s.lo, s.lo - 1):
            with pytest.raises(ValueError, match=s.name):
                scene.set_setting(high, s.name, bad)
        assert_same_state(before, state(high))
    else:
        low = scene.set_setting(high, s.name, s.lo - 5)
        assert s.read(low) == pytest.approx(s.lo, rel=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("name", [s.name for s in SETTINGS if s.kind == "number"])
@given(value=st.floats(-1e7, 1e7))
@settings(max_examples=25, deadline=None)
def test_any_number_lands_in_the_range(name, value):
    s = BY_NAME[name]
    scene, chain = fresh(s.solver_names[0])
    if s.positive and value <= s.lo:
        with pytest.raises(ValueError):
            scene.set_setting(chain, name, value)
        return
    top = s.hi
    if name == "bone_length":  # the bones are scaled alike only until the longest is at the range's top
        top = s.hi * float(chain.fields["lengths"].mean() / chain.fields["lengths"].max())
    chain = scene.set_setting(chain, name, value)
    assert s.read(chain) == pytest.approx(min(max(value, s.lo), top), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("s", SETTINGS, ids=[s.name for s in SETTINGS])
def test_a_value_the_setting_cannot_take_is_refused_on_every_chain(s, solver):
    scene, chain = fresh(solver)
    before = state(chain)
    bad = {"flag": [1, "yes", None, 0.5], "choice": [1, True, None, "no such choice", ""]}.get(
        s.kind, [True, "5", None, math.nan, math.inf, 1j])
    for value in bad:
        with pytest.raises((TypeError, ValueError), match=s.name):
            scene.set_setting(chain, s.name, value)
    assert_same_state(before, state(chain))
    with pytest.raises(ValueError, match="setting: must be one of"):
        scene.set_setting(chain, "no_such_setting", 1.0)


# --- a setting the solver does not have: ignored, in the scene and in the file -------------------
@pytest.mark.parametrize(("s", "solver"), DOES_NOT_APPLY, ids=ids(DOES_NOT_APPLY))
def test_a_setting_the_solver_lacks_is_ignored(s, solver):
    scene, chain = fresh(solver)
    before = state(chain)
    assert scene.set_setting(chain, s.name, sample(s)) is chain
    assert_same_state(before, state(chain))
    if s.file is None:
        return
    line = line_of(chain)
    widest = s.file.widest(s, chain.bones)
    own = {key for t in SETTINGS if t.file is not None and t.applies(solver) for key in t.file.widest(t, chain.bones)}
    if set(widest) & own:  # a key this solver's own setting uses too (a snake's "skin"): its own value
        return
    assert not set(widest) & set(line)  # not written
    extra = dict(line, **widest)
    plain = scene_file.parse_scene(HEAD + json.dumps(line) + "]}")
    loaded = scene_file.parse_scene(HEAD + json.dumps(extra) + "]}")
    assert scene_file.scene_to_text(loaded) == scene_file.scene_to_text(plain)


# --- the file -------------------------------------------------------------------------------
@pytest.mark.parametrize(("s", "solver"), APPLIES, ids=ids(APPLIES))
def test_every_setting_goes_through_a_file_and_back(s, solver):
    scene, _, value, chain = set_to_a_sample(s, solver)
    if s.name == "rate":  # the setting survives the limit being off, too
        scene.set_setting(chain, "rate_on", False)
    back = reloaded(scene, chain)
    assert back.solver == solver
    assert s.read(back) == pytest.approx(value, abs=5e-4)


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_line_holds_the_chain_s_shape_and_its_solver_s_settings(solver):
    scene, chain = fresh(solver)
    for s in SETTINGS:
        if s.applies(solver) and s.name != "rate_on":
            chain = scene.set_setting(chain, s.name, sample(s))
    keys = set().union(*(s.file.widest(s, chain.bones) for s in FILE_SETTINGS[solver]))
    assert set(line_of(chain)) == SHAPE_KEYS.get(solver, SHAPE_KEYS["ik"]) | keys
    assert [k for k in line_of(chain) if k in keys] == [k for s in FILE_SETTINGS[solver]
                                                       for k in s.file.widest(s, chain.bones)]  # the table's order


def test_the_format_documents_every_field_of_the_table():
    text = FORMAT_DOC.read_text(encoding="utf-8")
    for s in SETTINGS:
        for key in (s.file.widest(s, 2) if s.file is not None else ()):
            assert f"| `{key}` |" in text, key


# --- Show limits in the file: optional, written only when on ------------------------------------
@pytest.mark.parametrize("solver", [k for k in SOLVERS if BY_NAME["show_limits"].applies(k)])
def test_show_limits_is_written_only_when_on_and_read_back(solver):
    scene, chain = fresh(solver)
    assert "show_limits" not in line_of(chain)
    scene.set_setting(chain, "show_limits", True)
    text = scene_file.scene_to_text(scene)
    assert '"show_limits": true}' in text
    assert reloaded(scene, chain).show_limits is True


@pytest.mark.parametrize(("value", "message"), [
    (None, None), (False, None), (True, None),
    ("yes", 'chains[0].show_limits: must be true or false (got "yes")'),
    (1, "chains[0].show_limits: must be true or false (got 1)"),
])
def test_show_limits_in_a_file(value, message):
    d = {"solver": "ccd", "root": [300, 400], "lengths": [50, 50], "angles": [-90, 10], "target": [330, 320],
         "show_limits": value}
    if message is None:
        assert scene_file.parse_scene(HEAD + json.dumps(d) + "]}").chains[0].show_limits is bool(value)
    else:
        with pytest.raises(scene_file.SceneFileError) as e:
            scene_file.parse_scene(HEAD + json.dumps(d) + "]}", "s.json")
        assert str(e.value) == f"s.json: {message}"


def test_show_limits_goes_with_the_chain_through_edits_and_conversions():
    scene, chain = fresh("ccd")
    scene.set_setting(chain, "show_limits", True)
    chain = scene.set_setting(chain, "bones", 3)
    for solver in ("snake", "two-bone", "fabrik"):
        chain = scene.set_solver(chain, solver)
        assert chain.show_limits is True


def test_the_scene_lists_the_chains_showing_limits_through_every_change():
    scene, chain = fresh("ccd")
    other = next(c for c in scene.chains if c.solver == "fabrik")
    assert scene.groups and scene.limits_shown == []  # (grouped, as a step or a draw leaves it)
    scene.set_setting(other, "show_limits", True)
    assert scene.limits_shown == [other]
    scene.set_setting(chain, "show_limits", True)
    assert scene.limits_shown == sorted([chain, other], key=scene.chains.index)  # in draw order
    chain = scene.set_solver(chain, "snake")  # rebuilt in its place: the new chain is listed
    assert scene.limits_shown == sorted([chain, other], key=scene.chains.index)
    scene.remove(other)
    assert scene.limits_shown == [chain]
    scene.set_setting(chain, "show_limits", False)
    assert scene.limits_shown == []
