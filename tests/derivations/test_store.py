"""The results store (derivations.engine.store): verdicts written by ``verify`` and read back by
``latex``, ``show`` and ``summary``.  References: verdicts computed here, in this process, on real
claims of every label; a stored verdict must read back with the same label, ok, strength, method,
citations and checks, and must not be reused once its claim, the code or the versions change."""
from __future__ import annotations

import dataclasses
import json

import pytest

import derivations
from derivations.engine import store
from derivations.engine.core import Check, Verdict
from derivations.engine.store import (CLAIM_CHANGED, CODE_CHANGED, FRESH, NOT_STORED, UNREADABLE, Store,
                                      fingerprint, verdict_from_dict, verdict_modules, verdict_to_dict)

# one fast claim per label (and a claim with a numeric check: points, digits, worst error)
SAMPLE = {"ht.indicator_square": "PROVED (exhaustive)", "puff.b2.sup": "ARGUED",
          "pd.unif.theorem": "CHECKED (finite scope", "htm.r2.not_pure.printed": "REFUTED",
          "puff.s44.mc_variance_bound": "PROVED (with citations)", "htm.r2.tight": "PROVED",
          "log_laplace.variance_stable": "PROVED"}


@pytest.fixture(scope="module")
def sample():
    claims = [derivations.get(i) for i in SAMPLE]
    verdicts = {c.id: derivations.verify(c.id) for c in claims}
    for cid, label in SAMPLE.items():
        assert verdicts[cid].label.startswith(label), (cid, verdicts[cid].label)
    return claims, verdicts


def _same(v: Verdict, w: Verdict) -> None:
    assert (w.claim_id, w.label, w.ok, w.holds, w.strength, w.method, w.citations, w.counterexample) == \
        (v.claim_id, v.label, v.ok, v.holds, v.strength, v.method, v.citations, v.counterexample)
    assert w.as_dict() == v.as_dict() and w.checks == v.checks


def test_round_trip_through_json_keeps_every_field(sample):
    claims, verdicts = sample
    for v in verdicts.values():
        _same(v, verdict_from_dict(json.loads(json.dumps(verdict_to_dict(v)))))
    numeric = verdicts["log_laplace.variance_stable"].checks
    assert any(c.method == "numeric" and c.points and c.dps and c.worst_error for c in numeric)
    cited = verdicts["puff.s44.mc_variance_bound"]
    assert cited.citations and verdict_from_dict(verdict_to_dict(cited)).citations == cited.citations


def test_round_trip_of_an_undecided_verdict():
    v = Verdict("x.y", True, [Check("symbolic", False, 60.1, "stopped after the time budget of 60 s", error=True)])
    w = verdict_from_dict(json.loads(json.dumps(verdict_to_dict(v))))
    assert w.label == v.label == "ERROR" and not w.ok and w.checks == v.checks


def test_a_malformed_record_is_refused():
    with pytest.raises(ValueError):
        verdict_from_dict({"claim_id": "x", "expected": True, "checks": [{"method": "symbolic", "bogus": 1}]})
    with pytest.raises(ValueError):
        verdict_from_dict({"checks": []})


def test_store_reuses_current_verdicts_and_not_stale_ones(sample, tmp_path):
    claims, verdicts = sample
    path = str(tmp_path / "results.json")
    assert store.record(claims, list(verdicts.values()), path) == ""
    calls = []

    def verify(todo):
        calls.append([c.id for c in todo])
        return [verdicts[c.id] for c in todo]

    got = store.reuse(claims, verify, path)
    assert calls == [] and got.reused == len(claims) and got.verified == 0
    for c in claims:
        _same(verdicts[c.id], got.verdicts[c.id])
    assert got.message() == f"reused {len(claims)} stored verdicts ({path})"

    # a changed claim (same id, another statement) is stale: verified again, the others reused
    changed = dataclasses.replace(claims[1], rhs=claims[1].rhs + 1)
    assert changed.digest() != claims[1].digest()
    got = store.reuse([claims[0], changed], lambda todo: calls.append([c.id for c in todo]) or
                      [verdicts[c.id] for c in todo], path)
    assert calls == [[changed.id]] and got.reused == 1 and got.reasons == {CLAIM_CHANGED: 1}
    assert got.message().endswith("verified 1 (stale: claim changed)")


def test_fresh_and_missing_and_unreadable(sample, tmp_path):
    claims, verdicts = sample
    path = tmp_path / "results.json"

    def verify(todo):
        return [verdicts[c.id] for c in todo]

    got = store.reuse(claims[:2], verify, str(path))
    assert got.reused == 0 and got.reasons == {NOT_STORED: 2}
    assert store.reuse(claims[:2], verify, str(path)).reused == 2          # written back
    got = store.reuse(claims[:2], verify, str(path), fresh=True)
    assert got.reused == 0 and got.reasons == {FRESH: 2}
    got = store.reuse(claims[:3], verify, str(path))
    assert got.reused == 2 and got.reasons == {NOT_STORED: 1}
    assert "verified 1 (not stored)" in got.message()
    path.write_text("{not json")
    got = store.reuse(claims[:1], verify, str(path))
    assert got.reused == 0 and got.reasons == {UNREADABLE: 1} and "store unreadable" in got.message()


def test_another_fingerprint_makes_every_verdict_stale(sample, tmp_path, monkeypatch):
    claims, verdicts = sample
    path = str(tmp_path / "results.json")
    store.record(claims, list(verdicts.values()), path)
    monkeypatch.setattr(store, "fingerprint", lambda: "another engine")
    got = store.reuse(claims, lambda todo: [verdicts[c.id] for c in todo], path)
    assert got.reused == 0 and got.reasons == {CODE_CHANGED: len(claims)}
    assert "stale: code or versions changed" in got.message()


def test_a_tampered_verdict_is_not_reused(sample, tmp_path):
    """Negative control of the label check: a stored label that the stored checks do not give."""
    claims, verdicts = sample
    path = tmp_path / "results.json"
    store.record(claims, list(verdicts.values()), str(path))
    data = json.loads(path.read_text())
    data["verdicts"]["puff.b2.sup"]["label"] = "PROVED"      # the checks say ARGUED
    path.write_text(json.dumps(data))
    v, why = Store.load(str(path)).get(derivations.get("puff.b2.sup"))
    assert v is None and why == CLAIM_CHANGED


def test_default_location_and_environment(tmp_path, monkeypatch):
    monkeypatch.delenv(store.ENVIRONMENT, raising=False)
    assert store.default_path() == ".dpderive/results.json"
    monkeypatch.setenv(store.ENVIRONMENT, str(tmp_path / "r.json"))
    assert store.default_path() == str(tmp_path / "r.json")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(store.ENVIRONMENT)
    s = Store()
    s.save()
    assert (tmp_path / ".dpderive" / "results.json").is_file()
    assert (tmp_path / ".dpderive" / ".gitignore").read_text().splitlines()[-1] == "*"


def test_an_unwritable_store_is_reported_not_raised(sample, tmp_path):
    claims, verdicts = sample
    blocker = tmp_path / "file"
    blocker.write_text("")
    problem = store.record(claims[:1], [verdicts[claims[0].id]], str(blocker / "results.json"))
    assert problem.startswith(f"cannot write {blocker / 'results.json'}: ")


def test_fingerprint_covers_the_modules_that_make_verdicts():
    """The engine, the proof routines and the encodings are in (with the papers' notation and the renderer
    of expressions marked in proof steps, which the engine imports); the modules that only present
    verdicts (this store, the reports, the terminal's layout, the filters, the LaTeX documents) are out."""
    names = {p.relative_to(store.PACKAGE).as_posix() for p in verdict_modules()}
    for needed in ("__init__.py", "engine/__init__.py", "engine/core.py", "engine/proofs.py", "engine/citations.py",
                   "ht_mechanism/__init__.py", "log_laplace/__init__.py"):
        assert needed in names
    assert {"engine/store.py", "engine/report.py", "engine/terminal.py", "engine/select.py",
            "engine/latex.py", "engine/referee.py", "engine/provenance.py"}.isdisjoint(names)
    assert {"engine/notation.py", "engine/render.py", "engine/runner.py"} <= names


def test_fingerprint_follows_imports_of_a_package(tmp_path):
    """A toy package: editing an imported module changes the fingerprint, editing a module that
    nothing imports does not (negative control)."""
    pkg = tmp_path / "toy"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\nfrom .sub import b\n")
    (pkg / "a.py").write_text("def f():\n    from .sub.c import g\n    return g\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("X = 1\n")
    (pkg / "sub" / "c.py").write_text("def g(): return 1\n")
    (pkg / "view.py").write_text("from . import a\n")
    assert {p.relative_to(pkg).as_posix() for p in verdict_modules(pkg)} == \
        {"__init__.py", "a.py", "sub/__init__.py", "sub/b.py", "sub/c.py"}
    before = fingerprint(pkg)
    (pkg / "view.py").write_text("from . import a\nY = 2\n")
    assert fingerprint(pkg) == before
    (pkg / "sub" / "c.py").write_text("def g(): return 2\n")
    assert fingerprint(pkg) != before
