"""A group: chains of one solver and bone count whose numbers share arrays.

Each field of the group is one array with a leading axis of N chains (for
example ``root`` of shape (N, 2), ``angles`` of shape (N, n)); each member's
fields become views of its row, so one batched solver call steps the whole
group and every chain sees the result without copying.
"""

from __future__ import annotations

import numpy as np

from .chain import Chain


class Group:
    """Chains of one solver and bone count, their fields stacked into arrays."""

    def __init__(self, solver: str, members: list[Chain]):
        self.solver = solver
        self.members = members
        names = members[0].fields.keys()
        self.fields = {name: np.stack([c.fields[name] for c in members]) for name in names}
        for row, chain in enumerate(members):
            chain.fields = {name: arr[row] for name, arr in self.fields.items()}
