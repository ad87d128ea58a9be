"""A group: chains of one solver and bone count whose fields are views into shared arrays (leading axis N)."""

from __future__ import annotations

import numpy as np

from ikplayground.scene.core.chain import Chain


class Group:
    """Chains of one solver and bone count, their fields stacked into arrays."""

    def __init__(self, solver: str, members: list[Chain]):
        self.solver = solver
        self.members = members
        names = list(members[0].fields.keys())
        self.fields = {name: np.stack([c.fields[name] for c in members]) for name in names}
        rows = zip(*(list(arr) for arr in self.fields.values()))  # iterating an array gives its rows, as views
        for chain, views in zip(members, rows):
            chain.fields = dict(zip(names, views))

    @classmethod
    def of_arrays(cls, solver: str, members: list[Chain], fields: dict[str, np.ndarray]) -> Group:
        """The group of ``members`` whose fields are already views of the rows of ``fields`` (no copy)."""
        group = cls.__new__(cls)
        group.solver = solver
        group.members = members
        group.fields = fields
        return group


def grouped(chains: list[Chain]) -> dict[tuple, list[Chain]]:
    """``chains`` by :attr:`~.chain.Chain.group_key`, keys and members in order: the groups a scene makes."""
    by_key: dict[tuple, list[Chain]] = {}
    for c in chains:
        by_key.setdefault(c.group_key, []).append(c)
    return by_key
