"""The README is a landing page and the manual in docs/ holds together.

The README stays short (at most 150 lines), keeps the two set-up lines where
``.ci/run`` reads them (the indented line right after each marker), and its
library example runs. Every relative link and image in README.md and
docs/*.md points to a file that exists, and a link to a heading (``#anchor``)
to a heading that exists. The examples of docs/solvers.md run too.
"""

from __future__ import annotations

import contextlib
import io
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
MAX_README_LINES = 150

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", flags=re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", flags=re.M)


def prose(text: str) -> str:
    """``text`` without fenced code blocks and code spans, where a bracket is no link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text: str) -> list[str]:
    """The targets of the Markdown links and images of ``text``."""
    return LINK.findall(prose(text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a Markdown page (a repeated heading's as GitHub numbers it: -1, -2...)."""
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)


# --- the checks' own checks: each finds what it must ------------------------------------------
def test_the_link_finder_sees_links_and_images_and_skips_code():
    text = ("See [the guide](docs/guide.md#the-window) and ![a picture (of it)](docs/a.png \"title\").\n"
            "[x [y]](b.md) `[not](a-link.md)`\n```text\n[nor](this.md)\n```\n")
    assert links(text) == ["docs/guide.md#the-window", "docs/a.png", "b.md"]


def test_the_anchors_are_github_s():
    text = "# ikplayground: design and conventions\n## The solver API (public and stable: users import it)\n" \
           "## Layout\n## Layout\n```\n# not a heading\n```\n"
    assert anchors(text) == {"ikplayground-design-and-conventions",
                             "the-solver-api-public-and-stable-users-import-it", "layout", "layout-1"}


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_the_link_finder_finds_every_link_of_every_page(page):
    text = prose(page.read_text(encoding="utf-8"))
    assert len(links(text)) == text.count("]("), f"{page.name}: a link the finder does not read"


# --- the README -------------------------------------------------------------------------------
def test_the_readme_is_a_landing_page_of_at_most_150_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines; the manual's place is docs/"


@pytest.mark.parametrize("marker", ["run-command", "test-command"])
def test_each_set_up_marker_is_right_before_its_indented_command(marker):
    lines = README.read_text(encoding="utf-8").splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith(f"<!-- {marker}:")]
    assert len(at) == 1, f"README.md has {len(at)} '<!-- {marker}:' markers; .ci/run reads the first"
    command = lines[at[0] + 1] if at[0] + 1 < len(lines) else ""
    assert command.startswith("    ") and command.strip(), (
        f"the line after the {marker} marker must be the indented command .ci/run runs, not {command!r}")
    assert command.strip().startswith("pip install")


def test_the_readme_example_is_about_ten_lines_of_the_public_solvers_and_runs():
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) == 1
    code = blocks[0]
    assert len([line for line in code.splitlines() if line.strip()]) <= 10
    assert "from ikplayground.solvers import" in code
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert "reached" in printed.getvalue() and "True" in printed.getvalue()


def test_the_readme_links_every_page_of_the_manual():
    targets = {t.split("#")[0] for t in links(README.read_text(encoding="utf-8"))}
    for page in PAGES[1:]:
        assert f"docs/{page.name}" in targets, f"README.md does not link docs/{page.name}"


# --- every page ---------------------------------------------------------------------------------
@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_points_to_a_file_and_heading_that_exist(page):
    text = page.read_text(encoding="utf-8")
    found = links(text)
    broken = []
    for target in found:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I):  # https:, mailto:...: not a file
            continue
        path, _, anchor = target.partition("#")
        assert not path.startswith("/"), f"{page.name}: {target} is an absolute path"
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or ROOT not in (file, *file.parents):
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, f"{page.relative_to(ROOT)}:\n" + "\n".join(broken)


def test_the_solvers_page_examples_run():
    blocks = python_blocks((ROOT / "docs" / "solvers.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, "docs/solvers.md", "exec"), {})
