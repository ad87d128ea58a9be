"""The window: main loop, input to commands, drawing, panels. The only layer that imports pygame."""
