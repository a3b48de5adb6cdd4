"""The README and the guides tell the truth about the registry: the errata tables of the guides list every
registered erratum exactly once, the counts the README prints are the registry's, and the README stays
short (at most 250 lines, the rest in ``docs/``).  Reference: the registry (``derivations.errata()``,
``readings()``, ``findings()``, ``claims()``), read independently of the pages' text."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import derivations

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
GUIDES = "\n".join(p.read_text() for p in sorted((ROOT / "docs").rglob("*.md")))


def _erratum_rows(text: str) -> Counter:
    """Ids in the first column of the rows of every table headed ``| erratum | ...``."""
    ids: Counter = Counter()
    for table in re.findall(r"^\| erratum \|.*\n\|[-| ]+\|\n((?:\|.*\n)+)", text, flags=re.M):
        for row in table.splitlines():
            m = re.match(r"\| `([^`]+)` \|", row)
            assert m, f"a row of an errata table without an id: {row!r}"
            ids[m.group(1)] += 1
    return ids


def test_errata_tables_list_every_erratum_once():
    rows = _erratum_rows(README + "\n" + GUIDES)
    registered = Counter(e.id for e in derivations.errata())
    assert rows == registered, (sorted((rows - registered).elements()), sorted((registered - rows).elements()))


def test_errata_table_parser_catches_a_double_row_and_a_split_table():
    """Negative controls: a row listed twice is counted twice; a row cut off from its table by a blank
    line (which Markdown renders as a stray paragraph) is not counted."""
    table = "| erratum | printed | correct |\n|---|---|---|\n| `a.b` | x | y |\n"
    assert _erratum_rows(table + "| `a.b` | x | y |\n") == Counter({"a.b": 2})
    assert _erratum_rows(table + "\n| `c.d` | x | y |\n") == Counter({"a.b": 1})


def test_counts_printed_in_the_quick_start_are_the_registry_s():
    flat = " ".join(README.split())
    assert f"Of its {len(derivations.claims())} claims" in flat
    assert f"{len(derivations.errata())} printed statements are REFUTED" in flat
    assert f"{len(derivations.readings())} readings and {len(derivations.findings())} findings" in flat


def test_the_readme_is_short_and_links_every_guide():
    assert len(README.splitlines()) <= 250
    for page in sorted((ROOT / "docs").rglob("*.md")):
        if page.name != "index.md":
            assert f"(docs/{page.relative_to(ROOT / 'docs').as_posix()})" in README, page
