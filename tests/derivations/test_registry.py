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


def test_every_id_names_the_package_that_registers_it():
    """``derivations.get`` builds only the package that the id's prefix names (derivations.PREFIXES): every
    claim, erratum, reading and finding must be registered by that package.  Control: an id of another
    prefix is not found, and finding that out builds no package."""
    import subprocess
    import sys

    for items in (derivations.claims(), derivations.errata(), derivations.readings(), derivations.findings()):
        for item in items:
            package = next((p for prefix, p in derivations.PREFIXES.items() if item.id.startswith(prefix)), None)
            assert package is not None, item.id
            assert _PACKAGE_OF_DOCUMENT[item.source.document] == package, item.id
    code = ("import sys, derivations\n"
            "try:\n    derivations.get('nosuch.claim')\nexcept KeyError:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('derivations.') and '.engine' not in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['derivations.papers']"
    code = "import sys, derivations; derivations.get('pd.hm.query_tail'); print('derivations.log_laplace' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"                       # one claim of 001 builds 001's package alone


#: The package that encodes each source document.
_PACKAGE_OF_DOCUMENT = {"000_3f4b38deb4c4e7bd.txt": "ht_mechanism", "001_1dd3d7af6edcb71d.txt": "private_deciles",
                        "002_89b9dd341c0215c2.txt": "shlomo_skinner", "003_6dfa2dbc38b4b249.txt": "k_randomization",
                        "004_005a37d6f70bd1b7.txt": "log_laplace"}


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


def test_every_weak_verdict_says_why_a_general_proof_is_out_of_reach(all_verdicts):
    """A claim left ARGUED or CHECKED carries ``limitation`` (one sentence: why no general proof), and a
    proved claim carries none (a stale reason would misinform).  Control: a claim checked only on a finite
    scope is refused without a reason and accepted with one; a proved claim with a reason is refused."""
    import sympy as sp

    from derivations.engine.core import Claim, Enumeration, Source, verify_inline
    from derivations.engine.proofs import conclude
    from derivations.engine.report import unexplained_weak

    x = sp.Symbol("x", positive=True)
    scope = lambda: Enumeration(True, 3, "three cases", scope="x in {1, 2, 3}")   # noqa: E731
    base = dict(title="", source=Source("test", "registry"), kind="inequality", lhs=x, rhs=0, relation=">=")
    checked = Claim(id="t.checked", enumeration=scope, **base)
    explained = Claim(id="t.explained", enumeration=scope, limitation="the statement is tried on three points only",
                      **base)
    proved = Claim(id="t.proved", proof=lambda c: conclude(c), limitation="a stale reason", **base)
    verdicts = {c.id: verify_inline(c) for c in (checked, explained, proved)}
    assert verdicts["t.checked"].label.startswith("CHECKED") and verdicts["t.proved"].label == "PROVED"
    assert unexplained_weak([checked, explained, proved], verdicts) == ["t.checked", "t.proved"]
    assert unexplained_weak(derivations.claims(), all_verdicts) == []
