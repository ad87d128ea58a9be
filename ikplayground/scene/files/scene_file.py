"""Scene files: format version 1 of docs/scene-format.md, read with full validation, written atomically.

JSON people can read and edit: positions in stage pixels (y down), angles in
degrees. Loading returns a complete new :class:`Scene` or raises
:class:`SceneFileError` (``scene.json: chains[2].lengths[1]: must be > 0 (got -5)``),
never anything else, at a cost bounded by checks on the raw bytes. Saving
first proves that the very bytes it writes will load again.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re

from ikplayground.scene.core.scene import Scene
from ikplayground.scene.files.atomic_write import write_atomically
from ikplayground.scene.files.capped_read import limit_text, read_capped, size_text
from ikplayground.scene.files.file_decode import build_chains, read_document
from ikplayground.scene.files.file_errors import SceneFileError, shown, shown_name
from ikplayground.scene.files.file_format import (BUDGETS, FORMAT, MAX_CHAIN_BYTES, MAX_COORD, MAX_FILE_BYTES, VERSION,
                                                  chain_to_dict, doc_to_text, scene_to_dict, scene_to_text)
from ikplayground.scene.files.json_scan import MAX_DEPTH
from ikplayground.scene.files.strict_json import MAX_INT_DIGITS

__all__ = [
    "BUDGETS", "FORMAT", "MAX_CHAIN_BYTES", "MAX_COORD", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_INT_DIGITS", "VERSION",
    "SceneFileError", "chain_to_dict", "load_scene", "parse_scene", "save_scene", "scene_to_dict", "scene_to_text",
    "shown_name",
]
_BOM = "\ufeff"
_JSON_STARTS = [bytes([c]) for c in b'{["-0123456789tfnNI']
_NOT_SPACE = re.compile(rb"[^ \t\n\r\x0b\x0c]")


def _read(raw: bytes, text: str | None, name: str):
    """The document ``raw`` (its text ``text``, decoded if None) read and checked."""
    first = _NOT_SPACE.search(raw)  # Unicode whitespace too (as str.strip): decode only when it may matter
    if not first or (first.group() not in _JSON_STARTS and not raw.decode("utf-8", "surrogatepass").strip()):
        raise SceneFileError(f"{name}: the file is empty")
    return read_document(raw, name, text)


@contextlib.contextmanager
def _no_cycle_collection():
    """Pause the cyclic garbage collector (a large scene makes millions of objects in no cycle)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _parse(raw: bytes, text: str | None, name: str, stage) -> Scene:
    with _no_cycle_collection():
        doc = _read(raw, text, name)
        chains = build_chains(doc.specs, name)
    scene = Scene(stage, terrain=doc.terrain, seed=doc.seed)
    scene.view = doc.view
    scene.set_obstacles(doc.obstacles)  # checked as they were read
    for chain, (number, chain_name) in zip(chains, doc.idents):
        chain.number, chain.name = number, chain_name
    # a chain without a number in the file gets one past the file's highest
    scene.next_number = max((number for number, _ in doc.idents), default=0) + 1
    scene.add_in_turn(chains)
    scene.select(scene.chains[0] if scene.chains else None)
    return scene


def parse_scene(text: str, name: str = "scene", stage=(980.0, 720.0)) -> Scene:
    """Build a scene from the text of a scene file (see :func:`load_scene`; ``name`` names it in messages)."""
    text = text.removeprefix(_BOM)  # a byte order mark, as some editors write: harmless
    return _parse(text.encode("utf-8", "surrogatepass"), text, shown(name), stage)


def load_scene(path, stage=(980.0, 720.0)) -> Scene:
    """Read and validate a scene file.

    Raises
    ------
    SceneFileError
        For anything that makes the file unusable (missing, not a regular
        file, too large, not JSON, too deep, too many values, not version 1, a
        bad value); the message starts with the file's name (escaped) and names
        the place. Nothing else is raised.
    """
    try:
        name = shown_name(path)
    except TypeError as e:
        raise SceneFileError(f"{shown(repr(path))}: not a file name ({e})") from None
    data = read_capped(path, name, MAX_FILE_BYTES)
    try:
        data.decode("utf-8")  # only to check it: the text is decoded again if it has to be parsed whole
    except UnicodeDecodeError as e:
        raise SceneFileError(f"{name}: not UTF-8 text (bad byte at offset {e.start})") from None
    return _parse(data.removeprefix(_BOM.encode("utf-8")), None, name, stage)


def save_scene(scene: Scene, path) -> None:
    """Write ``scene`` to ``path`` so that it loads again, atomically (temporary file, fsync, rename).

    Raises
    ------
    ValueError
        A value the loader would refuse (NaN, a position past +-1,000,000),
        named by its place; nothing is written.
    OSError
        See :func:`~.atomic_write.write_atomically`: the old file is left as it
        was and no temporary file is left behind.
    """
    with _no_cycle_collection():
        data = (doc_to_text(scene_to_dict(scene)) + "\n").encode("utf-8")
        try:  # the very bytes that will be written, read as a load reads them
            read_document(data, "")
        except SceneFileError as e:
            raise ValueError(f"{e}: a file holding it would not load again") from None
    if len(data) > MAX_FILE_BYTES:  # the bound makes this impossible; never write what cannot load
        raise ValueError(f"the scene would take {size_text(len(data))}, over {limit_text(MAX_FILE_BYTES)}")
    write_atomically(os.fspath(path), data)
