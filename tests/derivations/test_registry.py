"""Registry integrity: unique ids, sources, provenance of every public numeric function."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import derivations
import numeric

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def test_ids_unique_and_sources_cited():
    ids = [c.id for c in derivations.claims()]
    assert len(ids) == len(set(ids))
    for c in derivations.claims():
        assert re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt", c.source.document), c.id
        assert c.source.location.strip(), c.id
        if SEEDS.is_dir():
            assert (SEEDS / c.source.document).is_file(), c.source.document


def test_every_public_numeric_function_names_existing_claims():
    ids = {c.id for c in derivations.claims()}
    assert numeric.__all__
    for name in numeric.__all__:
        fn = getattr(numeric, name)
        claims = getattr(fn, "__claims__", None)
        assert claims, f"numeric.{name} has no provenance"
        assert set(claims) <= ids, f"numeric.{name} names unknown claims {set(claims) - ids}"
        doc = inspect.getdoc(fn)
        papers = {derivations.get(c).source.paper.short for c in claims}
        assert doc and any(p in doc for p in papers), f"numeric.{name} must cite its paper by short name"


def test_every_formula_names_existing_claims():
    ids = {c.id for c in derivations.claims()}
    for f in derivations.formulas():
        assert set(f.claims) <= ids, f.name


def test_derivations_does_not_import_numpy_or_numeric():
    import subprocess
    import sys

    code = "import sys, derivations; print('numpy' in sys.modules, 'numeric' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
