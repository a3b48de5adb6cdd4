"""Provenance of archived outputs, the citation files and the BibTeX records of the sources."""
from __future__ import annotations

import json
import re
import sys
from importlib import metadata
from pathlib import Path

import sympy as sp

import derivations
from derivations.engine import provenance as prov
from derivations.engine.core import Check, Claim, Source, Verdict
from derivations.engine.report import json_report
from derivations.engine.store import Store

ROOT = Path(__file__).resolve().parents[1]
FIELDS = {"dpderive", "commit", "modified", "python", "sympy", "mpmath", "numpy", "date"}


def test_provenance_names_the_versions_that_computed():
    p = prov.provenance()
    assert set(p) == FIELDS
    assert p["python"] == ".".join(map(str, sys.version_info[:3]))
    assert p["sympy"] == sp.__version__ and p["numpy"] == metadata.version("numpy")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", p["date"])
    if (ROOT / ".git").exists():
        assert re.fullmatch(r"[0-9a-f]{40}", p["commit"])
    line = prov.provenance_line(p)
    assert p["sympy"] in line and p["date"] in line


def test_the_json_report_and_the_store_record_their_provenance(tmp_path):
    c = derivations.get("laplace.pdf_normalised")
    v = Verdict(c.id, True, [Check("symbolic", True, 0.1, "x", strength="mechanical")])
    assert set(json_report({c.id: v})["provenance"]) == FIELDS
    store = Store(str(tmp_path / "results.json"))
    store.put([c], [v])
    store.save()
    assert set(json.loads((tmp_path / "results.json").read_text())["provenance"]) == FIELDS


def test_license_and_citation_files():
    text = (ROOT / "LICENSE").read_text()
    assert "BSD 3-Clause License" in text and "Neither the name of the copyright holder" in text
    cff = (ROOT / "CITATION.cff").read_text()
    assert "cff-version: 1.2.0" in cff and "license: BSD-3-Clause" in cff
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    assert f"version: {version}" in cff


def test_bibtex_records_what_each_document_prints_and_says_what_is_missing():
    for p in derivations.all_papers():
        entry = p.bibtex()
        assert entry.startswith(f"@misc{{{p.short},") and entry.rstrip().endswith("}")
        assert entry.count("{") == entry.count("}")
        assert ("author = {" in entry) == bool(p.authors)
        if not p.authors:
            assert "Author" in entry and "not printed" in entry
        if p.date:
            assert f"year = {{{p.year}}}" in entry
        else:
            assert "date" in entry.lower() and "not printed" in entry
    k = derivations.paper_of("003_6dfa2dbc38b4b249.txt").bibtex()
    assert "author = {Zhilyaev, Maxim and Zeber, David}" in k and "year = {2016}" in k
