"""The label placer: placed labels never overlap one another, an obstacle or the bounds' edge."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.insight.label_place import Label, distance, overlaps, place_labels, ring_box, spots

BOUNDS = (0.0, 0.0, 400.0, 300.0)
labels_st = st.lists(st.builds(Label, anchor=st.tuples(st.floats(0, 400), st.floats(0, 300)),
                               size=st.tuples(st.floats(10, 90), st.floats(8, 20)),
                               priority=st.floats(0, 3), gap=st.floats(0, 12), home=st.none()), max_size=25)
obstacles_st = st.lists(st.builds(ring_box, st.tuples(st.floats(0, 400), st.floats(0, 300)), st.floats(4, 20)),
                        max_size=6)


def boxes(placed) -> np.ndarray:
    return np.array([p.box for p in placed if p is not None]).reshape(-1, 4)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(labels_st, obstacles_st)
def test_no_two_placed_labels_overlap_nor_cover_an_obstacle_and_all_stay_inside(labels, obstacles):
    placed = place_labels(labels, obstacles, BOUNDS)
    got = boxes(placed)
    for k, box in enumerate(got):
        assert not overlaps(box[None], np.delete(got, k, axis=0))[0]
        assert not overlaps(box[None], np.array(obstacles).reshape(-1, 4))[0]
        assert box[0] >= 0 and box[1] >= 0 and box[0] + box[2] <= 400 and box[1] + box[3] <= 300
    for label, p in zip(labels, placed):
        if p is not None:
            assert p.box[2:] == label.size
            assert p.leader == (distance(p.box, label.anchor) > 1.5 * label.gap + 1e-9)  # a diagonal: gap * 1.41


def test_a_lone_label_sits_right_of_its_anchor_without_a_leader():
    (p,) = place_labels([Label((100.0, 100.0), (40.0, 12.0))], bounds=BOUNDS)
    assert p.box == (106.0, 94.0, 40.0, 12.0) and not p.leader


def test_crowded_labels_move_out_with_leaders_and_the_higher_priority_keeps_its_spot():
    same = [Label((100.0, 100.0), (40.0, 12.0), key=k, priority=k) for k in range(10)]
    placed = place_labels(same, bounds=BOUNDS)
    assert placed[9].box == (106.0, 94.0, 40.0, 12.0)  # the highest priority: the nearest spot
    assert sum(p is not None and p.leader for p in placed) >= 1
    assert len(boxes(placed)) == sum(p is not None for p in placed)


def test_a_label_keeps_last_frames_spot_while_it_is_free():
    a = Label((100.0, 100.0), (40.0, 12.0), key="a")
    first = place_labels([a], [ring_box((126.0, 100.0), 8.0)], BOUNDS)  # right is taken: it goes left
    assert first[0].box[0] < 100.0
    again = place_labels([a], [], BOUNDS, previous=spots([a], first))  # right is free now: it stays left
    assert again[0].box == first[0].box


def test_a_label_with_no_free_spot_is_left_out_rather_than_drawn_over_another():
    wall = [ring_box((100.0, 100.0), 200.0)]
    assert place_labels([Label((100.0, 100.0), (40.0, 12.0))], wall, BOUNDS) == [None]


def test_a_label_with_a_home_sits_there_while_it_is_free_and_else_moves_out_beside_its_anchor():
    a = Label((100.0, 100.0), (40.0, 12.0), key="a", home=(80.0, 120.0))
    (p,) = place_labels([a], bounds=BOUNDS)
    assert p.box == (80.0, 120.0, 40.0, 12.0) and not p.leader
    (q,) = place_labels([a], [ring_box((100.0, 126.0), 8.0)], BOUNDS)  # the home is covered: beside the anchor
    assert q.box == (106.0, 94.0, 40.0, 12.0) and not q.leader
    assert not overlaps(np.array([q.box]), np.array([ring_box((100.0, 126.0), 8.0)]))[0]


def place_all_at_once(labels, obstacles, bounds, previous):
    """The placer's rule worked out over every candidate at once (numpy): the spot kept from the last frame
    while it is free, else the first free candidate; what :func:`place_labels` must give, box for box."""
    from ikplayground.insight.label_place import candidates

    placed = [None] * len(labels)
    taken = np.array(obstacles, dtype=float).reshape(-1, 4)
    for i in sorted(range(len(labels)), key=lambda i: -labels[i].priority):
        label = labels[i]
        cand = candidates(label)
        bx, by, bw, bh = bounds
        free = ~overlaps(cand, taken) & ((cand[:, 0] >= bx) & (cand[:, 1] >= by) & (cand[:, 0] + cand[:, 2] <= bx + bw)
                                         & (cand[:, 1] + cand[:, 3] <= by + bh))
        if not free.any():
            continue
        spot = int(np.argmax(free))
        last = previous.get(label.key)
        if last is not None and last < len(free) and free[last]:
            spot = last
        placed[i] = (tuple(cand[spot].tolist()), spot)
        taken = np.vstack([taken, cand[spot]])
    return placed


keyed_st = st.lists(st.builds(Label, anchor=st.tuples(st.floats(-20, 420), st.floats(-20, 320)),
                              size=st.tuples(st.floats(10, 90), st.floats(8, 20)), key=st.integers(0, 6),
                              priority=st.sampled_from([1.0, 2.0, 3.0]), gap=st.floats(0, 12),
                              home=st.none() | st.tuples(st.floats(-20, 420), st.floats(-20, 320))), max_size=12)


@settings(max_examples=80, deadline=None)
@given(keyed_st, obstacles_st, st.dictionaries(st.integers(0, 6), st.integers(0, 30)))
def test_the_placer_tries_spots_one_by_one_as_the_rule_over_all_candidates_says(labels, obstacles, previous):
    got = place_labels(labels, obstacles, BOUNDS, previous)
    want = place_all_at_once(labels, obstacles, BOUNDS, previous)
    assert [None if p is None else (p.box, p.spot) for p in got] == want
