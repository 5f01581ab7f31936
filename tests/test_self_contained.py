"""The repository explains itself: code and docs cite files of ``docs/``, never
a file outside the repository, and every cited doc (and section) exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: Folders and top-level files whose text is checked.
SCANNED_DIRS = ("engine", "app", "plugins", "tests", "bench", "docs", "scripts", "resources", ".ci")
SCANNED_FILES = ("README.md", "CHANGELOG.md", "Makefile", "pyproject.toml")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".wbt", ".sh", ".cfg", ".ini", ".json", ".yml",
                 ".yaml", ""}
SKIPPED_PARTS = {"__pycache__", ".numba_cache", ".venv", ".pytest_cache"}

#: Files outside the repository that code and docs once cited (split so that
#: this file does not name them itself).
OUTSIDE = ("DESIGN" + ".md", "webots" + "-facts", "../" + "shared", "/work/" + "shared",
           "ode_ref" + " README", "ode_ref" + " quirk")

#: ``docs/<name>.md`` (optionally followed by ``, "Section"``) in code and docs.
DOC_CITATION = re.compile(r'\bdocs/((?:[\w-]+/)*[\w.-]+\.md)(?:,\s+"([^"]+)")?')
#: Relative Markdown links inside docs: ``](x.md)`` or ``](../x.md#anchor)``.
MD_LINK = re.compile(r"\]\(((?:\.\./|[\w-]+/)*[\w.-]+\.md)(#[\w-]*)?\)")


def _scanned_files() -> list[Path]:
    files = [REPO / name for name in SCANNED_FILES if (REPO / name).is_file()]
    for folder in SCANNED_DIRS:
        for path in sorted((REPO / folder).rglob("*")):
            if (path.is_file() and path.suffix in TEXT_SUFFIXES
                    and not SKIPPED_PARTS.intersection(path.parts)):
                files.append(path)
    return files


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ""


def _headings(doc: Path) -> list[str]:
    return [line.lstrip("#").strip() for line in _text(doc).splitlines() if line.startswith("#")]


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.lower())
    return text.replace(" ", "-")


def test_the_scan_covers_the_repository():
    names = {p.relative_to(REPO).as_posix() for p in _scanned_files()}
    assert "docs/simulation.md" in names and "engine/sim/simulation.py" in names
    assert "Makefile" in names and len(names) > 300


def test_no_file_cites_a_file_outside_the_repository():
    found = []
    for path in _scanned_files():
        for n, line in enumerate(_text(path).splitlines(), 1):
            for banned in OUTSIDE:
                if banned in line:
                    found.append(f"{path.relative_to(REPO)}:{n}: {banned}")
    assert found == []


def test_cited_docs_and_sections_exist():
    missing = []
    for path in _scanned_files():
        for n, line in enumerate(_text(path).splitlines(), 1):
            for m in DOC_CITATION.finditer(line):
                doc = REPO / "docs" / m.group(1)
                where = f"{path.relative_to(REPO)}:{n}"
                if not doc.is_file():
                    missing.append(f"{where}: docs/{m.group(1)}")
                elif m.group(2) and not any(m.group(2) in h for h in _headings(doc)):
                    missing.append(f'{where}: docs/{m.group(1)}, "{m.group(2)}"')
    assert missing == []


@pytest.mark.parametrize("doc", sorted((REPO / "docs").rglob("*.md")),
                         ids=lambda p: p.relative_to(REPO).as_posix())
def test_links_between_docs_resolve(doc):
    broken = []
    for n, line in enumerate(_text(doc).splitlines(), 1):
        for m in MD_LINK.finditer(line):
            target = (doc.parent / m.group(1)).resolve()
            if not target.is_file():
                broken.append(f"{n}: {m.group(1)}")
            elif m.group(2) and m.group(2)[1:] not in {_anchor(h) for h in _headings(target)}:
                broken.append(f"{n}: {m.group(1)}{m.group(2)}")
    assert broken == []
