"""What the playground shows of the math, without a window: overlay geometry as draw primitives, live metrics,
the step-through, the solver race and the two-bone joint-space map. Pure numpy and the scene model, no pygame;
pixels with y down, radians (docs/design.md)."""
