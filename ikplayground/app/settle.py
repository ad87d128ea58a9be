"""Settling a new scene: after its first frame, its objects moved out of the cyclic garbage collector's way.

After the first frame of a new scene of ``SETTLE_CHAINS`` chains or more (its
groups, caches and per-chain records made), the garbage is collected once and
every object alive is moved out of the collector's way (``gc.freeze``): a
scene's chains live long, and without this each full collection, which the
renderer's per-frame lists of points set off about once a frame, walks all of
them (5,000 loaded chains: 110 ms a frame, 63 frozen). The next new scene
unfreezes first, so nothing frozen is kept once it is garbage. (A collection
costs a quarter of a second: small scenes, which gain nothing, skip it.)
"""

from __future__ import annotations

import gc

SETTLE_CHAINS = 1000  # scenes this big get their objects frozen after their first frame


def settle(chains: int) -> None:
    """After the first frame of a new scene of ``chains`` chains: unfreeze what an earlier freeze kept
    (a dropped scene, a rebuilt panel may be garbage now), then, for a big scene, collect and freeze."""
    gc.unfreeze()
    if chains >= SETTLE_CHAINS:
        gc.collect()
        gc.freeze()
