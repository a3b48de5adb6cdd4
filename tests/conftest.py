"""Shared fixtures: every claim is verified once per test session (in parallel, with budgets)."""
from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def all_verdicts():
    """{claim id: Verdict} for every registered claim, verified with the time budgets of the CLI."""
    import derivations

    verdicts = derivations.verify_many(derivations.claims(), jobs=max(1, os.cpu_count() or 1))
    return {v.claim_id: v for v in verdicts}
