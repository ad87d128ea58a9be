"""What the playground shows of the math, without a window.

Pure numpy and the scene model, no pygame: the geometry of the stage overlays
as draw primitives (:mod:`.primitives`), which ``app/`` turns into pixels, as
pymunk's debug drawing hands shapes to a draw adapter; the live metrics of a
chain, the step-through of a solve, the solver race and the two-bone arm's
joint-space map. Pixels with y down, radians (docs/design.md).
"""
