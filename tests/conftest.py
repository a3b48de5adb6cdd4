"""Shared fixtures: every claim is verified once per test session (in parallel, with budgets)."""
from __future__ import annotations

import os

import pytest

from _shared_once import shared_once

# Property tests explore new random examples on every local run (that is how they find defects); on CI
# (CI=true) they draw the same examples every time, so that a submission's verdict does not depend on luck.
from hypothesis import settings as _hypothesis_settings

_hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    _hypothesis_settings.load_profile("ci")


def pytest_sessionstart(session):
    """Say, before the long silence, what the shared fixtures do (once, in the process that reports)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is not None:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("dpderive: the tests of claims first wait while one process verifies every claim, "
                            "then every proved claim's false variant, once for the whole run (a few minutes "
                            "of CPU; nothing is printed meanwhile)")


@pytest.fixture(scope="session")
def all_verdicts(tmp_path_factory):
    """{claim id: Verdict} for every registered claim, verified with the time budgets of the CLI (once per
    run, also when the tests are spread over several worker processes)."""
    import derivations

    def compute():
        verdicts = derivations.verify_many(derivations.claims(), jobs=max(1, os.cpu_count() or 1))
        return {v.claim_id: v for v in verdicts}

    return shared_once("all_verdicts", compute, tmp_path_factory)


@pytest.fixture(autouse=True)
def _mpmath_precision(request):
    """mpmath's working precision is global: each test runs at its module's ``MPMATH_DPS`` (15 digits if it
    names none) and whatever a test sets is undone after it, so that no test's precision depends on which
    modules a worker process imported or ran before."""
    import mpmath

    with mpmath.workdps(getattr(request.module, "MPMATH_DPS", 15)):
        yield
