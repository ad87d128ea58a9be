"""Where the data files live: the top-level ``assets/`` folder (the theme, the bone sprite, the preset scenes).

In a checkout (a clone's folder, or an editable install) the folder sits beside
the package; a plain ``pip install .`` maps it into the package as
``ikplayground/assets`` (``pyproject.toml``'s ``package-dir``). Either way it is
found from the package's own location, whatever the current directory.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_INSTALLED = _PACKAGE / "assets"  # a plain install: mapped into the package
_CHECKOUT = _PACKAGE.parent / "assets"  # a clone's folder or an editable install


def assets_dir() -> Path:
    """The folder holding the data files: the installed copy where there is one, else the checkout's.

    The installed copy is known by its theme file, not by the folder alone: a checkout updated from
    before the move may still hold an ``ikplayground/assets/`` of nothing but ``__pycache__``.
    """
    return _INSTALLED if (_INSTALLED / "theme.json").is_file() else _CHECKOUT


def asset_path(name: str) -> Path:
    """Path of a file in the assets, whatever the current directory.

    Parameters
    ----------
    name : str
        File name relative to the assets folder, e.g. ``"theme.json"`` or ``"scenes/default.json"``.

    Raises
    ------
    FileNotFoundError
        No such file in the assets.
    """
    path = assets_dir() / name
    if not path.is_file():
        raise FileNotFoundError(f"asset not found: {name}")
    return path
