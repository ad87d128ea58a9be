"""The Spine 4.x JSON export: forward kinematics of the file, by Spine's own rules (tests/scene/spine_fk.py,
written apart from the exporter), lands every joint of the recording, y flipped, within 0.01 px at every frame."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from ikplayground import cli
from ikplayground.scene import PRESETS, RecordingError, available_presets, export_spine
from ikplayground.scene.record.recording import HEADER
from ikplayground.scene.record.spine_export import kept_keys
from tests.scene.spine_fk import worst_error

TOLERANCE = 0.01  # px
FRAMES = {"crowd": 3}  # its 5000 chains record ~4 MB a step: 300 steps would be a 1.3 GB CSV (and minutes)


def still_or_turning(path, steps: int, turn_deg: float) -> None:
    """A CSV of one two-bone CCD chain of 50 px bones from (100, 200), bone 1 turning ``turn_deg`` a step."""
    lines = [HEADER]
    for s in range(steps):
        a0, a1 = 10.0, turn_deg * s
        h0, h1 = math.radians(a0), math.radians(a0 + a1)
        p1 = (100 + 50 * math.cos(h0), 200 + 50 * math.sin(h0))
        p2 = (p1[0] + 50 * math.cos(h1), p1[1] + 50 * math.sin(h1))
        lines += [f"{s},0,ccd,0,{a0!r},{p1[0]!r},{p1[1]!r},180.0,180.0,#1\n",
                  f"{s},0,ccd,1,{a1!r},{p2[0]!r},{p2[1]!r},180.0,180.0,#1\n"]
    path.write_text("".join(lines), encoding="utf-8")


RIG = {(0, "ccd", 2): np.array([50.0, 50.0])}


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_presets_run_exports_a_skeleton_whose_spine_fk_lands_on_the_recording(preset, tmp_path):
    if preset not in available_presets():
        pytest.skip(f"{preset}: not available here")
    frames = FRAMES.get(preset, 300)
    csv, out = tmp_path / "run.csv", tmp_path / "run-spine.json"
    assert cli.main(["--scene", preset, "--headless", "--frames", str(frames), "--record", str(csv),
                     "--spine", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["skeleton"]["spine"].startswith("4.") and doc["skeleton"]["fps"] == 60
    assert doc["bones"][0] == {"name": "root", "length": 0.0, "x": 0.0, "y": 0.0, "rotation": 0.0,
                               "inherit": "normal"}
    worst, checked = worst_error(doc, csv)
    assert checked >= frames * 5, checked
    assert worst <= TOLERANCE, (preset, worst)
    steps = max(len(line.get("rotate", [])) for line in doc["animations"]["run"]["bones"].values())
    assert steps <= frames


def test_a_still_chain_keeps_two_keys_a_turning_one_more_and_both_land_on_the_recording(tmp_path):
    for turn, want in ((0.0, 2), (3.0, None)):
        csv, out = tmp_path / f"r{turn}.csv", tmp_path / f"s{turn}.json"
        still_or_turning(csv, 40, turn)
        done = export_spine(csv, RIG, out)
        doc = json.loads(out.read_text(encoding="utf-8"))
        lines = doc["animations"]["run"]["bones"]
        assert [b["name"] for b in doc["bones"]] == ["root", "chain-#1/bone-0", "chain-#1/bone-1", "chain-#1/tip"]
        assert doc["bones"][1]["x"] == 100.0 and doc["bones"][1]["y"] == -200.0  # y flipped
        assert doc["bones"][1]["rotation"] == pytest.approx(-10.0)  # clockwise on screen: counter-clockwise negative
        assert set(lines) == {"chain-#1/bone-0", "chain-#1/bone-1"}  # nothing moves: no translate keys
        keys = len(lines["chain-#1/bone-1"]["rotate"])
        if want is not None:
            assert keys == want and len(lines["chain-#1/bone-0"]["rotate"]) == 2
        else:  # a steady turn is a line too: two keys; its end key holds all of it
            assert lines["chain-#1/bone-1"]["rotate"][-1]["value"] == pytest.approx(-3.0 * 39)
        assert done.frames == 40 and worst_error(doc, csv)[0] <= TOLERANCE


def test_kept_keys_drop_only_what_a_line_gives_back():
    t = np.arange(50.0)
    wave = np.sin(t / 5)[:, None]
    keep = kept_keys(wave, 0.01)[:, 0]
    assert keep[0] and keep[-1] and 2 < keep.sum() < 50
    kept = np.flatnonzero(keep)
    assert np.abs(np.interp(t, kept, wave[kept, 0]) - wave[:, 0]).max() <= 0.01
    assert kept_keys(np.zeros((50, 3)), 0.01).sum(axis=0).tolist() == [2, 2, 2]


def test_a_bad_recording_is_refused_in_one_line_and_nothing_is_written(tmp_path):
    csv, out = tmp_path / "bad.csv", tmp_path / "out.json"
    csv.write_text(HEADER + "0,0,ccd,0,abc,1,2,3,4,#1\n", encoding="utf-8")
    with pytest.raises(RecordingError) as e:
        export_spine(csv, {}, out)
    assert "\n" not in str(e.value) and "line 2" in str(e.value) and "angle_deg" in str(e.value)
    assert not out.exists()
    out.write_text("kept", encoding="utf-8")
    csv.write_text(HEADER, encoding="utf-8")  # no chains at all
    with pytest.raises(RecordingError, match="no chains"):
        export_spine(csv, {}, out)
    assert out.read_text(encoding="utf-8") == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv", "out.json"]


def test_the_cli_says_a_bad_spine_path_in_one_line_with_status_2(tmp_path, capsys):
    assert cli.main(["--scene", "default", "--headless", "--frames", "1", "--spine",
                     str(tmp_path / "no" / "out.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--spine" in err and "does not exist" in err
    assert cli.spine_export(tmp_path / "missing.csv", {}, tmp_path / "o.json") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.csv" in err
    assert not (tmp_path / "o.json").exists()
