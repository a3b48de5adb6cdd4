"""The numeric commands of ``dpderive``: no floating-point warnings from calibrate, its output fitted
to ``--width``, and the bound of ``--width`` stated alike in ``--help`` and in its error message.

References: the width bound is ``derivations.engine.terminal.MIN_WIDTH``/``MAX_WIDTH`` (the bound the
commands enforce); widths are counted on the printed lines; the absence of warnings is checked with
every warning turned into an error (the library) and on the stderr of the installed command (what
a user sees).
"""
from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from derivations.engine.terminal import MAX_WIDTH, MIN_WIDTH
from numeric import SRS, Bernoulli, BinaryDomain, calibrate_scale, privacy_profile, worst_pair
from _cli_run import run




ROOT = Path(__file__).resolve().parents[2]


def command(*args):
    """The command of this working tree (``python -m numeric.cli`` run from its root)."""
    return [sys.executable, "-m", "numeric.cli", *args]


@pytest.mark.parametrize("design", [SRS(1000, 50), Bernoulli(1000, 0.05)])
@pytest.mark.parametrize("eps", [700.0, 1000.0])
def test_calibrate_at_large_epsilon_raises_no_floating_point_warning(design, eps):
    """eps = 1000: the thresholds of the pruning bounds multiplied e^700 by (t + 1)(N - t) and
    overflowed (five RuntimeWarnings with absolute paths on the terminal).  Every warning is an error
    here; the answer meets the target (its worst pair's certified delta <= 1e-6)."""
    domain = BinaryDomain(design.N)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b = calibrate_scale(design, domain, eps, 1e-6)
        pair = worst_pair(design, domain, b, eps)
        privacy_profile(design, domain, b, [0.0, eps / 2, eps])
    assert b > 0 and pair.delta <= 1e-6


def test_calibrate_command_at_epsilon_1000_prints_nothing_on_stderr():
    """The user's view of the same: the command, stderr empty, exit status 0."""
    r = subprocess.run(command("calibrate", "--design", "srs", "--N", "1000", "--n", "50", "--epsilon", "1000",
                               "--delta", "1e-6"), capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "smallest scale:  b = " in r.stdout


CASES = [
    ["--design", "srs", "--N", "1000", "--n", "50", "--epsilon", "1", "--delta", "1e-30"],     # pure
    ["--design", "bernoulli", "--N", "1000", "--p", "0.05", "--epsilon", "1000", "--delta", "1e-6"],
    ["--design", "srs", "--N", "100", "--n", "10", "--epsilon", "1", "--delta", "0.5"],        # no noise
    ["--design", "srs", "--N", "100000", "--n", "1000", "--m-t", "10", "--M-t", "99990", "--epsilon", "0.5",
     "--delta", "1e-9", "--noise", "gaussian"],
]


@pytest.mark.parametrize("width", [MIN_WIDTH, 80, MAX_WIDTH])
@pytest.mark.parametrize("args", CASES, ids=["pure", "large-eps", "no-noise", "gaussian"])
def test_calibrate_output_fits_the_width(capsys, width, args):
    """Every line of calibrate within --width (it printed lines of 139 columns); the answer keeps its
    one line ``smallest scale:  b = ...``; a pure scale says so."""
    rc, out, err = run(capsys, "calibrate", *args, "--width", width)
    assert rc == 0 and err == "", err
    lines = out.splitlines()
    assert max(map(len, lines)) <= width, [s for s in lines if len(s) > width]
    assert any(s.startswith("smallest scale:  ") for s in lines)
    if args is CASES[0]:
        assert any(s.startswith("pure:") for s in lines) and "delta = 0 at eps = 1" in " ".join(out.split())


def test_calibrate_output_fits_the_terminal(capsys, monkeypatch):
    """Without --width: the terminal's width (COLUMNS = 80 here, as shutil reads it).  The worst-pair line
    of a large epsilon was 127 columns wide, the whole output up to 139."""
    monkeypatch.setenv("COLUMNS", "80")
    rc, out, err = run(capsys, "calibrate", *CASES[1])
    assert rc == 0 and err == "", err
    assert max(map(len, out.splitlines())) <= 80, [s for s in out.splitlines() if len(s) > 80]


def test_calibrate_checks_the_width_up_front(capsys, monkeypatch):
    """A width outside [MIN_WIDTH, MAX_WIDTH] is one error line naming --width, before any computation."""
    import numeric

    def boom(*a, **k):
        raise AssertionError("computed before validating --width")

    for name in ("calibrate_scale", "privacy_profile", "worst_pair", "amplified_laplace_scale"):
        monkeypatch.setattr(numeric, name, boom)
    cmd = ["calibrate", "--N", "100", "--n", "10", "--epsilon", "1", "--delta", "0.1"]
    rc, out, err = run(capsys, *cmd, "--width", MIN_WIDTH - 1)
    assert rc == 2 and out == "" and err.count("\n") == 1 and "--width" in err
    assert f"[{MIN_WIDTH}, {MAX_WIDTH}]" in err


def test_width_bound_in_help_and_error_message_agree(capsys):
    """--help stated 50 <= W while the commands refuse below MIN_WIDTH (60): the help and the message
    of a refused width now both state [MIN_WIDTH, MAX_WIDTH], the bound enforced."""
    rc, out, _ = run(capsys, "--help")
    assert rc == 0
    text = " ".join(out.split())
    assert f"{MIN_WIDTH} <= W <= {MAX_WIDTH}" in text
    assert {m for m in re.findall(r"(\d+) <= W", text)} == {str(MIN_WIDTH)}
    rc, out, err = run(capsys, "list", "--width", "40")
    assert rc == 2 and f"must be an integer in [{MIN_WIDTH}, {MAX_WIDTH}]" in err, err
