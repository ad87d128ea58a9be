"""Settling a new scene: its objects moved out of the cyclic garbage collector's way, as it is shown and
again after its first frame.

A scene's chains live long, and without this each full collection walks all of them and every
other object of the App. So a new scene of ``SETTLE_CHAINS`` chains or more has every object
alive moved out of the collector's way (``gc.freeze``) as soon as it is shown (:func:`hold`: its
first frame walks only what is new), and again after its first frame (:func:`settle`: its
groups, caches and per-chain records made by then). ``gc.freeze`` costs nothing however many
objects there are; no collection runs first (a full one costs more than the stress test's whole
first frame). What garbage it freezes stays until a small scene unfreezes it: only reference
cycles are garbage the collector must find (a dropped scene has none and is freed at once), a
few small text-layout objects of the panel per big scene. The first frame of a scene smaller
than ``SETTLE_CHAINS`` unfreezes all. (The figures behind this are in ``docs/performance.md``.)
"""

from __future__ import annotations

import gc

SETTLE_CHAINS = 1000  # scenes this big get their objects frozen as they are shown and after their first frame


def hold(chains: int) -> None:
    """A new scene of ``chains`` chains is about to be shown: for a big scene, freeze all that is alive now."""
    if chains >= SETTLE_CHAINS:
        gc.freeze()


def settle(chains: int) -> None:
    """After the first frame of a new scene of ``chains`` chains: unfreeze what an earlier freeze kept
    (a dropped scene, a rebuilt panel may be garbage now), then, for a big scene, freeze all alive."""
    gc.unfreeze()
    if chains >= SETTLE_CHAINS:
        gc.freeze()
