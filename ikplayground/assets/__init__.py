"""Data files of ikplayground (the pygame_gui theme and the bone sprite).

The folder sits inside the package so that it is found the same way from a
source checkout, an editable install and a plain install; code reaches it
through :func:`ikplayground.resources.asset_path`. This file holds no code.
"""
