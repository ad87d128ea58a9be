"""Where the package's data files live: ``ikplayground/assets/``, the package ``ikplayground.assets``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def asset_path(name: str) -> Path:
    """Path of a file in the shipped assets, whatever the current directory.

    Parameters
    ----------
    name : str
        File name relative to the assets folder, e.g. ``"theme.json"``.
    """
    ref = resources.files("ikplayground.assets").joinpath(name)
    path = Path(str(ref))
    if not path.exists():
        raise FileNotFoundError(f"asset not found: {name}")
    return path
