"""The real-time loop's pacing: never more steps a frame than its budget allows; time it cannot afford is given
up (slow motion), never the frame rate (issue 25: "no spiral")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ikplayground.scene import MAX_STEPS_PER_FRAME, STEP, due_steps, smoothed, steps_allowed
from ikplayground.scene.step.pacing import FRAME_MS

costs = st.floats(0.0, 200.0)


@given(costs, costs)
def test_the_steps_allowed_and_the_drawing_fit_the_frame_unless_one_step_alone_does_not(step_ms, draw_ms):
    allowed = steps_allowed(step_ms, draw_ms)
    assert 1 <= allowed <= MAX_STEPS_PER_FRAME
    if step_ms == 0.0:  # no step measured yet (or one too cheap to measure): they cost the frame nothing
        assert allowed == MAX_STEPS_PER_FRAME
    elif allowed > 1:
        assert allowed * step_ms + draw_ms <= FRAME_MS + 1e-9


@given(st.floats(0.0, 1.0), st.integers(1, MAX_STEPS_PER_FRAME))
def test_due_steps_never_exceed_the_allowance_and_account_for_every_second(accrued, allowed):
    steps, left, given_up = due_steps(accrued, allowed)
    assert 0 <= steps <= allowed and left >= 0.0 and given_up >= 0.0
    kept = min(accrued, MAX_STEPS_PER_FRAME * STEP)
    assert steps * STEP + left + given_up == pytest.approx(kept, abs=1e-9)
    assert left < STEP + 1e-9


def test_a_frame_that_cannot_afford_catch_up_takes_one_step_and_gives_the_rest_up():
    allowed = steps_allowed(step_ms=12.0, draw_ms=8.0)  # 10,000 chains: a step and a drawing fill the frame
    assert allowed == 1
    steps, left, given_up = due_steps(3 * STEP + 0.001, allowed)
    assert steps == 1 and given_up == pytest.approx(2 * STEP) and left == pytest.approx(0.001)
    assert due_steps(3 * STEP, steps_allowed(1.0, 4.0))[0] == 3  # cheap steps: all three catch up


def test_one_slow_frame_does_not_make_the_next_give_up_time():
    step_ms = draw_ms = 0.0
    for _ in range(30):  # a steady default scene: cheap steps, a light drawing
        step_ms, draw_ms = smoothed(step_ms, 1.0), smoothed(draw_ms, 4.0)
    draw_ms = smoothed(draw_ms, 30.0)  # one frame hitches (a collection, a panel rebuild)
    assert due_steps(2 * STEP, steps_allowed(step_ms, draw_ms)) == (2, 0.0, 0.0)
    for _ in range(30):  # but a drawing that stays dear is believed: one step a frame
        draw_ms = smoothed(draw_ms, 30.0)
    assert steps_allowed(step_ms, draw_ms) == 1
