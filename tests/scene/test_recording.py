"""Recordings (docs/recording.md): the CSV's columns and values, the .part file, the rig, the reader's errors.

Read with the csv module only, as any program would read the file.
"""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build, walker_build
from ikplayground.scene.build.presets import default_scene
from ikplayground.scene.core.scene import Scene
from ikplayground.scene.record.recording import COLUMNS, Recorder, RecordingError
from ikplayground.scene.record.recording_read import read_steps
from ikplayground.scene.core.constants import SOLVERS

SOLVER_NAMES = ", ".join(SOLVERS)  # as the messages list them: the registry's order

HEADER = "step,chain,solver,joint,angle_deg,x,y,target_x,target_y,name"
OLD_HEADER = "step,chain,solver,joint,angle_deg,x,y,target_x,target_y"  # before the name column: still read


def every_kind_scene() -> Scene:
    """The default scene (two-bone, CCD, FABRIK, DLS, snake) and walkers of two- and three-bone legs."""
    scene = default_scene()
    scene.add_in_turn([walker_build.make_walker((300.0, 400.0), legs=4),
                       walker_build.make_walker((700.0, 400.0), legs=6, leg_bones=3, facing=-1.0)])
    return scene


def expected_rows(scene: Scene, step: int) -> list[tuple]:
    """The rows docs/recording.md asks for, chain by chain in plain Python (no code of the recorder)."""
    rows = []
    for i, c in enumerate(scene.chains):
        f = c.fields
        if c.is_snake:
            p = f["points"].tolist()
            heading = [math.atan2(b[1] - a[1], b[0] - a[0]) for a, b in zip(p, p[1:])]
            for j, end in enumerate(p[1:]):
                if j == 0:
                    angle = heading[0]
                else:
                    angle = heading[j] - heading[j - 1]
                    while angle <= -math.pi:
                        angle += 2 * math.pi
                    while angle > math.pi:
                        angle -= 2 * math.pi
                rows.append((step, i, "snake", j, math.degrees(angle), end[0], end[1], p[0][0], p[0][1], c.tag))
        elif c.is_walker:
            legs, m = f["lengths"].shape
            points = f["points"].tolist()
            for leg in range(legs):
                for b in range(m):
                    end = points[leg * (m + 1) + b + 1]
                    rows.append((step, i, "walker", leg * m + b, math.degrees(float(f["angles"][leg, b])), end[0],
                                 end[1], float(f["body"][0]), float(f["body"][1]), c.tag))
            body = (float(f["body"][0]), float(f["body"][1]))
            rows += appendage_rows(f, legs * m, (step, i, "walker"), body, c.tag)  # (each walker its own group)
        else:
            for j in range(c.bones):
                end = f["points"][j + 1].tolist()
                rows.append((step, i, c.solver, j, math.degrees(float(f["angles"][j])), end[0], end[1],
                             float(f["target"][0]), float(f["target"][1]), c.tag))
    return rows


def read_back(scene: Scene, row: tuple) -> bool:
    """Whether ``row``'s angle is read back from points (a snake's bone, a walker's appendage), not stored."""
    chain = scene.chains[row[1]]
    if chain.is_snake:
        return True
    return chain.is_walker and row[3] >= chain.fields["lengths"].size


def turn(angle: float) -> float:
    """``angle`` rad wrapped to (-pi, pi]."""
    while angle <= -math.pi:
        angle += 2 * math.pi
    while angle > math.pi:
        angle -= 2 * math.pi
    return angle


def appendage_rows(f, first: int, head: tuple, target: tuple, tag: str) -> list[tuple]:
    """A walker's or rig's appendage rows after its ``first`` rows, as docs/recording.md says (one chain alone in
    its group): per slot up to the last used, its root, then each of the most bones any has, a joint past an
    appendage's last bone on its last joint."""
    bones = [sum(1 for v in row if v > 0) for row in f["app_lengths"].tolist()]
    a = max((s + 1 for s, k in enumerate(bones) if k), default=0)
    b = max(bones)
    rows, j = [], first
    for slot in range(a):
        p = [f["app_points"][slot, min(q, bones[slot])].tolist() for q in range(b + 1)]
        rows.append((*head, j, 0.0, p[0][0], p[0][1], *target, tag))
        heading = [math.atan2(q[1] - o[1], q[0] - o[0]) for o, q in zip(p, p[1:])]
        for k in range(b):
            angle = heading[0] if k == 0 else turn(heading[k] - heading[k - 1])
            rows.append((*head, j + 1 + k, math.degrees(angle), p[k + 1][0], p[k + 1][1], *target, tag))
        j += b + 1
    return rows


def parsed(row: list[str]) -> tuple:
    return (int(row[0]), int(row[1]), row[2], int(row[3]), *map(float, row[4:9]), *row[9:])


@pytest.mark.slow
def test_the_file_is_the_steps_rows_with_exactly_these_columns_and_values(tmp_path):
    scene = every_kind_scene()
    path = tmp_path / "run.csv"
    recorder = Recorder(path)
    expected = []
    for k in range(40):
        scene.steer(True, 1 if k < 20 else -1)  # the selected arm keeps still; the snake drives
        if k == 10:
            scene.move_target(scene.chains[0], (250.0, 300.0))
        scene.step()
        recorder.record(scene)
        expected += expected_rows(scene, k)
    recorder.close()
    raw = path.read_bytes()
    raw.decode("utf-8")
    assert b"\r" not in raw and raw.endswith(b"\n")
    assert raw.split(b"\n")[0].decode() == HEADER == ",".join(COLUMNS)
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == HEADER.split(",")
    assert all(len(r) == 10 for r in rows)
    got = [parsed(r) for r in rows[1:]]
    antennae = 2 * (walker_build.ANTENNA_BONES[0] + 1)  # each walker's: two of a root and 4 bones
    assert len(got) == len(expected) == 40 * (2 + 3 * 7 + 9 + 4 * 2 + 6 * 3 + 2 * antennae)
    # every number bit for bit (repr reads back exactly), but the angles read back from points (a snake's, an
    # appendage's) to an ulp or so: numpy's arctan2 against math.atan2 (numpy's SIMD arctan2 rounds as the CPU's
    # vector units allow, so the last bit differs between machines)
    assert [r[:4] + r[5:] for r in got] == [r[:4] + r[5:] for r in expected]
    stored = [k for k, r in enumerate(expected) if not read_back(scene, r)]
    assert 0 < len(stored) < len(expected)
    assert [got[k][4] for k in stored] == [expected[k][4] for k in stored]
    assert [r[4] for r in got] == pytest.approx([r[4] for r in expected], rel=1e-12, abs=1e-12)
    assert recorder.steps == 40


@pytest.mark.slow
def test_angles_and_points_agree_by_forward_kinematics(tmp_path):
    scene = every_kind_scene()
    scene.chains[4].fields["wander"][0] = 1.0
    recorder = Recorder(tmp_path / "fk.csv")
    for _ in range(90):
        scene.step()
        recorder.record(scene)
    recorder.close()
    rig = recorder.rig
    by_chain: dict = {}
    with open(tmp_path / "fk.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            by_chain.setdefault((int(row["step"]), int(row["chain"])), []).append(row)
    assert len(by_chain) == 90 * len(scene.chains)
    for (step, chain), rows in by_chain.items():
        solver = rows[0]["solver"]
        lengths = next(v for (i, s, _), v in rig.items() if i == chain and s == solver)
        a = np.radians([float(r["angle_deg"]) for r in rows])
        xy = np.array([[float(r["x"]), float(r["y"])] for r in rows])
        target = np.array([float(rows[0]["target_x"]), float(rows[0]["target_y"])])
        if solver == "walker":  # each leg from its first bone's end (its antennae's rows after its legs)
            lengths = lengths["lengths"]
            legs, m = lengths.shape
            for leg in range(legs):
                heading = np.cumsum(a[leg * m:(leg + 1) * m])
                for b in range(1, m):
                    step_xy = lengths[leg, b] * np.array([math.cos(heading[b]), math.sin(heading[b])])
                    assert np.allclose(xy[leg * m + b], xy[leg * m + b - 1] + step_xy, atol=1e-6)
            continue
        heading = np.cumsum(a)
        steps = lengths[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=1)
        start = target if solver == "snake" else xy[0] - steps[0]  # a snake's segments run from its head
        assert np.allclose(start + np.cumsum(steps, axis=0), xy, atol=1e-6), (step, chain, solver)
        if solver != "snake":
            root = scene.chains[chain].fields["root"]
            assert np.allclose(start, root, atol=1e-6)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-179.9, 179.9), min_size=1, max_size=6), st.floats(-180.0, 180.0))
def test_a_snake_s_bends_are_the_signed_turns_between_its_segments(tmp_path_factory, bends, heading_deg):
    """A snake at rest, laid out with known bends (free to bend all the way round): row j is bend j."""
    heading = math.radians(heading_deg)
    direction = [heading]
    for b in bends:
        direction.append(direction[-1] + math.radians(b))
    points = [(400.0, 300.0)]
    for d in direction:  # head first: segment j runs from node j to node j + 1
        points.append((points[-1][0] + 30 * math.cos(d), points[-1][1] + 30 * math.sin(d)))
    scene = Scene()
    snake = build.make_snake(points, bend_deg=180.0)
    scene.add(snake)
    path = tmp_path_factory.mktemp("snake") / "s.csv"
    recorder = Recorder(path)
    scene.step()  # at rest: the body stays as it was laid
    recorder.record(scene)
    recorder.close()
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    got = [float(r["angle_deg"]) for r in rows]
    want_first = math.degrees(math.atan2(math.sin(heading), math.cos(heading)))
    assert got[0] == pytest.approx(want_first, abs=1e-9) or abs(abs(got[0]) - 180.0) < 1e-9
    assert got[1:] == pytest.approx(bends, abs=1e-9)
    assert all(-180.0 < g <= 180.0 for g in got)
    assert [(float(r["target_x"]), float(r["target_y"])) for r in rows] == [(400.0, 300.0)] * len(rows)


def test_it_writes_to_a_part_file_and_names_the_file_only_when_it_stops(tmp_path):
    path = tmp_path / "run.csv"
    scene = default_scene()
    recorder = Recorder(path)
    part = tmp_path / "run.csv.part"
    for _ in range(3):
        scene.step()
        recorder.record(scene)
    assert part.exists() and not path.exists()  # a crash now leaves no half-written run.csv
    assert recorder.close() == path
    assert path.exists() and not part.exists()
    assert [s.step for s in read_steps(path)] == [0, 1, 2]
    recorder.close()  # again: nothing happens
    assert path.exists()


def test_a_failed_open_or_write_is_one_line_and_leaves_nothing_behind(tmp_path):
    with pytest.raises(RecordingError, match=r"^run\.csv: cannot be written \(No such file or directory\)$"):
        Recorder(tmp_path / "missing" / "run.csv")

    class Full:
        def write(self, text):
            raise OSError(28, "No space left on device")

        def close(self):
            pass

    scene = default_scene()
    recorder = Recorder(tmp_path / "run.csv")
    recorder._file.close()
    recorder._file = Full()  # the disk fills up
    scene.step()
    with pytest.raises(RecordingError) as info:
        recorder.record(scene)
    assert str(info.value) == "run.csv: could not be written (No space left on device); nothing was saved"
    assert "\n" not in str(info.value)
    assert not recorder.open and list(tmp_path.iterdir()) == []


def test_the_rig_keeps_each_chain_s_bone_lengths_from_its_first_step(tmp_path):
    scene = every_kind_scene()
    recorder = Recorder(tmp_path / "rig.csv")
    scene.step()
    recorder.record(scene)
    antennae = 2 * (walker_build.ANTENNA_BONES[0] + 1)  # two antennae: each its root, then its bones
    assert set(recorder.rig) == {(0, "two-bone", 2), (1, "ccd", 7), (2, "fabrik", 7), (3, "dls", 7), (4, "snake", 9),
                                 (5, "walker", 8 + antennae), (6, "walker", 18 + antennae)}
    assert recorder.rig[(0, "two-bone", 2)].tolist() == [120.0, 100.0]
    assert recorder.rig[(6, "walker", 18 + antennae)]["lengths"].shape == (6, 3)
    walker = recorder.rig[(5, "walker", 8 + antennae)]
    assert np.array_equal(walker["lengths"], scene.chains[5].fields["lengths"])
    assert np.array_equal(walker["appendages"], scene.chains[5].fields["app_lengths"][:2, :antennae // 2 - 1])
    assert walker["appendage_parents"].tolist() == [-1, -1]  # a walker's hang from its body
    scene.chains[1].fields["lengths"][:] = 50.0  # later edits leave the first step's lengths
    scene.set_solver(scene.chains[2], "ccd")  # a new key at its first step
    scene.step()
    recorder.record(scene)
    assert recorder.rig[(1, "ccd", 7)].tolist() == [36.0] * 7
    assert (2, "ccd", 7) in recorder.rig and (2, "fabrik", 7) in recorder.rig
    recorder.close()


def test_the_reader_streams_the_steps_as_written(tmp_path):
    scene = every_kind_scene()
    recorder = Recorder(tmp_path / "r.csv")
    kept = []
    for _ in range(5):
        scene.step()
        recorder.record(scene)
        kept.append(expected_rows(scene, len(kept)))
    recorder.close()
    steps = list(read_steps(tmp_path / "r.csv"))
    assert [s.step for s in steps] == list(range(5))
    for s, rows in zip(steps, kept):
        assert s.chain.tolist() == [r[1] for r in rows] and s.solver == [r[2] for r in rows]
        assert s.joint.tolist() == [r[3] for r in rows]
        assert s.values[:, 1:].tolist() == [list(r[5:9]) for r in rows]
        exact = [not read_back(scene, r) for r in rows]  # (the others to an ulp: see the test above)
        assert s.values[exact, 0].tolist() == [r[4] for r, e in zip(rows, exact) if e]
        assert s.values[:, 0].tolist() == pytest.approx([r[4] for r in rows], rel=1e-12, abs=1e-12)
        assert s.names == [c.tag for c in scene.chains] == [f"#{k}" for k in range(1, 8)]
        antennae = 2 * (walker_build.ANTENNA_BONES[0] + 1)
        assert s.chains() == [(c.solver, n) for c, n in zip(scene.chains, (2, 7, 7, 7, 9, 8 + antennae,
                                                                           18 + antennae))]
    assert steps[1].line == 2 + len(kept[0])


GOOD = [OLD_HEADER, "0,0,two-bone,0,-63.0,1.5,2.5,10.0,20.0", "0,0,two-bone,1,87.0,3.5,4.5,10.0,20.0",
        "0,1,snake,0,0.0,5.0,6.0,7.0,8.0", "1,0,two-bone,0,-63.0,1.5,2.5,10.0,20.0",
        "1,0,two-bone,1,87.0,3.5,4.5,10.0,20.0", "1,1,snake,0,0.0,5.0,6.0,7.0,8.0"]


def broken(line: int, text: str | None) -> str:
    """GOOD with line ``line`` (1-based) replaced by ``text`` (None: removed)."""
    lines = list(GOOD)
    if text is None:
        del lines[line - 1]
    else:
        lines[line - 1] = text
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("text", "message"), [
    ("", "bad.csv: line 1: the file is empty; a recording starts with the line " + HEADER),
    (broken(1, "step,chain,solver,joint,angle,x,y,target_x,target_y"),
     "bad.csv: line 1: not a recording: the first line must be " + HEADER
     + " (got 'step,chain,solver,joint,ang...')"),
    (broken(3, "0,0,two-bone,1,87.0,3.5,4.5,10.0"), "bad.csv: line 3: 8 columns where the header has 9"),
    (broken(3, "0,0,two-bone,1,abc,3.5,4.5,10.0,20.0"), "bad.csv: line 3: angle_deg: not a number (got 'abc')"),
    (broken(4, "0,1,snake,0,0.0,nan,6.0,7.0,8.0"), "bad.csv: line 4: x: must be a finite number (got 'nan')"),
    (broken(4, "0,1.0,snake,0,0.0,5.0,6.0,7.0,8.0"), "bad.csv: line 4: chain: must be a whole number >= 0 (got '1.0')"),
    (broken(3, "0,0,two-bone,-1,87.0,3.5,4.5,10.0,20.0"),
     "bad.csv: line 3: joint: must be a whole number >= 0 (got '-1')"),
    (broken(5, "x,0,two-bone,0,-63.0,1.5,2.5,10.0,20.0"),
     "bad.csv: line 5: step: must be a whole number >= 0 (got 'x')"),
    ("\n".join(GOOD) + "\n0,0,two-bone,0,-63.0,1.5,2.5,10.0,20.0\n",
     "bad.csv: line 8: step 0 after step 1: steps must come in order, each once"),
    (broken(5, "0,0,two-bone,0,-63.0,1.5,2.5,10.0,20.0"),  # step 0 goes on: chain 0 again is out of order
     "bad.csv: line 5: chain 0 where chain 2 or joint 1 of chain 1 was due: a step's chains are 0, 1, 2... in order"),
    (broken(4, "0,2,snake,0,0.0,5.0,6.0,7.0,8.0"),
     "bad.csv: line 4: chain 2 where chain 1 or joint 2 of chain 0 was due: a step's chains are 0, 1, 2... in order"),
    (broken(3, "0,0,two-bone,2,87.0,3.5,4.5,10.0,20.0"),
     "bad.csv: line 3: joint 2 of chain 0 where joint 1 was due: a chain's joints are 0, 1, 2... in order"),
    (broken(4, "0,1,snake,1,0.0,5.0,6.0,7.0,8.0"),
     "bad.csv: line 4: joint 1 of chain 1 where joint 0 was due: a chain's joints are 0, 1, 2... in order"),
    (broken(4, "0,1,jacobian,0,0.0,5.0,6.0,7.0,8.0"),
     f"bad.csv: line 4: solver: must be one of {SOLVER_NAMES} (got 'jacobian')"),
    (broken(3, "0,0,ccd,1,87.0,3.5,4.5,10.0,20.0"),
     "bad.csv: line 3: solver ccd in chain 0, whose joint 0 is two-bone"),
    (broken(3, None), "bad.csv: line 2: chain 0 (two-bone) has 1 joints; it may have 2"),
    (broken(4, ""), "bad.csv: line 4: an empty line; a recording has none"),
    (broken(4, "0,1,snake,0,0.0,5.0,-2e300,7.0,8.0"), "bad.csv: line 4: y: must be within +-1e+300 (got '-2e300')"),
    (broken(4, "0,1,snake,0,0.0,5_0,6.0,7.0,8.0"), "bad.csv: line 4: x: not a number (got '5_0')"),
    (broken(4, "0,+1,snake,0,0.0,5.0,6.0,7.0,8.0"), "bad.csv: line 4: chain: must be a whole number >= 0 (got '+1')"),
    (broken(3, "0,0,two-bone,1,87.0,3.5,4.5,10.0,20.5"),
     "bad.csv: line 3: target 10.0, 20.5 in chain 0, whose joint 0 has 10.0, 20.0: a chain has one target a step"),
    (broken(4, "0,1,snake,0,0.0,5.0\r,6.0,7.0,8.0"), "bad.csv: line 4: a carriage return inside the line"),
    (broken(4, "0," + "9" * 5000 + ",snake,0,0.0,5.0,6.0,7.0,8.0"),  # more digits than int() converts
     "bad.csv: line 4: chain: must be a whole number >= 0 (got '" + "9" * 27 + "...')"),
    (broken(4, "0,1,snake,0,0.0," + "5" * 200_000 + ",6.0,7.0,8.0"),
     "bad.csv: line 4: field larger than field limit (131072)"),
    (broken(3, '0,0,two-bone,1,"87.0",3.5,4.5,10.0,20.0'), "bad.csv: line 3: angle_deg: not a number (got '\"87.0\"')"),
    (broken(4, '0,1,"snake",0,0.0,5.0,6.0,7.0,8.0'),
     f"bad.csv: line 4: solver: must be one of {SOLVER_NAMES} (got '\"snake\"')"),
    (broken(4, "0,1,jacobian,0,nan,5.0,6.0,7.0,8.0"),  # two bad values on a line: the first one's column
     f"bad.csv: line 4: solver: must be one of {SOLVER_NAMES} (got 'jacobian')"),
])
def test_a_bad_file_is_refused_in_one_line_naming_the_line(tmp_path, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordingError) as info:
        list(read_steps(path))
    assert str(info.value) == message


def test_the_good_example_reads_and_bad_bytes_or_a_missing_file_are_one_line(tmp_path):
    path = tmp_path / "good.csv"
    path.write_text("\n".join(GOOD) + "\n", encoding="utf-8")
    steps = list(read_steps(path))
    assert [s.step for s in steps] == [0, 1] and steps[1].line == 5
    assert steps[0].targets().tolist() == [[10.0, 20.0], [7.0, 8.0]]
    path.write_bytes(("\n".join(GOOD[:3]) + "\n").encode() + b"0,1,snake,0,\xff\n")
    with pytest.raises(RecordingError, match=r"^good\.csv: line 4: not UTF-8 text"):
        list(read_steps(path))
    with pytest.raises(RecordingError, match=r"^nothing\.csv: no such file$"):
        list(read_steps(tmp_path / "nothing.csv"))


@pytest.mark.slow
def test_recording_the_default_scene_keeps_no_past_steps(tmp_path):
    """Nothing but the rig grows with the run: the recorder's own objects are the same after many steps."""
    scene = default_scene()
    recorder = Recorder(tmp_path / "long.csv")
    for _ in range(5):
        scene.step()
        recorder.record(scene)
    size = len(recorder.__dict__), len(recorder.rig)
    for _ in range(300):
        scene.step()
        recorder.record(scene)
    assert (len(recorder.__dict__), len(recorder.rig)) == size
    recorder.close()
    assert sum(1 for _ in read_steps(tmp_path / "long.csv")) == 305


NAMED = [HEADER, "0,0,two-bone,0,-63.0,1.5,2.5,10.0,20.0,#1", "0,0,two-bone,1,87.0,3.5,4.5,10.0,20.0,#1",
         "0,1,snake,0,0.0,5.0,6.0,7.0,8.0,left arm"]


def named(line: int, text: str) -> str:
    lines = list(NAMED)
    lines[line - 1] = text
    return "\n".join(lines) + "\n"


def test_the_name_column_gives_each_chain_s_name_and_is_checked(tmp_path):
    path = tmp_path / "named.csv"
    path.write_text(named(1, HEADER), encoding="utf-8")
    (step,) = read_steps(path)
    assert step.names == ["#1", "left arm"]
    for text, message in [
        ("0,0,two-bone,1,87.0,3.5,4.5,10.0,20.0,#2", "line 3: name #2 in chain 0, whose joint 0 is #1: a chain has one "
                                                    "name a step"),
        ("0,0,two-bone,1,87.0,3.5,4.5,10.0,20.0,#x", "line 3: name: must be # and a number, or 1 to 32 printable "
                                                    "characters without a space at either end, a double quote or a # "
                                                    "(got '#x')"),
        ('0,1,snake,0,0.0,5.0,6.0,7.0,8.0,"arm"', "line 4: name: must be"),
        ("0,1,snake,0,0.0,5.0,6.0,7.0,8.0, arm", "line 4: name: must be"),
        ("0,1,snake,0,0.0,5.0,6.0,7.0,8.0", "line 4: 9 columns where the header has 10"),
    ]:
        line = 3 if text.startswith("0,0") else 4
        path.write_text(named(line, text), encoding="utf-8")
        with pytest.raises(RecordingError) as info:
            list(read_steps(path))
        assert str(info.value).startswith(f"named.csv: {message}"), str(info.value)


def test_an_old_recording_without_names_still_reads(tmp_path):
    path = tmp_path / "old.csv"
    path.write_text("\n".join(GOOD) + "\n", encoding="utf-8")
    assert [s.names for s in read_steps(path)] == [None, None]


def test_the_recording_names_each_chain_by_its_number_or_its_name_through_a_solver_switch(tmp_path):
    scene = default_scene()
    scene.remove(scene.chains[1])  # CCD #2 goes: the others keep their numbers
    scene.chains[0].name = "arm%1"  # a "%" is written as it is
    recorder = Recorder(tmp_path / "n.csv")
    for k in range(3):
        if k == 1:
            scene.set_solver(scene.chains[1], "ccd")  # FABRIK #3 becomes CCD #3
        scene.step()
        recorder.record(scene)
    recorder.close()
    steps = list(read_steps(tmp_path / "n.csv"))
    assert [s.names for s in steps] == [["arm%1", "#3", "#4", "#5"]] * 3
    assert [s.chains()[1][0] for s in steps] == ["fabrik", "ccd", "ccd"]
