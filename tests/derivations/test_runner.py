"""Budgets of CPU time (derivations.engine.runner): a verdict does not depend on what else the machine
runs, a verification that uses up its budget is undecided and never stored, and the scale is checked."""
from __future__ import annotations

import time

import pytest
import sympy as sp

from derivations.engine import core, runner
from derivations.engine.core import Claim, Source, register
from derivations.engine.proofs import conclude
from derivations.engine.store import Store

SRC = Source("test", "runner")
x = sp.Symbol("x", positive=True)


def _spin(claim):
    """A proof that burns CPU time forever (until the kernel stops it)."""
    while True:
        sum(range(10_000))


def _busy(claim):
    """A proof that uses 0.7 s of CPU, then concludes."""
    end = time.process_time() + 0.7
    while time.process_time() < end:
        sum(range(10_000))
    return conclude(claim)


def _sleepy(claim):
    """A proof that waits 3 s of wall-clock time without using the CPU, then concludes."""
    time.sleep(3)
    return conclude(claim)


@pytest.fixture
def registered():
    made = []

    def add(c: Claim) -> Claim:
        made.append(register(c))
        return c

    yield add
    for c in made:
        del core._CLAIMS[c.id]


def test_a_verification_past_its_cpu_budget_is_undecided_and_marked(registered):
    c = registered(Claim(id="t.runner.spin", title="", source=SRC, kind="sign", lhs=x, relation=">",
                         proof=_spin, budget=1))
    (v,) = runner.verify_many([c], jobs=1)
    assert v.label == "ERROR" and v.checks[0].budget_exhausted
    assert "CPU-time budget" in v.checks[0].detail and "dpderive verify --only t.runner.spin" in v.checks[0].detail


def test_the_budget_counts_cpu_time_not_the_clock(registered):
    """Negative control of the above: a proof that takes three times its budget by the clock, but no CPU
    time, is not stopped (on a loaded machine a verification is slower, not different)."""
    c = registered(Claim(id="t.runner.sleepy", title="", source=SRC, kind="sign", lhs=x, relation=">",
                         proof=_sleepy, budget=1))
    (v,) = runner.verify_many([c], jobs=1)
    assert v.label == "PROVED" and not v.checks[0].budget_exhausted


def test_a_budget_exhausted_verdict_is_never_stored(registered, tmp_path):
    spin = registered(Claim(id="t.runner.spin2", title="", source=SRC, kind="sign", lhs=x, relation=">",
                            proof=_spin, budget=1))
    good = registered(Claim(id="t.runner.good", title="", source=SRC, kind="sign", lhs=x, relation=">"))
    good.proof = conclude
    verdicts = runner.verify_many([spin, good], jobs=2)
    store = Store(str(tmp_path / "r.json"))
    store.entries[spin.id] = {"digest": spin.digest(), "label": "PROVED", "verdict": {}}   # an older entry
    store.put([spin, good], verdicts)
    assert good.id in store.entries and spin.id not in store.entries


def test_each_claim_gets_its_whole_budget_in_a_shared_worker(registered):
    """One worker verifies one claim after another: four proofs of 0.7 s of CPU each, with budgets of 1 s,
    are all proved (2.8 s in all, so a budget counted from the worker's start would stop the second), and a
    claim after one that ran out of its budget is verified by a fresh worker."""
    busy = [registered(Claim(id=f"t.runner.busy{i}", title="", source=SRC, kind="sign", lhs=x, relation=">",
                             proof=_busy, budget=1)) for i in range(4)]
    spin = registered(Claim(id="t.runner.spin4", title="", source=SRC, kind="sign", lhs=x, relation=">",
                            proof=_spin, budget=1))
    after = registered(Claim(id="t.runner.after", title="", source=SRC, kind="sign", lhs=x, relation=">",
                             proof=conclude))
    verdicts = runner.verify_many(busy + [spin, after], jobs=1)
    assert [v.label for v in verdicts] == ["PROVED"] * 4 + ["ERROR", "PROVED"]
    assert verdicts[4].checks[0].budget_exhausted


def test_the_scale_multiplies_every_budget(registered, monkeypatch):
    """With a scale of 3 the spinning proof gets 3 s of CPU: the stop message says so."""
    c = registered(Claim(id="t.runner.spin3", title="", source=SRC, kind="sign", lhs=x, relation=">",
                         proof=_spin, budget=1))
    monkeypatch.setenv(runner.SCALE_VARIABLE, "3")
    (v,) = runner.verify_many([c], jobs=1)
    assert v.checks[0].budget_exhausted and "budget of 3 s of CPU" in v.checks[0].detail
    (v,) = runner.verify_many([c], jobs=1, scale=1.5)      # an explicit scale wins over the variable
    assert "budget of 1.5 s of CPU" in v.checks[0].detail


@pytest.mark.parametrize("bad", ["0", "-1", "inf", "nan", "two"])
def test_a_bad_scale_is_refused_by_name(monkeypatch, bad):
    monkeypatch.setenv(runner.SCALE_VARIABLE, bad)
    with pytest.raises(ValueError, match="scale|DPDERIVE_BUDGET_SCALE"):
        runner.budget_scale()
    monkeypatch.delenv(runner.SCALE_VARIABLE)
    assert runner.budget_scale() == 1.0


def test_the_budget_hint_names_a_command_the_cli_accepts():
    """The retry command in the message parses as written (control: a flag verify does not have is
    refused by the same parser)."""
    import re
    import shlex

    from derivations.engine.runner import BUDGET_HINT
    from numeric.cli import build_parser

    command = re.search(r"`dpderive ([^`]*)`", BUDGET_HINT.format(id="ht.some_claim", var="X")).group(1)
    args = build_parser().parse_args(shlex.split(command) + ["--budget-scale", "2"])
    assert args.only == ["ht.some_claim"] and args.budget_scale == 2
    with pytest.raises(SystemExit):
        build_parser().parse_args(shlex.split(command) + ["--no-such-flag"])
