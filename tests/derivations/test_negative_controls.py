"""Negative controls on every registered claim: change the statement, and it is no longer proved.

For each claim that is expected to hold and is proved symbolically (by its proof routine, or by the
engine's own check of an identity, limit or divergence) or exhaustively (a finite statement), a copy
with a false statement is verified with the same proof routine or enumeration: an identity gets the right-hand side 2 rhs + 1, an inequality or sign
claim the reversed relation (false wherever the claim is true).  The copy must not be PROVED in any
form.  This is what ties every proof to the statement shown to the reader: a routine that checks a
side computation would prove the changed statement too.
"""
from __future__ import annotations

import os

import pytest

import derivations
from derivations.engine import core

from _shared_once import shared_once

CONTROLLED = [c for c in derivations.claims()
              if c.expected and (c.proof is not None or c.finite
                                 or (c.kind in ("identity", "limit", "divergence") and c.enumeration is None))]


@pytest.fixture(scope="module")
def mutated_verdicts(tmp_path_factory):
    """{claim id: verdict of its mutated copy}, verified in parallel with the claims' own time budgets (once
    per run, also when the tests are spread over several worker processes)."""
    return shared_once("mutated_verdicts", _verify_mutated, tmp_path_factory)


def _verify_mutated():
    copies = []
    for c in CONTROLLED:
        m = c.mutated()
        m.numeric_points = 0
        if not c.finite:
            m.enumeration = None   # the control is on the proof; an exhaustive check of a finite claim is kept
        copies.append(core.register(m))
    try:
        verdicts = derivations.verify_many(copies, jobs=max(1, os.cpu_count() or 1))
    finally:
        for m in copies:
            del core._CLAIMS[m.id]
    return {v.claim_id.removesuffix(".mutated"): v for v in verdicts}


def test_every_kind_of_proved_claim_is_controlled():
    assert len(CONTROLLED) >= 100
    assert {c.kind for c in CONTROLLED} >= {"identity", "sign", "inequality"}


@pytest.mark.parametrize("claim_id", [c.id for c in CONTROLLED])
def test_a_changed_statement_is_not_proved(claim_id, mutated_verdicts):
    v = mutated_verdicts[claim_id]
    assert not v.proved, f"{claim_id}: the mutated statement got {v.label}: " + "; ".join(c.detail for c in v.checks)
