"""Generated numeric code is fresh, carries the expression hashes, and matches its expressions."""
from __future__ import annotations

import random
import subprocess
import sys

import mpmath
import numpy as np
import sympy as sp

import derivations
from derivations.engine import codegen
from numeric import _generated


def test_committed_generated_code_is_fresh():
    assert codegen.check(), "numeric/_generated.py is stale: run `dpderive codegen`"


def test_cli_codegen_check_passes():
    r = subprocess.run([sys.executable, "-m", "numeric.cli", "codegen", "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_check_detects_a_stale_file(tmp_path):
    stale = tmp_path / "_generated.py"
    stale.write_text(codegen.render().replace("numpy.exp", "numpy.exp2", 1))
    assert not codegen.check(stale)
    codegen.write(stale)
    assert codegen.check(stale)


def test_hashes_recomputed_from_expressions():
    for f in derivations.formulas():
        assert _generated.HASHES[f.name] == f.digest()
        assert _generated.PROVENANCE[f.name] == f.claims


def test_generated_functions_agree_with_their_expressions_in_mpmath():
    """Reference: the SymPy expression evaluated by mpmath at 30 digits at random points."""
    rng = np.random.default_rng(7)
    pyrng = random.Random(7)
    for f in derivations.formulas():
        fn = getattr(_generated, f.name)
        ref = sp.lambdify(f.args, f.expr, modules="mpmath")
        for _ in range(20):
            if f.sample is not None:       # the formula's own domain
                vals = [float(v) for v in f.sample(pyrng)]
            else:
                vals = [float(rng.uniform(0.01, 0.45)) if str(s) == "b" else float(rng.uniform(-2, 2))
                        for s in f.args]
            got = float(fn(*[np.float64(v) for v in vals]))
            with mpmath.workdps(30):
                want = ref(*[mpmath.mpf(v) for v in vals])
            assert abs(got - want) <= 1e-13 * abs(want) + 1e-300, (f.name, vals, got, want)
