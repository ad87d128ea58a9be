"""Where the data files live: ``assets/`` beside the package in a checkout, mapped into it as
``ikplayground/assets`` by a plain install (pyproject.toml's ``package-dir``)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_INSTALLED = _PACKAGE / "assets"  # a plain install: mapped into the package
_CHECKOUT = _PACKAGE.parent / "assets"  # a clone's folder or an editable install


def assets_dir() -> Path:
    """The assets folder: the installed copy (known by its theme file) where there is one, else the checkout's."""
    return _INSTALLED if (_INSTALLED / "theme.json").is_file() else _CHECKOUT


def asset_path(name: str) -> Path:
    """Path of ``name`` (e.g. ``"scenes/default.json"``) in the assets; FileNotFoundError if missing."""
    path = assets_dir() / name
    if not path.is_file():
        raise FileNotFoundError(f"asset not found: {name}")
    return path
