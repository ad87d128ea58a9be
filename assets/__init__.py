"""Data files of ikplayground (theme, sprites, presets), found with importlib.resources.

This file only makes the folder importable as ``ikplayground.assets``; it holds no code.
"""
