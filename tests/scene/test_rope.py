"""The Rope kind: hanging, pinned, batched, saved, flipped and dragged (docs/design.md, "The rope")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ikplayground.scene.build import rope_build
from ikplayground.scene.core.mirror import flip_chain
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files import scene_file
from ikplayground.scene.step import rope_step
from ikplayground.solvers import lay_out
from ikplayground.solvers.rope import PIN_TOLERANCE

STAGE = (980.0, 720.0)


def bone_lengths(points: np.ndarray) -> np.ndarray:
    return np.hypot(*np.diff(points, axis=-2).T).T


def swung(root, lengths, push: float, **kw):
    """A rope from ``root`` whose joints are pushed ``push`` px a joint sideways (then laid out from the root)."""
    chain = rope_build.make_rope(root, lengths, **kw)
    pts = chain.fields["points"]
    pts[:, 0] += push * np.arange(len(pts))
    lay_out(pts[None], chain.fields["root"][None], chain.fields["lengths"][None])
    return chain


def group_of(chains) -> dict[str, np.ndarray]:
    return {k: np.stack([c.fields[k] for c in chains]) for k in chains[0].fields}


ropes = st.builds(
    lambda n, seg, push, gravity, damping, pin, tx, ty: (n, seg, push, gravity, damping, pin, (tx, ty)),
    st.integers(1, 20), st.floats(1.0, 80.0), st.floats(-30.0, 30.0), st.floats(-3000.0, 3000.0),
    st.floats(0.0, 1.0), st.booleans(), st.floats(-500.0, 500.0), st.floats(-500.0, 500.0))


@given(st.lists(ropes, min_size=1, max_size=4))
def test_every_bone_keeps_its_length_every_step_and_rows_step_as_single_ropes(cases):
    n = cases[0][0]
    chains = [swung((100.0, 50.0), np.full(n, seg), push, gravity=g, damping=d, pin_end=pin,
                    target=(100.0 + tx, 50.0 + ty)) for _, seg, push, g, d, pin, (tx, ty) in cases]
    f = group_of(chains)
    singles = [{k: v[None].copy() for k, v in c.fields.items()} for c in chains]
    for _ in range(30):
        rope_step.step_ropes(f)
        for s in singles:
            rope_step.step_ropes(s)
        np.testing.assert_allclose(bone_lengths(f["points"]), f["lengths"], rtol=0, atol=1e-6)
        np.testing.assert_array_equal(f["points"][:, 0], f["root"])
    np.testing.assert_array_equal(f["points"], np.concatenate([s["points"] for s in singles]))


def test_an_unpinned_damped_rope_hangs_straight_down_from_its_root():
    chain = swung((300.0, 100.0), np.full(12, 20.0), 15.0, gravity=900.0, damping=0.05)
    f = {k: v[None] for k, v in chain.fields.items()}
    assert abs(f["points"][0, -1, 0] - 300.0) > 100.0  # it starts well off the vertical
    for _ in range(2000):
        rope_step.step_ropes(f)
    hanging = rope_build.hanging_points((300.0, 100.0), np.full(12, 20.0))
    assert np.abs(f["points"][0] - hanging).max() < 1.0


@pytest.mark.parametrize("target", [(420.0, 180.0), (250.0, 250.0), (300.0, 330.0)])
def test_a_pinned_rope_s_end_stays_on_its_target(target):
    chain = swung((300.0, 100.0), np.full(12, 20.0), 5.0, gravity=900.0, damping=0.05, pin_end=True, target=target)
    f = {k: v[None] for k, v in chain.fields.items()}
    for step in range(1000):
        rope_step.step_ropes(f)
        np.testing.assert_array_equal(f["points"][0, 0], (300.0, 100.0))
        if step >= 100:  # past the first swings: within a twentieth of a pixel while it sways
            assert math.dist(f["points"][0, -1], target) < 0.05
    assert math.dist(f["points"][0, -1], target) <= PIN_TOLERANCE  # at rest: on it, to the sweeps' tolerance


def test_a_pinned_rope_follows_its_dragged_target():
    scene = Scene(STAGE)
    chain = scene.new_chain("rope", (400.0, 100.0))
    assert scene.move_target(chain, (450.0, 200.0)) is None and math.dist(chain.fields["target"], (450.0, 200.0)) > 1
    scene.set_setting(chain, "pin_end", True)
    for k in range(120):
        scene.move_target(chain, (400.0 + k, 250.0))
        scene.step()
    np.testing.assert_array_equal(chain.fields["target"], (519.0, 250.0))
    assert math.dist(chain.fields["points"][-1], (519.0, 250.0)) < 0.05
    scene.move_chain(chain, (380.0, 90.0))  # the root dragged: shown laid out from it at once (as while paused)
    shown = rope_step.shown_points(chain.fields)
    np.testing.assert_array_equal(shown[0], (380.0, 90.0))
    np.testing.assert_allclose(bone_lengths(shown), chain.fields["lengths"], atol=1e-9)
    scene.step()  # and the rope follows it at the next step, lengths kept
    np.testing.assert_array_equal(chain.fields["points"][0], (380.0, 90.0))
    np.testing.assert_allclose(bone_lengths(chain.fields["points"]), chain.fields["lengths"], atol=1e-9)


def test_a_rope_saved_and_loaded_is_the_same_rope():
    scene = Scene(STAGE)
    a = scene.new_chain("rope", (200.0, 80.0))
    b = scene.new_chain("rope", (600.0, 120.0))
    scene.set_setting(b, "pin_end", True)
    scene.set_setting(b, "gravity", -250.5)
    scene.set_setting(b, "rope_damping", 0.125)
    scene.move_target(b, (700.0, 300.0))
    scene.set_setting(a, "bones", 5)
    for _ in range(37):
        scene.step()
    text = scene_file.scene_to_text(scene)
    loaded = scene_file.parse_scene(text, stage=STAGE)
    assert [c.solver for c in loaded.chains] == ["rope", "rope"]
    for old, new in zip(scene.chains, loaded.chains):
        for name in ("root", "target", "lengths", "points", "pin_end", "gravity", "damping"):
            np.testing.assert_array_equal(new.fields[name], old.fields[name], err_msg=name)
        np.testing.assert_array_equal(new.fields["previous"], new.fields["points"])  # loaded at rest
    assert scene_file.scene_to_text(loaded) == text


@pytest.mark.parametrize(("line", "says"), [
    ('{"solver": "rope", "root": [0, 0], "lengths": [10, 10], "points": [[0, 0], [0, 10]], "target": [0, 20]}',
     "chains[0].points: must have 3 entries, one more than lengths (got 2)"),
    ('{"solver": "rope", "root": [0, 0], "lengths": [10], "points": [[0, 0], [0, 10]], "target": [0, 20], '
     '"damping": 2}', "chains[0].damping: must be <= 1"),
    ('{"solver": "rope", "root": [0, 0], "lengths": [-1], "points": [[0, 0], [0, 10]], "target": [0, 20]}',
     "chains[0].lengths[0]: must be > 0"),
    ('{"solver": "rope", "root": [0, 0], "lengths": [10], "points": [[0, 0], [0, 10]]}',
     "chains[0]: missing field 'target'"),
])
def test_a_bad_rope_is_refused_in_one_line(line, says):
    text = '{"format": "ikplayground-scene", "version": 1, "chains": [' + line + "]}"
    with pytest.raises(scene_file.SceneFileError) as err:
        scene_file.parse_scene(text)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_a_rope_laid_out_wrong_in_a_file_is_laid_out_again_from_its_root():
    text = ('{"format": "ikplayground-scene", "version": 1, "chains": [{"solver": "rope", "root": [50, 50], '
            '"lengths": [10, 10], "points": [[0, 0], [3, 4], [9, 9]], "target": [0, 20]}]}')
    chain = scene_file.parse_scene(text).chains[0]
    np.testing.assert_array_equal(chain.fields["points"][0], (50.0, 50.0))
    np.testing.assert_allclose(bone_lengths(chain.fields["points"]), (10.0, 10.0), atol=1e-9)


def test_a_rope_flipped_twice_is_itself_and_flipped_once_swings_as_the_mirror_image():
    scene = Scene(STAGE)
    chain = scene.new_chain("rope", (400.0, 100.0))
    scene.set_setting(chain, "pin_end", True)
    scene.move_target(chain, (520.0, 260.0))
    for _ in range(20):
        scene.step()
    x0 = float(chain.fields["root"][0])
    before = {k: v.copy() for k, v in chain.fields.items()}
    flip_chain(chain)
    for name in ("points", "previous", "target"):
        np.testing.assert_array_equal(chain.fields[name][..., 0], 2 * x0 - before[name][..., 0])
    mirrored = {k: v.copy() for k, v in chain.fields.items()}
    flip_chain(chain)
    for k, v in before.items():
        np.testing.assert_array_equal(chain.fields[k], v, err_msg=k)
    one = {k: v[None].copy() for k, v in before.items()}
    other = {k: v[None].copy() for k, v in mirrored.items()}
    for _ in range(50):
        rope_step.step_ropes(one)
        rope_step.step_ropes(other)
    np.testing.assert_allclose(other["points"][0, :, 0], 2 * x0 - one["points"][0, :, 0], atol=1e-9)
    np.testing.assert_allclose(other["points"][0, :, 1], one["points"][0, :, 1], atol=1e-9)


def test_a_recorded_rope_replays_exactly_and_bakes(tmp_path):
    from ikplayground.scene.record.bake import bake_recording
    from ikplayground.scene.record.recording import Recorder
    from ikplayground.scene.record.replay import Replay

    scene = Scene(STAGE)
    rope = scene.new_chain("rope", (300.0, 80.0))
    scene.new_chain("ccd", (600.0, 400.0))
    scene.set_setting(rope, "pin_end", True)
    start = scene_file.scene_to_text(scene)
    recorder = Recorder(tmp_path / "r.csv")
    for k in range(40):  # its end's target dragged along while it records
        scene.move_target(rope, (300.0 + 3 * k, 300.0))
        scene.step()
        recorder.record(scene)
    recorder.close()
    again = scene_file.parse_scene(start, stage=STAGE)
    replay = Replay(tmp_path / "r.csv", again)
    while replay.drive(again):
        again.step()
    np.testing.assert_array_equal(again.chains[0].fields["points"], rope.fields["points"])
    assert recorder.rig[(0, "rope", 13)].tolist() == [20.0] * 12  # 12 bones, then its root
    baked = bake_recording(tmp_path / "r.csv", recorder.rig, tmp_path / "a.json")
    assert baked.tracks == 2 and baked.frames == 80
