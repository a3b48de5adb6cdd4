"""The claim engine: claims, verdicts, errata, the registry and the verifiers.

A :class:`Claim` is one mathematical statement over SymPy symbols, with the
conditions under which it is claimed and the place in a source document where
it is stated.  Verifying a claim runs each of its methods:

``symbolic``
    an exact proof: a proof routine written for the claim (targeted rewrites,
    integration under positivity assumptions) or, by default, a ladder of
    exact simplifications of ``lhs - rhs`` to zero.
``enumeration``
    an exhaustive check over a finite set of cases (e.g. every sample of a
    small population, every value of an indicator), each case exact.
``numeric``
    evaluation of both sides with mpmath at random rational points inside the
    claim's conditions.  It reports the number of points, the working
    precision and the worst relative error.  It is evidence, never a proof.

A printed statement that is wrong is registered as an :class:`Erratum`: the
printed claim (expected to be refuted, with a concrete counterexample that is
evaluated exactly) and the corrected claim (expected to be proved).
"""
from __future__ import annotations

import dataclasses
import hashlib
import multiprocessing
import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

import mpmath
import sympy as sp

KINDS = ("identity", "inequality", "sign", "limit", "divergence")
RELATIONS = {"==": sp.Eq, "<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt}
METHOD_STRENGTH = {"symbolic": 0, "enumeration": 1, "numeric": 2}


@dataclass(frozen=True)
class Source:
    """Where a statement is made: a document in ``shared/seeds`` and a location in it."""

    document: str
    location: str

    def __str__(self) -> str:
        return f"{self.document}, {self.location}"


@dataclass(frozen=True)
class Proof:
    """Outcome of a symbolic proof routine: whether it succeeded, and what was shown."""

    ok: bool
    steps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Enumeration:
    """Outcome of an exhaustive check: cases examined and the first failing case, if any."""

    ok: bool
    cases: int
    detail: str = ""
    counterexample: Mapping[str, str] | None = None


@dataclass
class Claim:
    """One statement ``lhs <relation> rhs`` under ``conditions``.

    ``kind`` is one of :data:`KINDS`.  For ``divergence`` the statement is
    ``lhs == oo`` (an integral or moment that is infinite); for ``sign`` it is
    ``lhs <relation> 0``; for ``limit`` ``lhs`` is a :class:`sympy.Limit`.
    ``domain`` maps each free symbol to a sampling box ``(lo, hi)`` used by
    the numeric method (points violating ``conditions`` are rejected).
    ``expected`` is False for a printed statement that the toolkit refutes.
    """

    id: str
    title: str
    source: Source
    kind: str
    lhs: sp.Expr
    rhs: sp.Expr = sp.S.Zero
    relation: str = "=="
    conditions: tuple = ()
    domain: Mapping[sp.Symbol, tuple] = field(default_factory=dict)
    proof: Callable[[], Proof] | None = None
    enumeration: Callable[[], Enumeration] | None = None
    numeric_points: int = 0
    expected: bool = True
    counterexample: Mapping[sp.Symbol, sp.Expr] | None = None
    note: str = ""
    budget: float = 60.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {tuple(RELATIONS)}, got {self.relation!r}")
        if self.kind == "divergence":
            self.rhs, self.relation = sp.oo, "=="
        self.lhs = sp.sympify(self.lhs)
        self.rhs = sp.sympify(self.rhs)
        self.conditions = tuple(self.conditions)

    # -- presentation ---------------------------------------------------------------
    @property
    def statement(self) -> sp.Basic:
        """The statement as an unevaluated SymPy relational."""
        return RELATIONS[self.relation](self.lhs, self.rhs, evaluate=False)

    def methods(self) -> list[str]:
        if self.counterexample is not None:
            return ["symbolic"]
        out = []
        default_symbolic = self.kind in ("identity", "divergence", "limit") and self.enumeration is None
        if self.proof is not None or default_symbolic:
            out.append("symbolic")
        if self.enumeration is not None:
            out.append("enumeration")
        if self.numeric_points:
            out.append("numeric")
        return out

    def latex(self) -> str:
        rel = {"==": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}[self.relation]
        return f"{sp.latex(self.lhs)} {rel} {sp.latex(self.rhs)}"

    def conditions_latex(self) -> str:
        return r",\quad ".join(sp.latex(c) for c in self.conditions)

    def digest(self) -> str:
        """SHA-256 of the statement and conditions (stable across runs)."""
        text = sp.srepr(self.lhs) + self.relation + sp.srepr(self.rhs)
        text += "|".join(sp.srepr(c) for c in self.conditions)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Check:
    """The outcome of one verification method on one claim."""

    method: str
    passed: bool
    seconds: float
    detail: str = ""
    counterexample: dict[str, str] | None = None
    points: int | None = None
    dps: int | None = None
    worst_error: str | None = None
    error: bool = False  # the method crashed or ran out of time (no decision)


@dataclass
class Verdict:
    """All checks of one claim.  ``holds`` says whether the statement was found true."""

    claim_id: str
    expected: bool
    checks: list[Check]

    @property
    def decided(self) -> bool:
        return bool(self.checks) and not any(c.error for c in self.checks)

    @property
    def holds(self) -> bool:
        return self.decided and all(c.passed for c in self.checks)

    @property
    def ok(self) -> bool:
        """True when the outcome is the expected one (proved, or a printed error refuted)."""
        if not self.decided:
            return False
        if self.expected:
            return self.holds
        # a closed statement (no free symbols) is refuted with an empty counterexample
        return any(not c.passed and c.counterexample is not None for c in self.checks)

    @property
    def method(self) -> str:
        return min((c.method for c in self.checks), key=METHOD_STRENGTH.get, default="none")

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.checks)

    @property
    def label(self) -> str:
        if not self.decided:
            return "ERROR"
        if not self.expected:
            return "REFUTED" if self.ok else "NOT REFUTED"
        if not self.holds:
            return "FAILED"
        return {"symbolic": "PROVED", "enumeration": "PROVED (exhaustive)",
                "numeric": "CHECKED (numeric)"}[self.method]

    @property
    def counterexample(self) -> dict[str, str] | None:
        return next((c.counterexample for c in self.checks if c.counterexample is not None), None)

    def as_dict(self) -> dict:
        return {"checks": [dataclasses.asdict(c) for c in self.checks], "ok": self.ok,
                "label": self.label, "method": self.method, "seconds": self.seconds}


@dataclass
class Erratum:
    """A printed statement that is wrong, paired with the corrected statement that is proved."""

    id: str
    printed: Claim
    corrected: Claim
    explanation: str

    @property
    def source(self) -> Source:
        return self.printed.source


# ----------------------------------------------------------------------------------------
# Registry
# ----------------------------------------------------------------------------------------
_CLAIMS: dict[str, Claim] = {}
_ERRATA: dict[str, Erratum] = {}


def register(claim: Claim) -> Claim:
    if claim.id in _CLAIMS:
        raise ValueError(f"duplicate claim id {claim.id!r}")
    _CLAIMS[claim.id] = claim
    return claim


def claim(**kwargs) -> Claim:
    """Create and register a :class:`Claim`."""
    return register(Claim(**kwargs))


def erratum(id: str, printed: Claim, corrected: Claim, explanation: str) -> Erratum:
    """Register an erratum.  ``printed`` must carry its counterexample; ``corrected`` is registered
    too unless it already is."""
    if printed.counterexample is None:
        raise ValueError(f"erratum {id!r}: the printed claim needs a counterexample")
    printed.expected = False
    register(printed)
    if corrected.id not in _CLAIMS:
        register(corrected)
    if id in _ERRATA:
        raise ValueError(f"duplicate erratum id {id!r}")
    _ERRATA[id] = Erratum(id, printed, corrected, explanation)
    return _ERRATA[id]


def all_claims() -> list[Claim]:
    return list(_CLAIMS.values())


def all_errata() -> list[Erratum]:
    return list(_ERRATA.values())


def get_claim(claim_id: str) -> Claim:
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise KeyError(f"no claim with id {claim_id!r}; `dpderive list` shows them") from None


# ----------------------------------------------------------------------------------------
# Symbolic helpers used by proof routines
# ----------------------------------------------------------------------------------------
def is_zero(expr: sp.Expr) -> bool:
    """Exact zero test by a ladder of targeted rewrites, cheapest first."""
    expr = sp.sympify(expr)
    for step in (lambda e: e, sp.expand, sp.cancel, lambda e: sp.cancel(sp.expand(sp.powsimp(e))),
                 lambda e: sp.simplify(e)):
        expr = step(expr)
        if expr == 0:
            return True
    return False


def zero(expr: sp.Expr, what: str) -> Proof:
    """A proof step: ``expr`` is identically zero."""
    ok = is_zero(expr)
    return Proof(ok, (f"{what}: {'difference is identically 0' if ok else 'not shown to vanish'}",))


def all_of(*proofs: Proof) -> Proof:
    """Combine proof steps: the proof holds when every step holds."""
    steps = tuple(s for p in proofs for s in p.steps)
    return Proof(all(p.ok for p in proofs), steps)


# ----------------------------------------------------------------------------------------
# Verification methods
# ----------------------------------------------------------------------------------------
def _symbolic(c: Claim) -> Check:
    t0 = time.perf_counter()
    if c.counterexample is not None:
        holds, detail = _evaluate_at(c, c.counterexample)
        cex = {str(k): str(v) for k, v in c.counterexample.items()}
        return Check("symbolic", holds, time.perf_counter() - t0,
                     "exact evaluation at the counterexample: " + detail,
                     counterexample=None if holds else cex)
    if c.proof is not None:
        p = c.proof()
        return Check("symbolic", p.ok, time.perf_counter() - t0, "; ".join(p.steps))
    if c.kind == "identity":
        p = zero(c.lhs - c.rhs, "lhs - rhs")
    elif c.kind in ("divergence", "limit"):
        value = c.lhs.doit()
        p = Proof(value == c.rhs, (f"evaluates to {value}",))
    else:  # inequalities and signs need a proof routine
        p = Proof(False, ("no symbolic proof routine",))
    return Check("symbolic", p.ok, time.perf_counter() - t0, "; ".join(p.steps))


def _evaluate_at(c: Claim, point: Mapping[sp.Symbol, sp.Expr]) -> tuple[bool, str]:
    """Decide the statement exactly at one point.  Returns (holds, description)."""
    lhs = c.lhs.subs(point).doit()
    rhs = c.rhs.subs(point).doit()
    if c.relation == "==":
        if lhs.is_infinite or rhs.is_infinite:
            holds = lhs == rhs
        elif is_zero(lhs - rhs):
            holds = True
        else:
            # not shown to vanish: refute only if the difference is certainly non-zero
            diff = sp.N(lhs - rhs, 60)
            if not diff.is_number or abs(diff) < sp.Float("1e-45"):
                raise ValueError(f"cannot decide lhs == rhs at the point (difference {diff})")
            holds = False
    else:
        holds = bool(RELATIONS[c.relation](lhs, rhs))
    return holds, f"lhs = {lhs}, rhs = {rhs}"


def _enumeration(c: Claim) -> Check:
    t0 = time.perf_counter()
    e = c.enumeration()
    return Check("enumeration", e.ok, time.perf_counter() - t0,
                 f"{e.cases} cases enumerated exactly" + (f"; {e.detail}" if e.detail else ""),
                 counterexample=dict(e.counterexample) if e.counterexample else None)


def random_point(c: Claim, rng: random.Random, max_tries: int = 10_000) -> dict | None:
    """A random rational point in the claim's domain that satisfies its conditions."""
    syms = sorted(c.domain, key=str)
    for _ in range(max_tries):
        pt = {}
        for s in syms:
            lo, hi = c.domain[s]
            if s.is_integer:
                pt[s] = sp.Integer(rng.randint(int(lo), int(hi)))
            else:
                u = sp.Rational(rng.randrange(1, 10**6), 10**6)
                pt[s] = sp.Rational(lo) + (sp.Rational(hi) - sp.Rational(lo)) * u
        if all(bool(cond.subs(pt)) for cond in c.conditions):
            return pt
    return None


def _numeric(c: Claim, dps: int = 40, seed: int = 20261122) -> Check:
    t0 = time.perf_counter()
    rng = random.Random(seed)
    worst = least = mpmath.mpf(0)
    n = 0
    tol = mpmath.mpf(10) ** (-(dps - 10))
    guard = dps + 15  # both sides are evaluated with guard digits, so agreement is not mere rounding
    with mpmath.workdps(guard):
        for _ in range(c.numeric_points):
            pt = random_point(c, rng)
            if pt is None:
                return Check("numeric", False, time.perf_counter() - t0,
                             "no point of the domain satisfies the conditions", error=True)
            lhs = mpmath.mpf(sp.N(c.lhs.subs(pt), guard))
            rhs = mpmath.mpf(sp.N(c.rhs.subs(pt), guard))
            n += 1
            cex = {str(k): str(v) for k, v in pt.items()}
            if c.relation == "==":
                err = abs(lhs - rhs) / max(abs(lhs), abs(rhs), mpmath.mpf(1) * 10 ** -dps)
                worst = max(worst, err)
                if err > tol:
                    return Check("numeric", False, time.perf_counter() - t0,
                                 f"relative error {mpmath.nstr(err, 3)} at point {n}", cex, n, dps,
                                 mpmath.nstr(worst, 3))
            else:
                # margin in the claimed direction; a strict inequality needs a margin beyond tol
                margin = rhs - lhs if c.relation in ("<", "<=") else lhs - rhs
                least = margin if n == 1 else min(least, margin)
                if margin < -tol or (c.relation in ("<", ">") and margin <= tol):
                    return Check("numeric", False, time.perf_counter() - t0,
                                 f"inequality violated at point {n} (margin {mpmath.nstr(margin, 3)})",
                                 cex, n, dps)
    if c.relation != "==":
        return Check("numeric", True, time.perf_counter() - t0,
                     f"{n} random points at {dps} digits, smallest margin {mpmath.nstr(least, 3)}",
                     None, n, dps)
    return Check("numeric", True, time.perf_counter() - t0,
                 f"{n} random points at {dps} digits, worst relative error {mpmath.nstr(worst, 3)}",
                 None, n, dps, mpmath.nstr(worst, 3))


_RUNNERS = {"symbolic": _symbolic, "enumeration": _enumeration, "numeric": _numeric}


def _run_method(c: Claim, method: str) -> Check:
    t0 = time.perf_counter()
    try:
        return _RUNNERS[method](c)
    except Exception as exc:  # a crash is reported as an undecided check, never as a pass
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return Check(method, False, time.perf_counter() - t0, f"crashed: {tb}", error=True)


def verify_inline(c: Claim) -> Verdict:
    """Verify in this process, without a time budget."""
    return Verdict(c.id, c.expected, [_run_method(c, m) for m in c.methods()])


def _child(claim_id: str, conn) -> None:
    conn.send(verify_inline(_CLAIMS[claim_id]))
    conn.close()


def verify_many(claims: Iterable[Claim], jobs: int = 1,
                progress: Callable[[Verdict], None] | None = None) -> list[Verdict]:
    """Verify claims in forked worker processes, each within its time budget.

    A claim whose verification outlives ``claim.budget`` seconds is stopped and
    reported as undecided (``ERROR``), so one slow simplification cannot hang the
    run.  Results come back in the order of ``claims``.
    """
    claims = list(claims)
    ctx = multiprocessing.get_context("fork")
    results: dict[str, Verdict] = {}
    pending = list(claims)
    running: list[tuple[Claim, multiprocessing.Process, object, float]] = []
    while pending or running:
        while pending and len(running) < max(1, jobs):
            c = pending.pop(0)
            recv, send = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_child, args=(c.id, send), daemon=True)
            p.start()
            send.close()
            running.append((c, p, recv, time.perf_counter()))
        still = []
        for c, p, recv, start in running:
            elapsed = time.perf_counter() - start
            if recv.poll(0.02):
                try:
                    v = recv.recv()
                except EOFError:
                    v = Verdict(c.id, c.expected,
                                [Check("symbolic", False, elapsed, "worker died", error=True)])
                p.join()
            elif not p.is_alive():
                v = Verdict(c.id, c.expected,
                            [Check("symbolic", False, elapsed,
                                   f"worker exited with code {p.exitcode}", error=True)])
            elif elapsed > c.budget:
                p.kill()
                p.join()
                v = Verdict(c.id, c.expected,
                            [Check(c.methods()[0] if c.methods() else "symbolic", False, elapsed,
                                   f"stopped after the time budget of {c.budget:g} s", error=True)])
            else:
                still.append((c, p, recv, start))
                continue
            recv.close()
            results[c.id] = v
            if progress:
                progress(v)
        running = still
    return [results[c.id] for c in claims]
