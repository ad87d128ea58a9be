"""Chains made a group at a time (Chain.of_rows, build_batch.ik_columns) are the chains made one by one."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ikplayground.scene.build import build_batch
from ikplayground.scene.core.chain import Chain


def same_chains(new: list[Chain], old: list[Chain]) -> None:
    assert len(new) == len(old)
    for i, (a, b) in enumerate(zip(new, old, strict=True)):
        assert (a.solver, a.palette_index, a.settings(), a.group_key) == (b.solver, b.palette_index, b.settings(),
                                                                          b.group_key), i
        assert a.fields.keys() == b.fields.keys()
        for name, arr in b.fields.items():
            assert a.fields[name].dtype == arr.dtype and a.fields[name].shape == arr.shape, (i, name)
            assert a.fields[name].tobytes() == arr.tobytes(), (i, name)  # NaN where NaN, -0.0 where -0.0


def test_of_rows_makes_the_chains_the_constructor_makes_with_their_fields_views_of_the_rows():
    f, _ = build_batch.ik_group("ccd", 3, [
        {"solver": "ccd", "root": (10.0 * k, 5.0), "angles": [0.1, 0.2, -0.3], "lengths": [4.0, 5.0, 6.0],
         "target": (3.0, 9.0 + k), "rate_limit": None if k % 2 else 7.5} for k in range(5)])
    rows = [0, 3, 4]
    made = Chain.of_rows("ccd", f, rows, [2, 0, 6], rate_deg=12.0, joint_limit=45.0, skin="lines")
    want = [Chain("ccd", {name: a[row].copy() for name, a in f.items()}, p, rate_deg=12.0, joint_limit=45.0,
                  skin="lines") for row, p in zip(rows, [2, 0, 6])]
    assert len({c.id for c in made} | {c.id for c in want}) == 6
    assert [c.group_key for c in made] == [("ccd", 3)] * 3 and [c.bones for c in made] == [3] * 3
    same_chains(made, want)
    for chain, row in zip(made, rows):
        for name, arr in f.items():
            assert chain.fields[name].base is arr and np.shares_memory(chain.fields[name], arr[row])
        chain.fields["target"][:] = (-1.0, -2.0)  # a write through the chain lands in the group's row
        assert f["target"][row].tolist() == [-1.0, -2.0]
    # a limit that is on follows the setting, as the constructor's rate_deg does; one that is off stays off
    assert f["rate"][0, 0] == f["rate"][4, 0] == math.radians(12.0) and f["rate"][3, 0] == math.inf
    assert f["rate"][2, 0] == math.radians(7.5)  # the rows not asked for are left as they were


def test_a_chain_of_rows_gets_its_own_fields_when_given_them():
    f = build_batch.empty_fields("fabrik", 2, rows=2)
    chain = Chain.of_rows("fabrik", f, range(2), [0, 1])[1]
    mine = {name: a[1].copy() for name, a in f.items()}
    chain.fields = mine
    assert chain.fields is mine and chain.group_key == ("fabrik", 2)


KEYS = ("rate_limit", "rate_deg", "iterations", "tolerance", "mirror", "joint_limit", "pole", "softness",
        "auto_bend", "skin", "palette_index", "preferred_bones")


@st.composite
def batches(draw):
    solver = draw(st.sampled_from(("two-bone", "ccd", "fabrik", "dls")))
    n = 2 if solver == "two-bone" else draw(st.integers(1, 4))
    count = draw(st.integers(1, 6))
    values = {
        "rate_limit": st.none() | st.sampled_from((1.0, 5.0, 90.0)),
        "rate_deg": st.none() | st.sampled_from((2.0, 30.0)),
        "iterations": st.integers(1, 20), "tolerance": st.sampled_from((0.1, 0.5, 2.0)),
        "mirror": st.booleans(), "joint_limit": st.none() | st.sampled_from((0.0, 30.0, 120.0)),
        "pole": st.none() | st.tuples(st.floats(-50, 50), st.floats(-50, 50)),
        "softness": st.none() | st.sampled_from((0.0, 3.0)), "auto_bend": st.booleans(),
        "skin": st.sampled_from(("sprite", "lines")), "palette_index": st.integers(0, 7),
        "preferred_bones": st.none() | st.integers(1, 6),
    }
    present = draw(st.sets(st.sampled_from(KEYS)))
    chosen = draw(st.sets(st.sampled_from(sorted(present)))) if present else set()
    shared = {k: draw(values[k]) for k in chosen}
    kws = []
    for k in range(count):
        kw = {"solver": solver, "root": (3.0 * k, 40.0), "target": (draw(st.floats(-80, 80)), 10.0),
              "lengths": draw(st.lists(st.sampled_from((5.0, 8.0)), min_size=n, max_size=n)),
              "angles": draw(st.lists(st.floats(-7, 7), min_size=n, max_size=n))}
        kw.update({key: draw(values[key]) for key in present if key not in shared}, **shared)
        kws.append(kw)
    return solver, n, kws, shared


@given(batches())
@settings(max_examples=60)
def test_chains_from_columns_and_shared_values_are_the_chains_made_one_by_one(batch):
    solver, n, kws, shared = batch
    cols = build_batch.as_columns([{k: v for k, v in kw.items() if k not in shared} for kw in kws])
    _, made = build_batch.ik_columns(solver, n, len(kws), cols, shared)
    same_chains(made, [build_batch.ik_group(solver, n, [kw])[1][0] for kw in kws])  # one at a time
