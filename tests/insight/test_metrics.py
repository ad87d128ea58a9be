"""Live metrics of one chain (insight/metrics.py) on known motions, and the step's per-chain solve time."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.insight.metrics import ChainMetrics, wrapped_turn
from ikplayground.scene.build import build
from ikplayground.scene.core.chain import STATUSES
from ikplayground.scene.core.scene import STEP, Scene
from ikplayground.scene.files.file_format import scene_to_text

STAGE = (980.0, 720.0)


def hand_chain(solver: str = "ccd", n: int = 3):
    """A chain outside any scene, whose recorded fields the test sets by hand."""
    return build.make_ik_chain(solver, (400.0, 600.0), np.zeros(n), np.full(n, 30.0), (400.0, 500.0))


def put(chain, *, error=0.0, angles=None, status=0, used=0, solve_us=0.0, reached=False):
    f = chain.fields
    f["error"][0] = error
    f["status"][0] = status
    f["used"][0] = used
    f["solve_us"][0] = solve_us
    f["reached"][0] = float(reached)
    if angles is not None:
        f["angles"][:] = angles


def test_error_history_is_oldest_first_after_wrap_around():
    m = ChainMetrics(seconds=10 * STEP, step=STEP)
    assert m.capacity == 10
    chain = hand_chain()
    for i in range(25):
        put(chain, error=float(i))
        m.record(chain)
    np.testing.assert_array_equal(m.errors(), np.arange(15.0, 25.0))
    assert len(m) == 10 and m.latest().error_px == 24.0


def test_a_short_history_is_all_of_it():
    m = ChainMetrics()
    chain = hand_chain()
    assert m.latest() is None and m.errors().shape == (0,) and m.reached_share() == 0.0
    for i in range(4):
        put(chain, error=10.0 - i)
        m.record(chain)
    np.testing.assert_array_equal(m.errors(), [10.0, 9.0, 8.0, 7.0])


def test_latest_row_reads_the_chain():
    m = ChainMetrics()
    chain = hand_chain()
    put(chain, error=3.5, status=STATUSES.index("stalled"), used=7, solve_us=42.0)
    m.record(chain)
    row = m.latest()
    assert row == (3.5, "stalled", 7, 42.0, 0.0)  # no turn at the first record
    assert isinstance(row.iterations, int) and isinstance(row.status, str)


def test_max_change_is_the_largest_turn_including_across_the_wrap():
    m = ChainMetrics()
    chain = hand_chain(n=3)
    put(chain, angles=[3.1, 0.2, -0.1])
    m.record(chain)
    put(chain, angles=[-3.1, 0.25, -0.1])  # joint 0 turns 2 pi - 6.2 rad across +-pi; joint 1 turns 0.05
    m.record(chain)
    assert m.latest().max_change_deg == pytest.approx(math.degrees(2 * math.pi - 6.2), abs=1e-9)
    mean = (2 * math.pi - 6.2 + 0.05) / 3
    assert m.jitter_deg() == pytest.approx(math.degrees(mean) / 2, abs=1e-9)  # the first record's 0 counts


@settings(max_examples=60)
@given(st.floats(-math.pi, math.pi), st.floats(-3.1, 3.1))
def test_max_change_equals_a_known_turn(start, turn):
    m = ChainMetrics()
    chain = hand_chain(n=2)
    put(chain, angles=[start, 0.0])
    m.record(chain)
    after = math.remainder(start + turn, 2 * math.pi)  # wrapped to [-pi, pi]
    put(chain, angles=[after, 0.0])
    m.record(chain)
    assert m.latest().max_change_deg == pytest.approx(math.degrees(abs(turn)), abs=1e-7)


def test_wrapped_turn_takes_the_shorter_way():
    np.testing.assert_allclose(wrapped_turn(np.array([-3.0, 0.5]), np.array([3.0, -0.5])),
                               [2 * math.pi - 6.0, 1.0], atol=1e-12)


def test_reached_share_of_a_scripted_half_and_half():
    m = ChainMetrics(seconds=40 * STEP, step=STEP)
    chain = hand_chain()
    for i in range(40):
        put(chain, reached=i % 2 == 0, used=i % 4, solve_us=10.0 * (i % 2))
        m.record(chain)
    assert m.reached_share() == 0.5
    assert m.mean_iterations() == 1.5
    assert m.mean_solve_us() == 5.0
    for _ in range(40):  # the window forgets the older half
        put(chain, reached=False)
        m.record(chain)
    assert m.reached_share() == 0.0


def test_another_chain_starts_over():
    m = ChainMetrics()
    a, b = hand_chain(n=3), hand_chain(n=5)
    for i in range(5):
        put(a, error=float(i))
        m.record(a)
    put(b, error=9.0, angles=np.full(5, 1.0))
    m.record(b)
    assert len(m) == 1 and m.chain is b
    np.testing.assert_array_equal(m.errors(), [9.0])
    assert m.latest().max_change_deg == 0.0  # not measured against a's angles
    assert m.trail().shape == (1, 5)
    a.solver = "fabrik"  # the scene's CCD <-> FABRIK switch keeps the chain object
    m.record(a)
    m.record(a)
    a.solver = "ccd"
    m.record(a)
    assert len(m) == 1


def test_a_snake_records_nothing():
    m = ChainMetrics()
    chain = hand_chain()
    m.record(chain)
    snake = build.straight_snake((300.0, 300.0), 0.0)
    m.record(snake)
    assert m.latest() is None and len(m) == 0 and m.errors().shape == (0,)


def test_trail_keeps_the_last_two_seconds_of_angles():
    m = ChainMetrics()
    chain = hand_chain("two-bone", n=2)
    for i in range(200):
        put(chain, angles=[i * 1e-3, -i * 1e-3])
        m.record(chain)
    trail = m.trail()
    assert trail.shape == (120, 2)
    np.testing.assert_allclose(trail[:, 0], np.arange(80, 200) * 1e-3)
    np.testing.assert_allclose(m.trail(0.5)[:, 1], -np.arange(170, 200) * 1e-3)
    assert m.trail(10.0).shape == (120, 2)  # never more than is kept


def test_a_stepped_chain_records_its_solve():
    scene = Scene(STAGE)
    chain = scene.new_chain("ccd", (490.0, 650.0))
    scene.move_target(chain, (560.0, 480.0))
    m = ChainMetrics()
    for _ in range(30):
        scene.step()
        m.record(chain)
        row = m.latest()
        assert row.error_px == chain.error and row.status == chain.status
        assert row.iterations == chain.fields["used"][0] and row.solve_us == chain.fields["solve_us"][0] > 0
        assert row.max_change_deg <= chain.rate_deg + 1e-9  # the rate limit caps every joint's turn
    assert m.errors()[0] > m.errors()[-1]  # closing in


# --- the scene step's solve time --------------------------------------------------
def test_solve_time_is_measured_per_chain_and_shared_in_a_group():
    scene = Scene(STAGE)
    for x in (200.0, 400.0, 600.0):
        scene.new_chain("fabrik", (x, 650.0))
    arm = scene.new_chain("two-bone", (800.0, 650.0))
    snake = scene.new_chain("snake", (500.0, 200.0))
    assert all(c.fields["solve_us"][0] == 0.0 for c in scene.chains if not c.is_snake)  # not measured yet
    scene.step()
    times = [c.fields["solve_us"][0] for c in scene.chains if c.solver == "fabrik"]
    assert times[0] > 0 and times == [times[0]] * 3  # the group's call, shared out
    assert arm.fields["solve_us"][0] > 0
    assert "solve_us" not in snake.fields
    assert "solve_us" not in scene_to_text(scene)  # measured, never saved
