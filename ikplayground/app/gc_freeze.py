"""Settling a new big scene (``SETTLE_CHAINS`` chains or more): its objects are frozen out of the cyclic garbage
collector's way (``gc.freeze``) as it is shown (:func:`hold`) and after its first frame (:func:`settle`); a
smaller scene's first frame unfreezes all. Figures in docs/performance.md."""

from __future__ import annotations

import gc

SETTLE_CHAINS = 1000  # scenes this big get their objects frozen as they are shown and after their first frame


def hold(chains: int) -> None:
    """A new scene of ``chains`` chains is about to be shown: for a big one, freeze all alive now."""
    if chains >= SETTLE_CHAINS:
        gc.freeze()


def settle(chains: int) -> None:
    """After a new scene's first frame: unfreeze, then, for a big scene, freeze all alive."""
    gc.unfreeze()
    if chains >= SETTLE_CHAINS:
        gc.freeze()
