"""The claim engine: claims, typed proof steps, verdicts, errata, readings, the registry and the verifiers.

A :class:`Claim` is one mathematical statement over SymPy symbols, with the conditions under which
it is claimed and the place in a source document where it is stated.  Verifying a claim runs each
of its methods:

``symbolic``
    a proof routine ``proof(claim) -> Proof`` (or, for identities, limits and divergences without
    one, the engine's own exact check of ``lhs - rhs``).  A proof is a sequence of typed
    :class:`Step` s: *mechanical* (a symbolic zero or sign, an exact evaluation or case check),
    *citation* (a named standard result from :data:`CITATIONS`) or *argument* (anything else).
    A proof counts only if its last step is a *conclusion*: the engine's own check of the claim's
    relation under its conditions (:mod:`derivations.engine.proofs`), stamped with the digest of the
    statement it checked.  Change the statement and the stamp no longer matches.
``enumeration``
    an exact check over a finite set of cases.  When the claim's own quantifier ranges over that
    set (``finite=True``) and the cases evaluate the stated relation, it is a proof ("exhaustive");
    otherwise it is a check on the finite scope it states, and the label says so.
``numeric``
    evaluation of both sides with mpmath at random rational points inside the claim's conditions:
    points, working precision and worst relative error.  Evidence, never a proof.

Before a proof or an exhaustive enumeration runs, :func:`preflight` refuses a claim whose symbols carry an
assumption its hypotheses do not show, whose conditions cannot all hold, or whose statement is not shown
defined at every admissible point (a denominator that may vanish, a logarithm of a possibly nonpositive
argument); a finite claim's domain is derived from its conditions (:func:`finite_domain`) and must be the
enumerated set.  The routine runs on a private copy of the claim, whose digest is taken first.

The label states the strength: ``PROVED`` (mechanical steps only), ``PROVED (with citations)``,
``PROVED (exhaustive)``, ``ARGUED`` (some step is neither mechanical nor a citation, or the proof
does not end in a check of the stated claim), ``CHECKED (finite scope: ...)``, ``CHECKED (numeric)``.

A printed statement that is wrong is registered as an :class:`Erratum`: the printed claim, refuted
by a counterexample that the engine first checks to lie inside the printed conditions and the
symbols' assumptions, and the corrected claim, proved.  A repair of damaged (OCR'd) text is a
:class:`Reading`, reported apart from the errata; a remark of the review that is neither (an
announced result that is missing, a title wider than its statement) is a :class:`Finding`.
"""
from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import inspect
import random
import time
import traceback
import weakref
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

import mpmath
import sympy as sp

from .notation import release

KINDS = ("identity", "inequality", "sign", "limit", "divergence")
RELATIONS = {"==": sp.Eq, "<=": sp.Le, "<": sp.Lt, ">=": sp.Ge, ">": sp.Gt}
STEP_KINDS = ("mechanical", "citation", "argument", "conclusion")
# strengths, strongest first; the label of a verdict is that of its strongest passing check
STRENGTHS = ("mechanical", "citations", "exhaustive", "argued", "finite-scope", "numeric", "construction")
STRENGTH_LABELS = {"mechanical": "PROVED", "citations": "PROVED (with citations)",
                   "exhaustive": "PROVED (exhaustive)", "argued": "ARGUED",
                   "finite-scope": "CHECKED (finite scope)", "numeric": "CHECKED (numeric)",
                   "construction": "BY CONSTRUCTION"}
PROVED_STRENGTHS = ("mechanical", "citations", "exhaustive")


#: Assumptions a symbol may carry, strongest first: each symbol is shown under the first that holds.
HYPOTHESES = ("positive integer", "nonnegative integer", "negative integer", "integer", "positive", "negative",
              "nonnegative", "nonpositive", "nonzero real", "real")


def hypothesis_of(sym) -> str | None:
    """The strongest of :data:`HYPOTHESES` that SymPy's assumptions give ``sym`` (None if none does)."""
    facts = {name: getattr(sym, f"is_{name}", None) is True
             for name in ("integer", "positive", "negative", "nonnegative", "nonpositive", "nonzero", "real")}
    for kind in HYPOTHESES:
        words = kind.split()
        if all(facts.get(w if w != "real" or len(words) == 1 else "real") for w in words):
            return kind
    return None


@dataclass(frozen=True)
class Source:
    """Where a statement is made: a document in ``shared/seeds`` and a location in it."""

    document: str
    location: str

    def __str__(self) -> str:
        return f"{self.document}, {self.location}"

    @property
    def paper(self):
        """The bibliographic record of the document (:mod:`derivations.engine.papers`)."""
        from .papers import paper_of

        return paper_of(self.document)

    def cite(self) -> str:
        """The paper's short name and the location: ``ht-mechanism (000), Section 2.3, Result 8``."""
        return f"{self.paper.label()}, {self.location}"


@dataclass(frozen=True)
class Step:
    """One typed step of a proof.

    ``mechanical``: ``ok`` was computed (a symbolic zero or sign, an exact evaluation);
    ``citation``: a named standard result (``citation`` is a key of :data:`CITATIONS`);
    ``argument``: anything else -- a proof containing one is labelled ARGUED, never PROVED;
    ``conclusion``: the engine's check of the claim's own relation; ``target`` is the digest of the
    statement it checked."""

    kind: str
    text: str
    ok: bool
    citation: str | None = None
    target: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS:
            raise ValueError(f"step kind must be one of {STEP_KINDS}, got {self.kind!r}")
        if self.kind == "citation" and self.citation not in CITATIONS:
            raise ValueError(f"citation {self.citation!r} is not registered in CITATIONS")
        if self.kind == "conclusion" and not _MINTING:
            raise ValueError("a conclusion step is made only by the engine's conclusions "
                             "(derivations.engine.proofs), never by a proof routine")

    def as_dict(self) -> dict:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


# Conclusion steps are made only by :func:`_mint_conclusion` (called by the conclusions of
# :mod:`derivations.engine.proofs`); each one made is remembered by identity, and a proof counts as tied to
# its claim only if its last step is one of them, unchanged (a copy with ``ok`` turned to True is not).
_MINTING: list = []
_MINTED: "weakref.WeakValueDictionary[int, Step]" = weakref.WeakValueDictionary()


def _mint_conclusion(text: str, ok: bool, target: str) -> Step:
    """A conclusion step (for :func:`derivations.engine.proofs._conclusion` only)."""
    _MINTING.append(True)
    try:
        st = Step("conclusion", text, bool(ok), target=target)
    finally:
        _MINTING.pop()
    _MINTED[id(st)] = st
    return st


def _minted(st: Step) -> bool:
    """``st`` is a conclusion step made by the engine, unchanged since."""
    return _MINTED.get(id(st)) is st


class Proof:
    """The outcome of a proof routine: a sequence of typed steps; it holds when every step holds.

    Build one with :func:`mechanical`, :func:`zero`, :func:`cite`, :func:`argue`, :func:`all_of` and
    end it with a conclusion from :mod:`derivations.engine.proofs`."""

    __slots__ = ("steps",)

    def __init__(self, *steps: Step):
        for st in steps:
            if not isinstance(st, Step):
                raise TypeError(f"a proof is made of Step objects, got {st!r}")
        self.steps: tuple[Step, ...] = tuple(steps)

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(st.ok for st in self.steps)

    def __add__(self, other: "Proof") -> "Proof":
        return Proof(*self.steps, *other.steps)

    def __repr__(self) -> str:
        return f"Proof(ok={self.ok}, {len(self.steps)} steps)"


def mechanical(ok: bool, text: str) -> Proof:
    """A mechanical step: ``ok`` must be the result of a computation done here, never a literal."""
    return Proof(Step("mechanical", text, bool(ok)))


def cite(key: str, how: str) -> Proof:
    """A citation of the registered standard result ``key``; ``how`` says how it is applied."""
    return Proof(Step("citation", f"{CITATIONS[key].name}: {how}" if key in CITATIONS else how, True,
                      citation=key))


def argue(text: str) -> Proof:
    """A step that is neither mechanical nor a citation.  It makes the verdict ARGUED."""
    return Proof(Step("argument", text, True))


def all_of(*proofs: Proof) -> Proof:
    """Concatenate proofs: the result holds when every step holds."""
    return Proof(*(st for p in proofs for st in p.steps))


@dataclass(frozen=True)
class Citation:
    """A named standard result that proofs may cite: its statement and a reference."""

    key: str
    name: str
    statement: str
    reference: str


CITATIONS: dict[str, Citation] = {}


def citation(key: str, name: str, statement: str, reference: str) -> Citation:
    """Register a citable result."""
    if key in CITATIONS:
        raise ValueError(f"duplicate citation {key!r}")
    CITATIONS[key] = Citation(key, name, statement, reference)
    return CITATIONS[key]


@dataclass(frozen=True)
class Enumeration:
    """Outcome of an exact check over finitely many cases.

    ``scope`` says what was enumerated (required unless the cases are the claim's own finite
    statement); ``target`` is set by :func:`derivations.engine.proofs.exhaust` when every case
    evaluated the claim's own relation (the digest of the statement)."""

    ok: bool
    cases: int
    detail: str = ""
    counterexample: Mapping[str, str] | None = None
    scope: str = ""
    target: str | None = None
    points: tuple | None = None     # the points evaluated (set by exhaust): each a tuple of (symbol, value)


@functools.lru_cache(maxsize=4096)
def _digest(kind: str, lhs, relation: str, rhs, conditions: tuple) -> str:
    """:meth:`Claim.digest` of a statement.  Cached on the statement itself (SymPy's expressions are
    immutable, and equal only when their trees and their symbols' assumptions are equal, which is what
    ``srepr`` writes), so a claim changed in place gets the digest of its new statement."""
    text = kind + "|" + sp.srepr(lhs) + relation + sp.srepr(rhs)
    text += "|".join(sp.srepr(c) for c in conditions)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Claim:
    """One statement ``lhs <relation> rhs`` under ``conditions``.

    ``kind`` is one of :data:`KINDS`.  For ``divergence`` the statement is
    ``lhs == oo`` (an integral or moment that is infinite); for ``sign`` it is
    ``lhs <relation> 0``; for ``limit`` ``lhs`` is a :class:`sympy.Limit`.
    ``domain`` maps each free symbol to a sampling box ``(lo, hi)`` used by
    the numeric method (points violating ``conditions`` are rejected).
    ``expected`` is False for a printed statement that the toolkit refutes.
    ``proof`` is called with the claim itself and must end in a conclusion on it.  ``finite`` says
    that the statement's own quantifier ranges over the finite set the enumeration covers, so
    that an exhaustive check is a proof; otherwise an enumeration is a check on its stated scope.

    The statement is kept as printed: a statement that SymPy folds to ``X = X`` when it is built
    (``lhs - rhs`` is 0 before any check) is refused, since nothing a check does could then reach
    the computation; keep the printed form (:mod:`derivations.engine.notation`) so that the engine's
    conclusion does the cancelling.  A statement that is true by the encoding's own definitions
    says so with ``by_construction=True``: it gets the label BY CONSTRUCTION, never PROVED.
    ``illustration`` (a printed statement only): a second counterexample, the one a reader finds
    convincing when the first is degenerate; it is checked like the first.
    ``limitation``: for a claim whose verdict stays ARGUED or CHECKED, one sentence saying why a general
    proof is out of reach; shown by ``show``, the report and the catalogue.
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
    proof: Callable[["Claim"], Proof] | None = None
    enumeration: Callable[..., Enumeration] | None = None
    numeric_points: int = 0
    expected: bool = True
    counterexample: Mapping[sp.Symbol, sp.Expr] | None = None
    note: str = ""
    budget: float = 60.0
    finite: bool = False
    by_construction: bool = False
    illustration: Mapping[sp.Symbol, sp.Expr] | None = None
    limitation: str | None = None   # for a claim left ARGUED or CHECKED: why a general proof is out of reach

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {tuple(RELATIONS)}, got {self.relation!r}")
        if self.kind == "divergence":
            self.rhs, self.relation = sp.oo, "=="
        self.lhs = sp.sympify(self.lhs)
        self.rhs = sp.sympify(self.rhs)
        conditions = tuple(sp.sympify(cnd) for cnd in self.conditions)
        if any(cnd is sp.false for cnd in conditions):
            raise ValueError(f"{self.id}: a condition is false for every value of its symbols")
        # a condition SymPy decides True from the symbols' assumptions (i >= 1 for a positive integer i)
        # restricts nothing: it is not shown
        self.conditions = tuple(cnd for cnd in conditions if cnd is not sp.true)
        folded = self.folded()
        if folded and not self.by_construction:
            raise ValueError(f"{self.id}: lhs - rhs is 0 as the claim is built (SymPy folded the statement to "
                             "X = X, so no check could reach it): keep the printed form "
                             "(derivations.engine.notation: defined, held) or mark it by_construction=True")
        if self.by_construction:
            if not folded or self.relation != "==":
                raise ValueError(f"{self.id}: by_construction is for an identity that is X = X as built")
            if self.proof or self.enumeration or self.numeric_points or self.counterexample is not None:
                raise ValueError(f"{self.id}: a claim by construction has nothing to verify")
        if self.illustration is not None and self.counterexample is None:
            raise ValueError(f"{self.id}: an illustration goes with a counterexample")

    def folded(self) -> bool:
        """``lhs - rhs`` is 0 as built, by SymPy's automatic evaluation alone (the statement is X = X)."""
        if self.kind in ("limit", "divergence"):
            return False
        return self.lhs == self.rhs or sp.Add(self.lhs, -self.rhs) == 0

    # -- presentation ---------------------------------------------------------------
    @property
    def statement(self) -> sp.Basic:
        """The statement as an unevaluated SymPy relational."""
        return RELATIONS[self.relation](self.lhs, self.rhs, evaluate=False)

    def symbols(self) -> set:
        """The free symbols of the statement and its conditions (those of the definitions of the
        papers' notation included)."""
        out = set(self.lhs.free_symbols) | set(self.rhs.free_symbols)
        for cnd in self.conditions:
            out |= sp.sympify(cnd).free_symbols
        return out

    def hypotheses(self) -> list[tuple[str, tuple]]:
        """The assumptions declared on the statement's symbols, which the checks use as hypotheses:
        ``[(kind, symbols), ...]`` with ``kind`` one of :data:`HYPOTHESES` (strongest first), each
        symbol under its strongest kind; symbols declared with nothing (complex) are left out."""
        groups: dict[str, list] = {}
        found = self.symbols()
        labels = {ix.base.label for ix in found if isinstance(ix, sp.Indexed)}
        seen = set()
        for sym in found:
            if isinstance(sym, sp.Indexed):
                sym = sym.base
            elif not isinstance(sym, sp.Symbol) or sym in labels:
                continue
            if sym in seen:
                continue
            seen.add(sym)
            kind = hypothesis_of(sym)
            if kind:
                groups.setdefault(kind, []).append(sym)
        return [(k, tuple(sorted(groups[k], key=str))) for k in HYPOTHESES if k in groups]

    def methods(self) -> list[str]:
        if self.by_construction:
            return ["construction"]
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
        from .render import latex
        rel = {"==": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}[self.relation]
        return f"{latex(self.lhs)} {rel} {latex(self.rhs)}"

    def conditions_latex(self) -> str:
        from .render import latex
        return r",\quad ".join(latex(c) for c in self.conditions)

    def digest(self) -> str:
        """SHA-256 of the kind, statement and conditions (stable across runs)."""
        return _digest(self.kind, self.lhs, self.relation, self.rhs, tuple(self.conditions))

    def mutated(self, kind: str | None = None) -> "Claim":
        """A copy with a false statement, for negative controls: by default an identity, limit or
        divergence gets the right-hand side 2 rhs + 1, or 0 if rhs is infinite (``kind="rhs"``), and an inequality or sign claim
        the reversed relation (``kind="relation"``: >= becomes <, > becomes <=), false wherever the
        claim is true."""
        kind = kind or ("relation" if self.relation != "==" else "rhs")
        if kind == "relation" and self.relation != "==":
            flip = {">=": "<", ">": "<=", "<=": ">", "<": ">="}
            return dataclasses.replace(self, id=self.id + ".mutated", relation=flip[self.relation],
                                       by_construction=False)
        new_kind = "identity" if self.kind == "divergence" else self.kind
        # 2 rhs + 1 is rhs itself when rhs is infinite: a finite value contradicts a divergence instead
        rhs = sp.Integer(0) if self.rhs.is_infinite else 2 * self.rhs + 1
        return dataclasses.replace(self, id=self.id + ".mutated", kind=new_kind, rhs=rhs, by_construction=False)


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
    budget_exhausted: bool = False   # stopped at the end of its CPU-time budget: never stored as final
    strength: str | None = None   # one of STRENGTHS when the check passed
    scope: str = ""
    steps: list[dict] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    evaluations: list[dict] = field(default_factory=list)   # exact evaluations at counterexamples


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
        """True when the outcome is the expected one (the claim holds, or a printed error is refuted)."""
        if not self.decided:
            return False
        if self.expected:
            return self.holds
        # a closed statement (no free symbols) is refuted with an empty counterexample
        return any(not c.passed and c.counterexample is not None for c in self.checks)

    @property
    def strength(self) -> str | None:
        """The strongest strength among the passing checks (None unless the claim holds)."""
        if not self.holds:
            return None
        found = [c.strength for c in self.checks if c.strength]
        return min(found, key=STRENGTHS.index, default=None)

    @property
    def proved(self) -> bool:
        return self.strength in PROVED_STRENGTHS

    @property
    def method(self) -> str:
        s = self.strength
        best = next((c for c in self.checks if c.strength == s), None) if s else None
        return best.method if best else (self.checks[0].method if self.checks else "none")

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.checks)

    @property
    def citations(self) -> list[str]:
        return sorted({k for c in self.checks for k in c.citations})

    @property
    def label(self) -> str:
        if not self.decided:
            return "ERROR"
        if not self.expected:
            return "REFUTED" if self.ok else "NOT REFUTED"
        if not self.holds:
            return "FAILED"
        s = self.strength
        if s == "finite-scope":
            scope = next(c.scope for c in self.checks if c.strength == s)
            return f"CHECKED (finite scope: {scope})"
        return STRENGTH_LABELS[s]

    @property
    def counterexample(self) -> dict[str, str] | None:
        return next((c.counterexample for c in self.checks if c.counterexample is not None), None)

    def as_dict(self) -> dict:
        return {"checks": [dataclasses.asdict(c) for c in self.checks], "ok": self.ok,
                "label": self.label, "strength": self.strength, "method": self.method,
                "citations": self.citations, "seconds": self.seconds}


@dataclass
class Erratum:
    """A printed statement that is wrong, paired with the corrected statement that is proved.

    ``printed_text``: the paper's sentence as printed (its words, the formula in plain text), so that a
    referee finds it in the paper; ``corrected_text``: the same sentence corrected.  ``readings``: ids of
    the :class:`Reading` s of damaged text the printed statement rests on; an erratum that holds under
    only one of several plausible readings says so in ``explanation``."""

    id: str
    printed: Claim
    corrected: Claim
    explanation: str
    readings: tuple[str, ...] = ()
    printed_text: str = ""
    corrected_text: str = ""

    @property
    def source(self) -> Source:
        return self.printed.source


@dataclass(frozen=True)
class Reading:
    """A repair of damaged source text: the printed glyphs, the reading taken and why.

    ``alternatives``: other plausible readings and what they would imply; ``claims``: the ids of
    the claims whose statement uses this reading."""

    id: str
    source: Source
    printed: str
    reading: str
    why: str
    alternatives: str = ""
    claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class Finding:
    """A remark of the review that is neither an erratum nor a reading: a result announced but not
    given, a title wider than what its proof covers, a question the source leaves open."""

    id: str
    source: Source
    text: str
    claims: tuple[str, ...] = ()


# ----------------------------------------------------------------------------------------
# Registry
# ----------------------------------------------------------------------------------------
_CLAIMS: dict[str, Claim] = {}
_ERRATA: dict[str, Erratum] = {}
_READINGS: dict[str, Reading] = {}
_FINDINGS: dict[str, Finding] = {}

# The encodings of the papers are built when first needed (``derivations`` sets the loader): a command that
# needs one claim builds one paper's package.  The lists come out in the papers' order and, within a paper,
# in the order of registration, whichever package was built first.
_LOADER: dict[str, Callable] = {}
_ORDER: dict[str, int] = {}           # "kind:id" -> registration number


def set_loader(load_all: Callable[[], None], load_for: Callable[[str], None], built: Callable[[], bool]) -> None:
    """How the registry builds the encodings: all of them, or the package that registers an id; and
    whether all are built."""
    _LOADER.update(all=load_all, for_id=load_for, built=built)


def fully_built() -> bool:
    """Every package of encodings is built (the registry is whole)."""
    return bool(_LOADER) and _LOADER["built"]()


def _rank(kind: str, key: str) -> None:
    _ORDER[f"{kind}:{key}"] = len(_ORDER)


def _ordered(kind: str, items: dict) -> list:
    if "all" in _LOADER:
        _LOADER["all"]()
    return registered(kind)


def register(claim: Claim) -> Claim:
    if claim.id in _CLAIMS:
        raise ValueError(f"duplicate claim id {claim.id!r}")
    _CLAIMS[claim.id] = claim
    _rank("claim", claim.id)
    return claim


def claim(**kwargs) -> Claim:
    """Create and register a :class:`Claim`."""
    return register(Claim(**kwargs))


def erratum(id: str, printed: Claim, corrected: Claim, explanation: str,
            readings: tuple[str, ...] = (), printed_text: str = "", corrected_text: str = "") -> Erratum:
    """Register an erratum.  ``printed`` must carry its counterexample; ``corrected`` is registered
    too unless it already is.  ``printed_text`` and ``corrected_text``: the paper's sentence as printed
    and as corrected (see :class:`Erratum`)."""
    if printed.counterexample is None:
        raise ValueError(f"erratum {id!r}: the printed claim needs a counterexample")
    printed.expected = False
    register(printed)
    if corrected.id not in _CLAIMS:
        register(corrected)
    if id in _ERRATA:
        raise ValueError(f"duplicate erratum id {id!r}")
    _ERRATA[id] = Erratum(id, printed, corrected, explanation, tuple(readings), printed_text, corrected_text)
    _rank("erratum", id)
    return _ERRATA[id]


def reading(id: str, source: Source, printed: str, reading: str, why: str, alternatives: str = "",
            claims: tuple[str, ...] = ()) -> Reading:
    """Register a reading of damaged source text."""
    if id in _READINGS:
        raise ValueError(f"duplicate reading id {id!r}")
    _READINGS[id] = Reading(id, source, printed, reading, why, alternatives, tuple(claims))
    _rank("reading", id)
    return _READINGS[id]


def finding(id: str, source: Source, text: str, claims: tuple[str, ...] = ()) -> Finding:
    """Register a finding of the review."""
    if id in _FINDINGS:
        raise ValueError(f"duplicate finding id {id!r}")
    _FINDINGS[id] = Finding(id, source, text, tuple(claims))
    _rank("finding", id)
    return _FINDINGS[id]


def registered(kind: str) -> list:
    """The claims, errata, readings or findings (``kind``) of the packages built so far, without building
    the others (what one claim's view needs: its package is built with it)."""
    items = {"claim": _CLAIMS, "erratum": _ERRATA, "reading": _READINGS, "finding": _FINDINGS}[kind]
    return sorted(items.values(), key=lambda x: (x.source.document, _ORDER.get(f"{kind}:{x.id}", 0)))


def all_readings() -> list[Reading]:
    return _ordered("reading", _READINGS)


def all_findings() -> list[Finding]:
    return _ordered("finding", _FINDINGS)


def all_claims() -> list[Claim]:
    """Every claim of every paper (the encodings built first), in the order of the papers' packages and,
    within one, of registration."""
    return _ordered("claim", _CLAIMS)


def all_errata() -> list[Erratum]:
    return _ordered("erratum", _ERRATA)


def get_claim(claim_id: str) -> Claim:
    """The claim with this id, building only the package that registers it (the id's prefix says which:
    ``derivations.PREFIXES``, kept complete by a registry test)."""
    if claim_id not in _CLAIMS and _LOADER:
        _LOADER["for_id"](claim_id)
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise KeyError(f"no claim with id {claim_id!r}; `dpderive list` shows them") from None


# ----------------------------------------------------------------------------------------
# Symbolic helpers used by proof routines
# ----------------------------------------------------------------------------------------
def linear_sums(expr: sp.Expr) -> sp.Expr:
    """Finite sums with symbolic bounds in a normal form: nested one index at a time, split over the
    terms of their expanded summand (linearity), with the factors free of the index taken out.
    Each rewrite is an identity of finite sums."""
    def one(e: sp.Sum) -> sp.Expr:
        if len(e.limits) > 1:   # Sum(f, (l, ...), (j, ...)) = Sum(Sum(f, (l, ...)), (j, ...))
            return one(sp.Sum(one(sp.Sum(e.function, e.limits[0])), *e.limits[1:]))
        (k, lo, hi), = e.limits
        total = sp.S.Zero
        for term in sp.Add.make_args(sp.expand(e.function)):
            free = [f for f in sp.Mul.make_args(term) if k not in f.free_symbols]
            bound = [f for f in sp.Mul.make_args(term) if k in f.free_symbols]
            total += sp.Mul(*free) * (sp.Sum(sp.Mul(*bound), (k, lo, hi)) if bound else (hi - lo + 1))
        return total

    out = sp.sympify(expr).replace(lambda e: isinstance(e, sp.Sum), one)

    def rename(e: sp.Sum) -> sp.Expr:   # the same sum written with another dummy index is the same sum
        (k, lo, hi), = e.limits
        dummy = sp.Symbol("k_sum", **{a: True for a in ("integer", "positive", "nonnegative") if getattr(k, f"is_{a}")})
        return sp.Sum(e.function.xreplace({k: dummy}), (dummy, lo, hi))

    return out.replace(lambda e: isinstance(e, sp.Sum) and len(e.limits) == 1 and not e.function.has(sp.Sum), rename)


def _exponents_normal(expr: sp.Expr) -> sp.Expr:
    """Products of exponentials combined and their exponents expanded after cancelling fractions."""
    def norm(e):
        return e.replace(lambda x: isinstance(x, sp.exp), lambda x: sp.exp(sp.expand(sp.cancel(x.args[0]))))
    return norm(sp.powsimp(sp.expand(norm(sp.expand(sp.sympify(expr).rewrite(sp.exp))))))


_UNEVALUATED = (sp.Product, sp.Integral, sp.Derivative, sp.Limit, sp.Subs, sp.Lambda)


def _sample_value(flags: Mapping[str, bool], rng: random.Random, check) -> sp.Expr | None:
    """A number meeting the assumptions ``flags`` (``check(value)`` says whether SymPy agrees), or None: an
    integer in [-6, 6] for an integer quantity, else a rational with denominator 97 in (-3, 3), of the sign
    the flags ask for."""
    value = sp.Integer(rng.randint(-6, 6)) if flags.get("integer") else sp.Rational(rng.randint(-290, 290), 97)
    if flags.get("positive") or flags.get("extended_positive") or (
            (flags.get("nonnegative") or flags.get("extended_nonnegative")) and flags.get("nonzero")):
        value = abs(value) + 1
    elif flags.get("nonnegative") or flags.get("extended_nonnegative"):
        value = abs(value)
    elif flags.get("negative") or flags.get("extended_negative"):
        value = -abs(value) - 1
    elif flags.get("nonpositive") or flags.get("extended_nonpositive"):
        value = -abs(value)
    elif flags.get("nonzero") and value == 0:
        value = sp.Integer(1)
    return value if check(value) else None


def _symbol_value(sym: sp.Symbol, rng: random.Random) -> sp.Expr | None:
    flags = {k: v for k, v in sym.assumptions0.items() if k != "commutative"}
    return _sample_value(flags, rng, lambda value: all(getattr(value, f"is_{k}") is v for k, v in flags.items()))


def _indexed_value(ix: sp.Indexed, rng: random.Random) -> sp.Expr | None:
    flags = {a: True for a in _ASSUMPTIONS if getattr(ix, f"is_{a}") is True}
    return _sample_value(flags, rng, lambda value: all(getattr(value, f"is_{k}") is True for k in flags))


def _sums_written_out(expr: sp.Expr) -> sp.Expr:
    """Every finite sum whose limits are integers (at most 60 terms) written out, innermost first."""
    def out(s):
        if len(s.limits) != 1 or len(s.limits[0]) != 3:
            return s
        i, lo, hi = s.limits[0]
        if not (lo.is_Integer and hi.is_Integer) or hi - lo > 60:
            return s
        if hi < lo:        # Karr's convention: an empty sum, or minus the sum over the reversed range
            return -sp.Add(*(s.function.xreplace({i: sp.Integer(k)}) for k in range(int(hi) + 1, int(lo))))
        return sp.Add(*(s.function.xreplace({i: sp.Integer(k)}) for k in range(int(lo), int(hi) + 1)))

    while expr.has(sp.Sum):
        done = expr.replace(lambda e: isinstance(e, sp.Sum), out)
        if done == expr:
            break
        expr = done
    return expr


def _clearly_nonzero(expr: sp.Expr, tries: int = 2) -> bool:
    """``expr`` (released) has a nonzero value at a point that meets every assumption of its symbols and of
    its indexed terms, so no exact rewrite can bring it to 0.  Finite sums are written out once their limits
    have values.  The value is SymPy's ``evalf``, which tracks its accuracy: a value is nonzero only when it
    has significant bits and is above 1e-20 in size (the rule of :func:`_decide`).  False (nothing decided)
    for expressions holding integrals, products, limits or derivatives, or an undefined function at an
    argument that is not a rational there, and where no such point is found; deterministic (fixed seed)."""
    if expr.has(*_UNEVALUATED):
        return False
    symbols = sorted(expr.free_symbols, key=sp.default_sort_key)
    if not all(isinstance(x, (sp.Symbol, sp.Indexed)) for x in symbols):
        return False
    labels = {ix.base.label for ix in expr.atoms(sp.Indexed)}
    symbols = [x for x in symbols if isinstance(x, sp.Symbol) and x not in labels]
    rng = random.Random(1729)
    for _ in range(tries):
        point = {x: _symbol_value(x, rng) for x in symbols}
        if any(v is None for v in point.values()):
            return False
        try:
            value = _sums_written_out(expr.xreplace(point))
            if value.has(sp.Sum):
                return False
            terms = {ix: _indexed_value(ix, rng) for ix in sorted(value.atoms(sp.Indexed), key=sp.default_sort_key)}
            if any(v is None for v in terms.values()) or not all(i.is_number for ix in terms for i in ix.indices):
                return False
            # an undefined function's values: one unknown per application, only where every argument is a
            # rational (so that equal arguments are the same expression)
            calls = sorted(value.atoms(sp.core.function.AppliedUndef), key=sp.default_sort_key)
            if not all(a.is_Rational for f in calls for a in f.args):
                return False
            terms.update({f: _indexed_value(f, rng) for f in calls})
            if any(v is None for v in terms.values()):
                return False
            value = sp.sympify(value.xreplace(terms)).evalf(30)
        except (ValueError, TypeError, ArithmeticError, RecursionError):
            continue
        if not value.is_number or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            continue
        for part in value.as_real_imag():
            if part.is_Float and part._prec > 1 and abs(part) > sp.Float("1e-20"):
                return True
    return False


def is_zero(expr: sp.Expr) -> bool:
    """Exact zero test by a ladder of equivalence-preserving rewrites, cheapest first (the papers'
    notation unfolded first: :func:`~derivations.engine.notation.release`).

    Each rung rewrites the result of the one before.  A few *probes* are tried on the way, each a rewrite
    that ``simplify`` itself may apply, cheaper than the rungs it precedes; a probe that does not reach 0
    leaves the expression as it was:

    * after ``cancel``, where integrals occur: every integral evaluated (innermost first, its integrand
      with powers combined and products expanded), as ``simplify``'s ``doit`` would, then expanded and
      cancelled;
    * before ``simplify``, on the released expression: ``gammasimp`` where binomials, factorials or gamma
      functions occur; where sums occur, ``doit`` (the sums in closed form, as in the last rung, with the
      conditions it attaches simplified), then expanded, powers of products split where the signs of the
      factors allow (``expand_power_base`` without force) and recombined, and cancelled; where logarithms
      or hyperbolic functions occur, the exponentials written out, the argument of each logarithm written
      as one factored fraction and split into the logarithms of its factors where their signs allow
      (``expand_log`` without force), the powers combined and the result cancelled.

    Past the three cheapest rungs, an expression with a nonzero value at a point that meets its symbols'
    assumptions (:func:`_clearly_nonzero`) is not zero, and the costlier rungs are skipped."""
    expr = release(expr)
    released = expr

    def logs_normal(_):
        e = sp.expand(released.rewrite(sp.exp))
        e = e.replace(lambda x: isinstance(x, sp.log),
                      lambda x: sp.expand_log(sp.log(sp.factor(sp.together(x.args[0]))), force=False))
        e = sp.expand(e).replace(lambda x: isinstance(x, sp.exp), lambda x: sp.exp(sp.expand(x.args[0])))
        return sp.cancel(sp.powsimp(sp.expand(sp.powsimp(e))))

    def integrals_done(e):
        e = e.replace(lambda x: isinstance(x, sp.Integral),     # innermost first
                      lambda x: sp.Integral(sp.powsimp(sp.expand(sp.powsimp(x.function))), *x.limits).doit())
        if e.has(sp.Integral):
            return e
        for form in (sp.expand, lambda x: sp.cancel(sp.together(sp.expand(linear_sums(x))))):
            e = form(e)
            if e == 0:
                break
        return e

    def sums_done(e):
        e = e.doit()
        if e.has(sp.Piecewise):      # the conditions of convergence that doit attaches, simplified
            e = e.replace(lambda x: isinstance(x, sp.Piecewise),
                          lambda x: sp.Piecewise(*((ex, sp.simplify(cnd)) for ex, cnd in x.args)))
        powers_split = (lambda x: sp.powsimp(sp.expand(x.replace(
            lambda y: isinstance(y, sp.Pow),
            lambda y: sp.expand_power_base(sp.Pow(sp.factor(sp.together(y.base)), y.exp), force=False)))))
        for form in (sp.expand, powers_split, lambda x: sp.cancel(sp.together(x))):
            e = form(e)
            if e == 0:
                break
        return e

    probe, rung = True, False
    steps = [(rung, lambda e: e), (rung, sp.expand), (rung, sp.cancel)]
    if expr.has(sp.Integral):
        steps.append((probe, integrals_done))
    steps += [(rung, lambda e: sp.cancel(sp.expand(sp.powsimp(e)))),
              (rung, lambda e: sp.expand(sp.powsimp(sp.expand(e.rewrite(sp.exp))))),
              (rung, lambda e: sp.expand(_exponents_normal(e)))]
    if expr.has(sp.Sum):
        steps.append((rung, lambda e: sp.cancel(sp.together(sp.expand(linear_sums(e))))))
    if expr.has(sp.binomial, sp.factorial, sp.gamma, sp.RisingFactorial, sp.FallingFactorial):
        steps.append((probe, lambda _: sp.gammasimp(released)))
    if expr.has(sp.Sum):
        steps.append((probe, lambda _: sums_done(released)))
    if expr.has(sp.log, sp.sinh, sp.cosh, sp.tanh):
        steps.append((probe, logs_normal))
    steps.append((rung, sp.simplify))
    if expr.has(sp.Sum):   # sums evaluated in closed form (conditions of convergence simplified under the assumptions)
        steps.append((rung, lambda e: sp.simplify(e.doit())))
    checked = False
    for is_probe, step in steps:
        if not checked and step is not steps[0][1] and step is not steps[1][1] and step is not steps[2][1]:
            checked = True            # past the cheap rungs: a value that is not 0 settles it
            if _clearly_nonzero(released):
                return False
        if is_probe:
            try:
                if step(expr) == 0:
                    return True
            except Exception:   # a rewrite that does not apply decides nothing
                pass
            continue
        expr = step(expr)
        if expr == 0:
            return True
    return False


def zero(expr: sp.Expr, what: str) -> Proof:
    """A mechanical step: ``expr`` is identically zero."""
    ok = is_zero(expr)
    return mechanical(ok, f"{what}: {'difference is identically 0' if ok else 'not shown to vanish'}")



# ----------------------------------------------------------------------------------------
# What a claim must be before it can be proved: its hypotheses shown, its conditions satisfiable, its
# statement defined at every admissible point, a finite statement's domain the enumerated set
# ----------------------------------------------------------------------------------------
_HYPOTHESIS_FLAGS = {"positive integer": dict(integer=True, positive=True),
                     "nonnegative integer": dict(integer=True, nonnegative=True),
                     "negative integer": dict(integer=True, negative=True), "integer": dict(integer=True),
                     "positive": dict(positive=True), "negative": dict(negative=True),
                     "nonnegative": dict(nonnegative=True), "nonpositive": dict(nonpositive=True),
                     "nonzero real": dict(real=True, nonzero=True), "real": dict(real=True), None: {}}
_FACTS = ("integer", "rational", "irrational", "algebraic", "transcendental", "real", "extended_real", "complex",
          "imaginary", "finite", "infinite", "positive", "negative", "nonnegative", "nonpositive", "nonzero", "zero",
          "extended_positive", "extended_negative", "extended_nonnegative", "extended_nonpositive",
          "extended_nonzero", "even", "odd", "prime", "composite", "noninteger", "hermitian", "antihermitian")


_EXTENDED_REAL = ("extended_real", "not imaginary", "hermitian")


def hidden_assumptions(c: Claim) -> list[str]:
    """The assumptions declared on the claim's symbols that :meth:`Claim.hypotheses` does not show: a fact
    of a symbol (even, prime, rational, not an integer, nonzero without real, ...) that the strongest shown
    hypothesis of that symbol does not imply.  The checks use every declared assumption, so each must be
    shown with the claim; ``["m: even", ...]``, empty when every one is."""
    out = []
    seen = set()
    for sym in c.symbols():
        base = sym.base if isinstance(sym, sp.Indexed) else sym
        if base in seen or not isinstance(base, (sp.Symbol, sp.IndexedBase)):
            continue
        seen.add(base)
        shown = sp.Dummy(**_HYPOTHESIS_FLAGS[hypothesis_of(base)])
        extra = [f if getattr(base, f"is_{f}") else f"not {f}" for f in _FACTS
                 if getattr(base, f"is_{f}", None) is not None and getattr(base, f"is_{f}") != getattr(shown, f"is_{f}")]
        if hypothesis_of(base) is None:    # a value in [-oo, oo] (a privacy loss that may be infinite): no
            extra = [f for f in extra if f not in _EXTENDED_REAL]      # real number is excluded by it
        if extra:
            out.append(f"{base}: {', '.join(extra)}")
    return sorted(out)


def _relations(cond) -> list:
    """A condition as a list of relationals that all hold (the arguments of a conjunction), or []."""
    cond = sp.sympify(cond)
    if isinstance(cond, sp.And):
        return [a for arg in cond.args for a in _relations(arg)]
    if isinstance(cond, sp.core.relational.Relational) and not isinstance(cond, (sp.Eq, sp.Ne)):
        big, small = (cond.lhs, cond.rhs) if isinstance(cond, (sp.Ge, sp.Gt)) else (cond.rhs, cond.lhs)
        rel = type(cond) if isinstance(cond, (sp.Ge, sp.Gt)) else {sp.Le: sp.Ge, sp.Lt: sp.Gt}[type(cond)]
        if isinstance(big, sp.Min):        # min(a, b) >= c: a >= c and b >= c
            return [r for a in big.args for r in _relations(rel(a, small))]
        if isinstance(small, sp.Max):      # c >= max(a, b): c >= a and c >= b
            return [r for a in small.args for r in _relations(rel(big, a))]
    if isinstance(cond, sp.core.relational.Relational):
        return [cond]
    return []


def _negation(cond) -> list:
    """The negation of a condition as relationals that all hold (x <= 0 for not x > 0; a != 0 and b != 0
    for not (a = 0 or b = 0)), or [] when it is not a conjunction of relationals."""
    cond = sp.sympify(cond)
    if isinstance(cond, sp.core.relational.Relational):
        neg = cond.negated
        return [neg] if isinstance(neg, sp.core.relational.Relational) else []
    if isinstance(cond, sp.Or):
        return [r for arg in cond.args for r in _negation(arg)] if all(_negation(arg) for arg in cond.args) else []
    return []


def _assumed(sym) -> list:
    """The sign assumption of a symbol as a relational (n > 0 for a positive n, n >= 1 for a positive
    integer), or []."""
    if sym.is_integer and sym.is_positive:
        return [sp.Ge(sym, 1, evaluate=False)]
    if sym.is_integer and sym.is_negative:
        return [sp.Le(sym, -1, evaluate=False)]
    for name, rel in (("positive", sp.Gt), ("negative", sp.Lt), ("nonnegative", sp.Ge), ("nonpositive", sp.Le)):
        if getattr(sym, f"is_{name}") is True:
            return [rel(sym, 0, evaluate=False)]
    return []


def _false_under(cond, conditions) -> bool:
    """The relational ``cond`` is false at every point allowed by the symbols' assumptions and the
    ``conditions``: its sides' difference is shown to have the opposite sign."""
    from .proofs import _normal
    cond = sp.sympify(cond)
    if cond is sp.false:
        return True
    if cond is sp.true or not isinstance(cond, sp.core.relational.Relational):
        return False
    conditions = tuple(conditions)
    d = cond.lhs - cond.rhs
    if isinstance(cond, sp.Ne):
        return is_zero(d)
    if isinstance(cond, sp.Eq):
        return _shown(d, "positive", conditions) or _shown(-d, "positive", conditions)
    norm = _normal(cond)
    if norm is None:
        return False
    g, has = norm    # cond says g > 0 (positive) or g >= 0 (nonnegative)
    return _shown(-g, "nonnegative" if has == "positive" else "positive", conditions)


_SIGN_CACHE: dict = {}


def _shown(expr: sp.Expr, need: str, conditions: tuple, depth: int = 6) -> bool:
    """``expr`` has the sign ``need`` (positive | negative | nonnegative) under the symbols' assumptions and
    the ``conditions``, shown by structure: a product, power, sum or quotient from the signs of its parts; an
    exponential is positive; log a has the sign of a - 1; a binomial coefficient C(a, b) of integers with
    0 <= b <= a and the factorial of an integer >= 0 are positive; a maximum is positive when one argument
    is, a minimum when all are; an absolute value is bounded below by its argument and by minus it;
    e^a - e^b has the sign of a - b; a finite sum with a nonempty range from the signs of its terms; a symbol
    whose values a condition lists (x in {...}) value by value; else a positive multiple of a stated
    condition (:func:`derivations.engine.proofs._implied`) or, for a linear expression, a Farkas
    certificate over the linear conditions (:func:`derivations.engine.sums.sign_under`)."""
    expr = release(sp.sympify(expr))
    if need == "negative":
        return _shown(-expr, "positive", conditions, depth)
    key = (expr, need, conditions)
    if key in _SIGN_CACHE:
        return _SIGN_CACHE[key]
    _SIGN_CACHE[key] = False          # a cycle decides nothing
    try:
        ok = _shown_once(expr, need, conditions, depth)
    except Exception:   # a rewrite or an LP SymPy cannot do decides nothing
        ok = False
    _SIGN_CACHE[key] = ok
    return ok


_PLAIN: dict = {}


def _plain(conds: tuple) -> tuple:
    """The inequalities among ``conds`` whose sides are small rational functions (what
    :func:`~derivations.engine.proofs._implied` divides by: a condition holding logarithms or a long sum
    costs much and decides little)."""
    if conds not in _PLAIN:
        _PLAIN[conds] = tuple(c for c in conds if isinstance(c, sp.core.relational.Relational)
                              and not isinstance(c, (sp.Eq, sp.Ne)) and not c.has(sp.Sum, sp.Integral)
                              and sp.count_ops(c) <= 24)
    return _PLAIN[conds]


def _shown_once(e: sp.Expr, need: str, conds: tuple, depth: int) -> bool:
    if getattr(e, f"is_{need}") is True:
        return True
    if e.is_number and not e.has(sp.Sum, sp.Integral):
        try:
            f = e.evalf(30)
            return bool(f.is_Float and f._prec > 1 and (f > 0 if need == "positive" else f >= 0))
        except Exception:   # not a real number SymPy can evaluate
            return False
    if depth <= 0:
        return False
    d = depth - 1
    for cnd in conds:     # a symbol whose values a condition lists: value by value
        if isinstance(cnd, sp.Contains) and isinstance(cnd.args[1], sp.FiniteSet) and cnd.args[0] in e.free_symbols \
                and len(cnd.args[1]) <= 8:
            sym, every = cnd.args[0], True
            for v in cnd.args[1]:
                rest = tuple(sp.sympify(x).subs(sym, v) for x in conds if x is not cnd)
                if any(x is sp.false for x in rest):
                    continue          # the value is excluded by another condition
                if not _shown(e.subs(sym, v), need, tuple(x for x in rest if x is not sp.true), d):
                    every = False
                    break
            if every:
                return True

    def pos(x):
        return _shown(x, "positive", conds, d)

    def nonneg(x):
        return _shown(x, "nonnegative", conds, d)

    strict = need == "positive"
    if isinstance(e, sp.Mul):
        negatives, weak = 0, False
        for f in e.args:
            if pos(f):
                continue
            if pos(-f):
                negatives += 1
            elif not strict and nonneg(f):
                weak = True
            elif not strict and nonneg(-f):
                negatives, weak = negatives + 1, True
            else:
                break
        else:
            return negatives % 2 == 0
    elif isinstance(e, sp.Pow):
        base, ex = e.args
        if ex.is_real and pos(base):
            return True
        if ex.is_integer and ex.is_even and base.is_real and (not strict or _nonzero(base, conds)):
            return True
        if not strict and ex.is_real and nonneg(base):
            return True
    elif isinstance(e, sp.exp):
        if e.args[0].is_real:
            return True
    elif isinstance(e, sp.log):
        return (pos if strict else nonneg)(e.args[0] - 1)
    elif isinstance(e, sp.binomial):
        a, b = e.args
        if a.is_integer and b.is_integer and nonneg(b) and nonneg(a - b):
            return True
    elif isinstance(e, (sp.factorial, sp.gamma)):
        k = e.args[0]
        if (k.is_integer and nonneg(k)) or (isinstance(e, sp.gamma) and pos(k)) or \
                (isinstance(e, sp.factorial) and pos(k + 1)):
            return True
    elif isinstance(e, sp.Max):
        return any((pos if strict else nonneg)(x) for x in e.args)
    elif isinstance(e, sp.Min):
        return all((pos if strict else nonneg)(x) for x in e.args)
    elif isinstance(e, sp.Abs):
        return not strict or _nonzero(e.args[0], conds)
    elif isinstance(e, sp.Integral) and len(e.limits) == 1 and len(e.limits[0]) == 3:
        t, lo, hi = e.limits[0]          # a positive integrand on a nonempty interval
        inner = conds + tuple(r for r in (sp.Gt(t, lo, evaluate=False) if lo.is_finite else None,
                                          sp.Lt(t, hi, evaluate=False) if hi.is_finite else None) if r is not None)
        if (lo.is_infinite or hi.is_infinite or pos(hi - lo)) and (lo is not sp.oo and hi is not -sp.oo) \
                and _shown(e.function, need, inner, d):
            return True
    elif isinstance(e, sp.Sum) and len(e.limits) == 1 and len(e.limits[0]) == 3 and \
            e.limits[0][1].is_Integer and e.limits[0][2].is_Integer and 0 <= e.limits[0][2] - e.limits[0][1] < 16:
        k, lo, hi = e.limits[0]          # a few terms: written out
        return _shown(sp.Add(*(e.function.xreplace({k: sp.Integer(j)}) for j in range(int(lo), int(hi) + 1))),
                      need, conds, d)
    elif isinstance(e, sp.Sum) and len(e.limits) == 1 and len(e.limits[0]) == 3:
        k, lo, hi = e.limits[0]
        inner = conds + (sp.Ge(k, lo, evaluate=False), sp.Le(k, hi, evaluate=False))
        if nonneg(hi - lo) and _shown(e.function, need, inner, d):
            return True
    elif isinstance(e, sp.Add):
        absolutes = [t for t in e.args if isinstance(t, sp.Abs) or
                     (isinstance(t, sp.Mul) and t.args[0].is_positive and any(isinstance(f, sp.Abs) for f in t.args))]
        for t in absolutes[:2] if depth >= 5 else ():   # |u| >= u, |u| >= -u: a lower bound with the sign
            inner = next(f for f in sp.Mul.make_args(t) if isinstance(f, sp.Abs))
            if sum(1 for node in sp.preorder_traversal(e) if node == inner) != 1:
                continue                  # it occurs elsewhere, perhaps with a negative factor: no bound
            for sign in (1, -1):
                if _shown(sp.cancel(e.xreplace({inner: sign * inner.args[0]})), need, conds, d):
                    return True
        signs = [pos(t) or (not nonneg(t) and None) for t in e.args]
        if all(x is not None for x in signs) and (not strict or any(signs)):
            return True
        diff = _exp_difference(e)
        if diff is not None and _shown(diff, need, conds, d):
            return True
    small = sp.count_ops(e) <= (16 if e.has(sp.log, sp.exp) else 40)
    if strict and small and nonneg(e):       # nonnegative and excluded from 0 by a condition a != b
        for cnd in conds:
            if isinstance(cnd, sp.Ne) and (cnd.lhs - cnd.rhs) != 0:
                ratio = sp.cancel(e / (cnd.lhs - cnd.rhs))
                if ratio.is_number and ratio.is_nonzero:
                    return True
    linear = _is_linear(e)
    if isinstance(e, sp.Add) and small and _lp_shown(e, need, conds):
        return True
    from .proofs import _implied
    if small and depth >= 4 and not linear and e.free_symbols and _plain(conds) and _implied(e, need, _plain(conds)):
        return True
    if small and isinstance(e, sp.Add) and e.is_polynomial() and len(e.args) < 12:
        f = sp.factor(e)
        if f != e and isinstance(f, (sp.Mul, sp.Pow)) and _shown(f, need, conds, d):
            return True
    if small and isinstance(e, sp.Add) and any(isinstance(t, sp.Pow) and t.exp.is_negative for x in e.args
                                               for t in sp.Mul.make_args(x)):
        num, den = sp.fraction(sp.together(e))
        if den != 1 and (pos(num) and pos(den) or (not strict and nonneg(num) and pos(den))):
            return True
    return False


def _exp_difference(expr: sp.Expr) -> sp.Expr | None:
    """For ``expr = e^a - e^b`` (or ``e^a - c``, ``c - e^b`` with a positive number c), the real difference
    of the exponents ``a - b`` (``a - log c``), which has the same sign since exp is increasing; else None."""
    if not isinstance(expr, sp.Add) or len(expr.args) != 2:
        return None

    def exponent(term):
        if isinstance(term, sp.exp) and term.args[0].is_real:
            return term.args[0]
        if term.is_number and term.is_positive:
            return sp.log(term)
        return None

    a, b = expr.args
    for plus, minus in ((a, b), (b, a)):
        up, down = exponent(plus), exponent(-minus)
        if up is not None and down is not None and (isinstance(plus, sp.exp) or isinstance(-minus, sp.exp)):
            return up - down
    return None


def _excluded(sym, value, conditions: tuple) -> bool:
    """The point ``sym = value`` lies outside the conditions or ``sym``'s assumptions: one of them is false
    there for every value of the other symbols."""
    if sym.is_integer and value.is_integer is False:
        return True
    plain = _plain(tuple(conditions))
    for cond in tuple(conditions) + tuple(_assumed(sym)):
        if not isinstance(cond, sp.core.relational.Relational) or sym not in cond.free_symbols \
                or sp.count_ops(cond) > 24 or cond.has(sp.log, sp.Sum, sp.Integral):
            continue
        if _false_under(cond.subs(sym, value), plain):
            return True
    return False


_NONZERO_CACHE: dict = {}


def _nonzero(expr: sp.Expr, conditions: tuple) -> bool:
    """``expr`` is nonzero at every admissible point: by its sign (:func:`_shown`), factor by factor, as a
    multiple of a - b for a stated condition a != b, or because every real zero of it in one of its symbols
    (SymPy's ``solveset`` over the reals, when it returns a finite set) is excluded by a condition or an
    assumption (the point x = 1 by x != 1 or x > 1)."""
    expr = release(sp.sympify(expr))
    key = (expr, conditions)
    if key not in _NONZERO_CACHE:
        _NONZERO_CACHE[key] = False
        try:
            _NONZERO_CACHE[key] = _nonzero_once(expr, conditions)
        except Exception:   # a factorisation or a solution set SymPy cannot compute decides nothing
            pass
    return _NONZERO_CACHE[key]


def _nonzero_once(expr: sp.Expr, conditions: tuple) -> bool:
    if expr.is_nonzero is True:
        return True
    if expr.is_zero is True:
        return False
    if _shown(expr, "positive", conditions) or _shown(-expr, "positive", conditions):
        return True
    if isinstance(expr, sp.Mul):
        return all(_nonzero(f, conditions) for f in expr.args)
    if isinstance(expr, sp.Pow):
        return expr.exp.is_positive is True and _nonzero(expr.base, conditions)
    for cnd in conditions:
        if isinstance(cnd, sp.Ne):
            gap = cnd.lhs - cnd.rhs
            ratio = sp.cancel(expr / gap) if gap != 0 else None
            if ratio is not None and ratio.is_number and ratio.is_nonzero:
                return True
    if expr.has(sp.Sum, sp.Integral, sp.Piecewise, sp.Abs, sp.Max, sp.Min) or sp.count_ops(expr) > 40:
        return False
    if isinstance(expr, sp.Add) and expr.is_polynomial():
        f = sp.factor(expr)
        if isinstance(f, (sp.Mul, sp.Pow)):
            return _nonzero(f, conditions)
    for sym in sorted(expr.free_symbols, key=str):
        if not isinstance(sym, sp.Symbol) or sym.is_real is not True:
            continue
        try:
            zeros = sp.solveset(expr, sym, sp.S.Reals)
        except Exception:   # no solution set: undecided
            continue
        if zeros is sp.S.EmptySet:
            return True
        if isinstance(zeros, sp.FiniteSet) and len(zeros) <= 4 and all(sp.count_ops(z) <= 12 for z in zeros) \
                and all(_excluded(sym, z, conditions) for z in zeros):
            return True
    return False


_DEFINED_CACHE: dict = {}


def undefined_points(expr: sp.Expr, conditions: Iterable = ()) -> list[str]:
    """Where ``expr`` may be undefined under ``conditions`` and its symbols' assumptions: each denominator
    (a power with an exponent not shown nonnegative) not shown nonzero and each logarithm whose argument is
    not shown positive, as descriptions; empty when the expression is defined at every admissible point.

    The printed expression is read as built (a notation's definition and a held form inside it, without
    carrying them out, so that nothing cancels first).  Inside a sum or product the index ranges over its
    limits; inside an integral the variable over the open interval of its limits (an integrand undefined at
    an endpoint, as 1/sqrt(t) at 0, leaves the integral defined); inside a piecewise expression a piece is
    read under its condition and the negations of the conditions before it; a limit is not read (its
    expression may be undefined at the point it approaches)."""
    from .notation import Defined

    conditions = tuple(r for cnd in conditions for r in (_relations(cnd) or [sp.sympify(cnd)]))
    found: list[str] = []

    def walk(e, conds):
        if not isinstance(e, sp.Basic) or e.is_Atom:
            return
        if isinstance(e, Defined):
            return walk(e.definition, conds)
        if isinstance(e, sp.Limit):
            return
        if isinstance(e, (sp.Sum, sp.Product, sp.Integral)):
            inner = conds
            for lim in e.limits:
                var, *ends = lim
                for end in ends:
                    walk(end, conds)
                if len(ends) == 2:
                    lo, hi = ends
                    strict = isinstance(e, sp.Integral)
                    if not lo.is_infinite:
                        inner = inner + ((sp.Gt if strict else sp.Ge)(var, lo, evaluate=False),)
                    if not hi.is_infinite:
                        inner = inner + ((sp.Lt if strict else sp.Le)(var, hi, evaluate=False),)
            return walk(e.function, inner)
        if isinstance(e, sp.Piecewise):
            before: tuple = ()
            for piece, cnd in e.args:
                walk(piece, conds + before + tuple(_relations(cnd)))
                before = before + tuple(_negation(cnd))
            return
        if isinstance(e, sp.Pow):
            base, ex = e.args
            if not (ex.is_nonnegative is True or _shown(ex, "nonnegative", conds)) and not _nonzero(base, conds):
                found.append(f"the denominator {base} may vanish")
        elif isinstance(e, sp.log):
            if not _shown(e.args[0], "positive", conds):
                found.append(f"the argument of the logarithm log({e.args[0]}) may not be positive")
        for arg in e.args:
            walk(arg, conds)

    expr = sp.sympify(expr)
    key = (expr, conditions)
    if key not in _DEFINED_CACHE:
        walk(expr, conditions)
        _DEFINED_CACHE[key] = list(dict.fromkeys(found))
    return list(_DEFINED_CACHE[key])


def vacuity(c: Claim) -> str | None:
    """Why the claim's conditions cannot all hold (the claim is vacuous), or None when that is not shown:
    a condition false for every value its symbols' assumptions allow, or the linear conditions (with the
    symbols' signs) infeasible over the reals, decided by SymPy's exact simplex (the largest t with every
    strict condition's side >= t is <= 0, or no point at all)."""
    rels = [r for cnd in c.conditions for r in _relations(cnd)]
    for cnd in c.conditions:      # a linear condition is decided with the others below
        cnd = sp.sympify(cnd)
        if cnd is sp.false or (isinstance(cnd, sp.core.relational.Relational) and not _linear_rows([cnd])
                               and sp.count_ops(cnd) <= 16 and _false_under(cnd, ())):
            return f"the condition {cnd} holds for no value its symbols' assumptions allow"
    if _infeasible(_linear_rows(c.conditions)):
        return "the linear conditions (with the symbols' signs) have no common real point"
    return None


def _linear_rows(conditions: Iterable) -> list[tuple[sp.Expr, bool]]:
    """The linear relational conditions as rows ``(g, strict)`` meaning g >= 0 (g > 0 when strict); an
    equality gives two rows.  Conditions that are not linear in symbols are left out."""
    from .proofs import _normal
    rows = []
    for r in (r for cnd in conditions for r in _relations(cnd)):
        if isinstance(r, sp.Eq):
            pairs = [(r.lhs - r.rhs, False), (r.rhs - r.lhs, False)]
        else:
            norm = _normal(r)
            if norm is None:
                continue
            pairs = [(norm[0], norm[1] == "positive")]
        for g, strict in pairs:
            g = sp.expand(g)
            free = g.free_symbols
            if _is_linear(g):
                if strict and all(v.is_integer for v in g.free_symbols) and \
                        all(k.is_integer for k in sp.Poly(g, *g.free_symbols).coeffs()):
                    g, strict = g - 1, False       # an integer g > 0 is g >= 1
                rows.append((g, strict))
    return rows


def _is_linear(g: sp.Expr) -> bool:
    """``g`` is a polynomial of degree at most 1 in its symbols (and has one)."""
    free = g.free_symbols
    if not free or not all(isinstance(v, sp.Symbol) for v in free):
        return False
    try:
        return g.is_polynomial(*free) and sp.Poly(g, *free).total_degree() <= 1
    except sp.PolynomialError:
        return False


_LP_CACHE: dict = {}


def _infeasible(rows: list[tuple[sp.Expr, bool]], cap: int = 4000) -> bool:
    """No real point satisfies every row (g >= 0, or g > 0 when strict) together with the sign assumptions
    of the rows' symbols: decided exactly by Fourier-Motzkin elimination over the rationals (each symbol
    eliminated by every positive combination of a row bounding it from below with one bounding it from
    above; the rows left are numbers, and the system has no point iff one of them is negative, or zero and
    strict).  True only when shown; a system whose elimination grows beyond ``cap`` rows is not decided."""
    syms = sorted(set().union(*(g.free_symbols for g, _ in rows)) if rows else set(), key=str)
    rows = list(rows) + [_normal_of(r) for v in syms for r in _assumed(v)]
    key = tuple(rows)
    if key in _LP_CACHE:
        return _LP_CACHE[key]
    try:
        table = set()
        for g, strict in rows:
            poly = sp.Poly(g, *syms) if syms else None
            coeffs = tuple(sp.Rational(poly.coeff_monomial(v)) for v in syms) if syms else ()
            const = sp.Rational(poly.coeff_monomial(1)) if syms else sp.Rational(g)
            table.add(_scaled(coeffs, const, strict))
        out = None
        for k in range(len(syms)):
            lower = [r for r in table if r[0][k] > 0]
            upper = [r for r in table if r[0][k] < 0]
            rest = {r for r in table if r[0][k] == 0}
            for (cl, dl, sl) in lower:
                for (cu, du, su) in upper:
                    a, b = -cu[k], cl[k]        # a * lower + b * upper cancels the symbol
                    rest.add(_scaled(tuple(a * x + b * y for x, y in zip(cl, cu)), a * dl + b * du, sl or su))
            if len(rest) > cap:
                out = False
                break
            table = rest
        if out is None:
            out = any(d < 0 or (d == 0 and strict) for c, d, strict in table if not any(c))
    except (sp.PolynomialError, TypeError, ValueError):   # a row that is not linear with rational coefficients
        out = False
    _LP_CACHE[key] = bool(out)
    return bool(out)


def _scaled(coeffs: tuple, const, strict: bool) -> tuple:
    """A row c.x + d >= 0 (> 0) scaled by a positive number so that equal rows compare equal."""
    lead = next((abs(x) for x in coeffs if x != 0), None)
    if lead is None:
        return coeffs, const, strict
    return tuple(x / lead for x in coeffs), const / lead, strict


def _normal_of(r) -> tuple[sp.Expr, bool]:
    from .proofs import _normal
    g, kind = _normal(r)
    return g, kind == "positive"


def _lp_shown(e: sp.Expr, need: str, conditions: tuple) -> bool:
    """A linear ``e`` has the sign ``need`` under the linear conditions: e <= 0 (e < 0 for nonnegative)
    together with them has no real point (:func:`_infeasible`).  A quadratic ``e`` or condition is first made
    linear: each product u v of two symbols becomes a new variable w bounded by McCormick's inequalities from
    the numeric bounds of u and v ((u - l_u)(v - l_v) >= 0 and the like), which every point satisfies."""
    if e.has(sp.Indexed) or any(sp.sympify(c).has(sp.Indexed) for c in conditions):
        names = {}                                   # each indexed quantity as a symbol with its assumptions
        for x in [e, *conditions]:
            for ix in sp.sympify(x).atoms(sp.Indexed):
                names.setdefault(ix, sp.Dummy(str(ix), **{a: True for a in ("integer", "positive", "nonnegative",
                                                                            "negative", "nonpositive", "real")
                                                          if getattr(ix, f"is_{a}") is True}))
        e = e.xreplace(names)
        conditions = tuple(sp.sympify(c).xreplace(names) for c in conditions)
    if _is_linear(e) and _infeasible(_linear_rows(conditions) + [(-sp.expand(e), need != "positive")]):
        return True
    if not _is_quadratic(e):
        return False
    rows = [(sp.expand(g), st) for g, st in _rows(conditions) if _is_quadratic(sp.expand(g))]
    target = (-sp.expand(e), need != "positive")
    products, squares = set(), set()
    for g, _ in rows + [target]:
        for term in sp.Add.make_args(g):
            syms = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.Symbol)]
            if len(syms) == 2:
                products.add(tuple(sorted(syms, key=str)))
            squares |= {f.base for f in sp.Mul.make_args(term)
                        if isinstance(f, sp.Pow) and isinstance(f.base, sp.Symbol) and f.exp == 2}
    if not (products or squares) or len(products) + len(squares) > 4:
        return False
    linear = [(g, st) for g, st in rows if _is_linear(g)]
    names = {}
    extra = []
    for u in sorted(squares, key=str):       # u^2 below the secant and above the tangents at the bounds
        w = names[u**2] = sp.Dummy(f"{u}2")
        lu, hu = _bounds(u, linear)
        if lu is not None and hu is not None:
            extra.append((-w + (lu + hu) * u - lu * hu, False))
        for a in (x for x in (lu, hu) if x is not None):
            extra.append((w - 2 * a * u + a**2, False))
    for u, v in sorted(products, key=str):
        w = names[u * v] = sp.Dummy(f"{u}{v}")
        (lu, hu), (lv, hv) = _bounds(u, linear), _bounds(v, linear)
        if lu is not None and lv is not None:
            extra.append((w - lu * v - lv * u + lu * lv, False))
        if hu is not None and hv is not None:
            extra.append((w - hu * v - hv * u + hu * hv, False))
        if hu is not None and lv is not None:
            extra.append((-w + hu * v + lv * u - hu * lv, False))
        if lu is not None and hv is not None:
            extra.append((-w + lu * v + hv * u - lu * hv, False))
    def renamed(g):          # each term c u v (c u^2) as c w, term by term
        return sp.Add(*(c * names.get(m, m) for c, m in (t.as_coeff_Mul() for t in sp.Add.make_args(g))))

    lin = [(sp.expand(renamed(g)), st) for g, st in rows + [target]]
    if not all(_is_linear(g) or not g.free_symbols for g, _ in lin):
        return False
    return _infeasible([r for r in lin if r[0].free_symbols] + extra)


def _is_quadratic(g: sp.Expr) -> bool:
    free = g.free_symbols
    if not free or not all(isinstance(v, sp.Symbol) for v in free):
        return False
    try:
        return g.is_polynomial(*free) and sp.Poly(g, *free).total_degree() <= 2
    except sp.PolynomialError:
        return False


def _rows(conditions) -> list:
    """The inequality conditions as rows (g, strict): g >= 0, or g > 0."""
    from .proofs import _normal
    out = []
    for r in (r for cnd in conditions for r in _relations(cnd)):
        norm = _normal(r) if not isinstance(r, (sp.Eq, sp.Ne)) else None
        if norm is not None:
            out.append((norm[0], norm[1] == "positive"))
    return out


def _bounds(sym, rows) -> tuple:
    """Numeric (lower, upper) bounds of ``sym`` from its assumptions and the rows a s + c >= 0 in it alone."""
    lo = 1 if sym.is_integer and sym.is_positive else 0 if sym.is_nonnegative else None
    hi = -1 if sym.is_integer and sym.is_negative else 0 if sym.is_nonpositive else None
    for g, _ in rows:
        if g.free_symbols != {sym}:
            continue
        a = g.coeff(sym)
        end = -(g - a * sym) / a
        if a > 0:
            lo = end if lo is None else max(lo, end)
        elif a < 0:
            hi = end if hi is None else min(hi, end)
    return lo, hi


def finite_domain(c: Claim, limit: int = 200_000) -> tuple[set | None, str]:
    """The points of a finite claim's domain, derived from its conditions and its symbols' assumptions:
    ``(points, "")`` with each point a frozenset of (symbol, value), or ``(None, why)`` when the domain is
    not shown finite.  A symbol takes the values of a condition ``x ∈ {...}`` or ``x = a``, or, if it is an
    integer, every integer between the bounds its assumptions and the linear conditions give it (from
    numbers and from symbols already bounded); the points are then those of the product of these values
    at which every condition holds, decided exactly."""
    from itertools import product

    from .proofs import _Inside, _normal
    syms = sorted(c.symbols(), key=str)
    if any(not isinstance(s, sp.Symbol) for s in syms):
        return None, "the statement has indexed quantities: its domain is not a finite set of values of symbols"
    values: dict = {}
    rels = [r for cnd in c.conditions for r in _relations(cnd)]
    for cnd in c.conditions:
        cnd = sp.sympify(cnd)
        if isinstance(cnd, sp.Contains) and cnd.args[0] in syms and isinstance(cnd.args[1], sp.FiniteSet):
            values[cnd.args[0]] = list(cnd.args[1])
    for r in rels:
        if isinstance(r, sp.Eq) and r.lhs in syms and r.rhs.is_number and r.lhs not in values:
            values[r.lhs] = [r.rhs]
    progress = True
    while progress:
        progress = False
        for s in syms:
            if s in values or not s.is_integer:
                continue
            lo = 1 if s.is_positive else 0 if s.is_nonnegative else None
            hi = -1 if s.is_negative else 0 if s.is_nonpositive else None
            for r in rels:
                norm = _normal(r)
                if norm is None:
                    continue
                g = sp.expand(norm[0])          # g >= 0 (or > 0)
                a = g.coeff(s)
                rest = g - a * s
                if not a.is_number or a == 0 or s in rest.free_symbols:
                    continue
                if not all(v in values for v in rest.free_symbols):
                    continue
                others = sorted(rest.free_symbols, key=str)
                ends = [-(rest.xreplace(dict(zip(others, combo)))) / a for combo in product(*(values[o] for o in others))]
                if not ends or not all(e.is_number for e in ends):
                    continue
                if a > 0:      # s >= -rest/a
                    b = sp.ceiling(min(ends))
                    lo = b if lo is None else max(lo, b)
                else:          # s <= -rest/a
                    b = sp.floor(max(ends))
                    hi = b if hi is None else min(hi, b)
            if lo is not None and hi is not None:
                if hi - lo > limit:
                    return None, f"{s} ranges over more than {limit} integers"
                values[s] = [sp.Integer(k) for k in range(int(lo), int(hi) + 1)]
                progress = True
    unbounded = [str(s) for s in syms if s not in values]
    if unbounded:
        return None, (f"the domain is not finite: {', '.join(unbounded)} "
                      f"{'is' if len(unbounded) == 1 else 'are'} not confined to finitely many values by the "
                      "conditions and assumptions")
    total = 1
    for s in syms:
        total *= max(len(values[s]), 1)
    if total > limit:
        return None, f"the domain has more than {limit} candidate points"
    inside = _Inside(c)
    points = set()
    for combo in product(*(values[s] for s in syms)):
        pt = dict(zip(syms, combo))
        if inside(pt) or _outside(c, pt) is None:
            points.add(frozenset(pt.items()))
    return points, ""


def _point_key(pt, syms) -> frozenset:
    return frozenset((k, sp.sympify(v)) for k, v in dict(pt).items() if k in syms)


def preflight(c: Claim) -> tuple[str, bool] | None:
    """Why the claim cannot be proved as stated, before any proof runs, or None: ``(reason, malformed)``.

    An assumption of a symbol that :meth:`Claim.hypotheses` does not show (malformed: the claim would be
    read as a wider one); conditions that cannot all hold (the claim is vacuous); a denominator that may
    vanish or a logarithm whose argument may be nonpositive at an admissible point of the statement (the
    point must be excluded by a condition, or the statement is false there, where it is undefined)."""
    hidden = hidden_assumptions(c)
    if hidden:
        return ("refused: assumptions on symbols that the claim's hypotheses do not show ("
                + "; ".join(hidden) + "): state them as conditions or declare what is shown", True)
    why = vacuity(c)
    if why is not None:
        return f"refused: the claim is vacuous: {why}", False
    if c.kind in ("identity", "inequality", "sign") and not c.finite:
        bad = undefined_points(c.lhs, c.conditions) + undefined_points(c.rhs, c.conditions)
        if bad:
            return ("refused: the statement is not shown defined at every admissible point: "
                    + "; ".join(dict.fromkeys(bad)) + " (exclude the point by a condition)", False)
    return None

# ----------------------------------------------------------------------------------------
# Verification methods
# ----------------------------------------------------------------------------------------
def _proof_strength(steps: tuple[Step, ...], target: str) -> tuple[str, str]:
    """(strength, remark) of a passing proof: tied to the statement or not, and its step kinds."""
    last = steps[-1] if steps else None
    if last is None or last.kind != "conclusion" or last.target != target or not _minted(last):
        return "argued", "the proof does not end in a check of the stated claim"
    kinds = {st.kind for st in steps}
    if "argument" in kinds:
        return "argued", "some step is neither mechanical nor a citation"
    return ("citations" if "citation" in kinds else "mechanical"), ""


def _call(fn: Callable, c: Claim):
    """Call a proof or enumeration routine with the claim when it takes an argument."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    takes = [q for q in params.values() if q.default is inspect.Parameter.empty
             and q.kind in (q.POSITIONAL_ONLY, q.POSITIONAL_OR_KEYWORD)]
    return fn(c) if takes else fn()


def _private(c: Claim, routine: Callable, *args):
    """Run ``routine`` on a private copy of the claim: ``(result, why)``, ``why`` saying how the routine
    changed the claim it was given (or the claim itself), else None.  The digest is taken before the
    routine runs; a claim the routine changed is put back as it was."""
    target = c.digest()
    saved = dict(vars(c))
    work = copy.copy(c)
    out = routine(work, *args)
    why = None
    if work.digest() != target or c.digest() != target:
        why = "the proof routine changed the claim it was given (its digest is no longer the statement's)"
    if c.digest() != target:
        vars(c).update(saved)
    return out, why


def _symbolic(c: Claim) -> Check:
    t0 = time.perf_counter()
    if c.counterexample is not None:
        return _refutation(c, t0)
    refused = preflight(c)
    if refused is not None:
        return Check("symbolic", False, time.perf_counter() - t0, refused[0], error=refused[1])
    target = c.digest()

    def run(work: Claim) -> Proof:
        if work.proof is not None:
            return _call(work.proof, work)
        if work.kind == "identity":
            from .proofs import conclude
            return conclude(work)
        if work.kind in ("divergence", "limit"):
            from .proofs import conclude_evaluation
            return conclude_evaluation(work)
        return Proof(Step("argument", "no symbolic proof routine", False))   # inequalities and signs need one

    p, changed = _private(c, run)
    steps = [st.as_dict() for st in p.steps]
    cites = sorted({st.citation for st in p.steps if st.citation})
    detail = "; ".join(f"[{st.kind}] {st.text}" for st in p.steps)
    if changed:
        return Check("symbolic", False, time.perf_counter() - t0, f"{changed}; {detail}", error=True, steps=steps)
    if not p.ok:
        return Check("symbolic", False, time.perf_counter() - t0, detail, steps=steps, citations=cites)
    strength, remark = _proof_strength(p.steps, target)
    return Check("symbolic", True, time.perf_counter() - t0, detail + (f"; ({remark})" if remark else ""),
                 strength=strength, steps=steps, citations=cites)


_ASSUMPTIONS = ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "integer", "real",
                "rational", "finite", "even", "odd", "prime", "composite", "extended_positive",
                "extended_nonnegative", "extended_negative", "extended_nonpositive", "extended_real")


def _outside(c: Claim, point: Mapping[sp.Symbol, sp.Expr]) -> str | None:
    """Why ``point`` is not an admissible instance of the claim, or None if it is: every free symbol
    of the statement and conditions assigned, each value meeting its symbol's assumptions and every
    condition true, all decided exactly."""
    free = set(c.lhs.free_symbols) | set(c.rhs.free_symbols)
    for cond in c.conditions:
        free |= sp.sympify(cond).free_symbols
    missing = sorted(str(sym) for sym in free if sym not in point)
    if missing:
        return f"no value for {', '.join(missing)}"
    for sym, val in point.items():
        val = sp.sympify(val)
        if val.free_symbols:
            return f"the value of {sym} is not a number: {val}"
        if getattr(sym, "is_Symbol", False) or isinstance(sym, sp.Indexed):
            flags = sym.assumptions0 if getattr(sym, "is_Symbol", False) else \
                {a: True for a in _ASSUMPTIONS if getattr(sym, f"is_{a}") is True}
            for name, want in flags.items():
                if want is True and name not in ("commutative",) and getattr(val, f"is_{name}", None) is not True:
                    return f"{sym} = {val} is not {name}"
    for cond in c.conditions:
        val = sp.sympify(cond).subs(point)
        if val is not sp.true:
            val = sp.simplify(val)
        if val is not sp.true:
            return f"condition {cond} is not satisfied ({val})"
    return None


def _refutation(c: Claim, t0: float) -> Check:
    """Refute at the claim's counterexample (and at its illustration, when it has one), after checking
    exactly that each point lies inside the claim's conditions and its symbols' assumptions."""
    cex = {str(k): str(v) for k, v in c.counterexample.items()}
    points = [("counterexample", c.counterexample)]
    if c.illustration is not None:
        points.append(("illustration", c.illustration))
    records, details, holds_any = [], [], False
    for role, point in points:
        why = _outside(c, point)
        if why is not None:
            return Check("symbolic", False, time.perf_counter() - t0,
                         f"the {role} lies outside the stated claim: {why}", error=True)
        lhs, rhs = _values_at(c, point)
        holds = _decide(c, lhs, rhs)
        holds_any |= holds
        records.append(evaluation_record(role, point, lhs, rhs, holds))
        details.append(f"{role} inside the conditions and assumptions (checked); exact evaluation: "
                       f"lhs = {lhs}, rhs = {rhs}" + (" (the statement holds there)" if holds else ""))
    return Check("symbolic", holds_any, time.perf_counter() - t0, "; ".join(details),
                 counterexample=None if holds_any else cex, strength="mechanical" if holds_any else None,
                 evaluations=records)


def decimal_of(value) -> str:
    """``value``'s decimal form as a reader checks it by eye, with the sign that says whether it is
    exact: ``"= 0.01"`` for 1/100, ``"≈ -6.687"`` for 1 - 16 ln(2)^2; ``""`` for an integer, an
    infinity or anything that is not a real number."""
    value = sp.sympify(value)
    if not value.is_number or value.is_Integer or value.is_infinite or value.is_real is False:
        return ""
    try:
        approx = sp.N(value, 30)
    except Exception:   # a number SymPy cannot evaluate: no decimal rather than a wrong one
        return ""
    if not approx.is_Float:
        return ""
    text = mpmath.nstr(mpmath.mpf(approx), 4, strip_zeros=True, min_fixed=-3, max_fixed=7)
    try:
        exact = value.is_Rational and sp.Rational(text) == value
    except (TypeError, ValueError):
        exact = False
    return ("= " if exact else "≈ ") + text


def evaluation_record(role: str, point: Mapping, lhs: sp.Expr, rhs: sp.Expr, holds: bool) -> dict:
    """One exact evaluation of a statement, for the reports: the point and both sides (``srepr``, so
    that a report rebuilds the expressions) with their decimals."""
    return {"role": role, "holds": bool(holds),
            "point": [[sp.srepr(k), sp.srepr(sp.sympify(v)), decimal_of(v)] for k, v in point.items()],
            "lhs": sp.srepr(lhs), "lhs_decimal": decimal_of(lhs),
            "rhs": sp.srepr(rhs), "rhs_decimal": decimal_of(rhs)}


def bound_variables(expr: sp.Expr) -> set:
    """The variables bound inside ``expr``: of its sums, products, integrals, lambdas, substitutions,
    derivatives and limits."""
    from sympy.concrete.expr_with_limits import ExprWithLimits
    out = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, (ExprWithLimits, sp.Lambda, sp.Subs, sp.Derivative)):
            out.update(node.variables)
        elif isinstance(node, sp.Limit):
            out.add(node.args[1])
    return out


@functools.lru_cache(maxsize=1024)
def _released(expr: sp.Expr) -> tuple[sp.Expr, frozenset]:
    """``expr`` with its notation released, and the variables bound inside it (once per side of a claim,
    not once per enumerated point)."""
    expr = release(expr)
    return expr, frozenset(bound_variables(expr))


def _values_at(c: Claim, point: Mapping[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    """Both sides of the statement evaluated exactly at one point.

    When every value of the point is a number and no symbol of the point is bound inside a side (the
    variable of a sum, product, integral, limit, derivative, lambda or substitution), the values are put
    in all at once and the tree is rebuilt bottom-up with SymPy's evaluation (``xreplace``): the value
    ``subs`` gives, without ``subs``'s intermediate expressions (it puts the values in one symbol at a time
    and re-evaluates the whole expression, the conditions of piecewise expressions included, after each
    one); a sum whose limits have become integers is then written out term by term.  Otherwise ``subs``.
    Then ``doit``; where integrals remain, they are evaluated first with an equal integrand in a normal
    form (absolute values as piecewise expressions, folded, each piece expanded with its powers
    combined), and as they stand if that leaves an integral or an undefined value."""
    bound = bound_variables
    values = {k: sp.sympify(v) for k, v in point.items()}
    numbers = bool(values) and all(v.is_number and not v.free_symbols for v in values.values())

    def terms(s):
        """A sum whose limits are now integers a <= b + 1 as the sum of its terms f(a) + ... + f(b) (none for
        b = a - 1), each term the summand with the index given its value; any other sum unchanged."""
        if len(s.limits) != 1 or len(s.limits[0]) != 3:
            return s
        i, lo, hi = s.limits[0]
        if not (lo.is_Integer and hi.is_Integer) or hi < lo - 1 or hi - lo > 10_000 or i in bound(s.function):
            return s
        return sp.Add(*(s.function.xreplace({i: sp.Integer(k)}) for k in range(int(lo), int(hi) + 1)))

    def at(expr):
        expr, bound_here = _released(expr)
        if numbers and not (set(values) & bound_here):
            expr = expr.xreplace(values)
            while expr.has(sp.Sum):           # finite sums with integer limits, innermost first
                done = expr.replace(lambda e: isinstance(e, sp.Sum), terms)
                if done == expr:
                    break
                expr = done
            return expr
        return expr.subs(point)

    def value(expr):
        if not expr.has(sp.Integral):
            return expr.doit()

        def normal(f):
            f = sp.piecewise_fold(sp.expand(f.rewrite(sp.Piecewise)))
            if isinstance(f, sp.Piecewise):
                return sp.Piecewise(*((sp.powsimp(sp.expand(e)), cnd) for e, cnd in f.args))
            return sp.powsimp(sp.expand(f))

        try:
            out = expr.replace(lambda e: isinstance(e, sp.Integral),
                               lambda e: sp.Integral(normal(e.function), *e.limits)).doit()
            if not out.has(sp.Integral, sp.nan, sp.zoo):
                return out
        except Exception:   # a rewrite that does not apply: the integrals as they stand
            pass
        return expr.doit()

    return value(at(c.lhs)), value(at(c.rhs))


def undefined_value(value) -> bool:
    """``value`` is undefined: nan, complex infinity (zoo) or an expression holding one, or a relational
    or boolean that is not a decided truth value."""
    value = sp.sympify(value)
    if isinstance(value, sp.core.relational.Relational) or (
            isinstance(value, sp.logic.boolalg.Boolean) and not isinstance(value, sp.Expr)
            and value not in (sp.true, sp.false)):
        return True
    return value is sp.nan or value is sp.zoo or value.has(sp.nan, sp.zoo)


def _decide(c: Claim, lhs: sp.Expr, rhs: sp.Expr) -> bool:
    """Whether ``lhs <relation> rhs`` holds for two exact numbers.

    The sign of ``lhs - rhs`` is read first where that is exact: for a rational exactly; for a number built
    from rationals, constants, +, *, powers, exp and log from SymPy's ``evalf``, which carries the accuracy
    of its result (mpmath with tracked error): a real Float with at least one significant bit has the sign
    of the number -- the rule by which SymPy itself compares numbers
    (``Expr._eval_is_extended_positive_negative``, at 2 digits; here at 20).  An inequality is then
    decided; an identity is refuted when the difference is nonzero and at least 1e-40 in size (as the
    60-digit test below would).  A complex, zero or insignificant value, an infinite side or any other
    function decides nothing there, and the tests below decide."""
    def sign(d):
        """(sign, magnitude) of the number d, or None."""
        if d.is_Rational:
            return (d.p > 0) - (d.p < 0), abs(d)
        exact = (sp.Number, sp.NumberSymbol, sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log)
        if not d.is_number or not all(isinstance(node, exact) for node in sp.preorder_traversal(d)):
            return None
        try:
            f = d.evalf(20)
        except (ValueError, TypeError, ArithmeticError):
            return None
        if not f.is_Float or f._prec == 1 or f == 0:
            return None
        return (1 if f > 0 else -1), abs(f)

    if undefined_value(lhs) or undefined_value(rhs):
        return False       # nan, zoo or an undefined comparison satisfies no relation, equality included
    if c.relation == "==":
        if lhs.is_infinite or rhs.is_infinite:
            return lhs == rhs
        known = sign(sp.sympify(lhs - rhs))
        if known is not None:
            if known[0] == 0:
                return True
            if known[1] >= sp.Float("1e-40"):
                return False
        if is_zero(lhs - rhs):
            return True
        # not shown to vanish: refute only if the difference is certainly non-zero
        diff = sp.N(lhs - rhs, 60)
        if not diff.is_number or abs(diff) < sp.Float("1e-45"):
            raise ValueError(f"cannot decide lhs == rhs at the point (difference {diff})")
        return False

    known = sign(sp.sympify(lhs - rhs))      # an infinite side: the difference is not a Float, no decision here
    if known is not None:
        s = known[0]
        return {"<": s < 0, "<=": s <= 0, ">": s > 0, ">=": s >= 0}[c.relation]
    return bool(RELATIONS[c.relation](lhs, rhs))


def _evaluate_at(c: Claim, point: Mapping[sp.Symbol, sp.Expr]) -> tuple[bool, str]:
    """Decide the statement exactly at one point.  Returns (holds, description)."""
    lhs, rhs = _values_at(c, point)
    return _decide(c, lhs, rhs), f"lhs = {lhs}, rhs = {rhs}"


def _construction(c: Claim) -> Check:
    """A statement true by the encoding's own definitions: both sides are the same expression as built.
    Nothing is verified; the label says so."""
    t0 = time.perf_counter()
    ok = c.folded()
    return Check("construction", ok, time.perf_counter() - t0,
                 "lhs and rhs are the same expression as the claim is built: true by the definitions of the "
                 "encoding, not checked" if ok else "the two sides differ: not a statement by construction",
                 strength="construction" if ok else None)


def _enumeration(c: Claim) -> Check:
    t0 = time.perf_counter()
    domain = None
    if c.finite:
        hidden = hidden_assumptions(c)
        if hidden:
            return Check("enumeration", False, time.perf_counter() - t0,
                         "refused: assumptions on symbols that the claim's hypotheses do not show ("
                         + "; ".join(hidden) + ")", error=True)
        domain, why = finite_domain(c)
        if domain is None:
            return Check("enumeration", False, time.perf_counter() - t0,
                         f"refused: finite=True, but {why}", error=True)
        if not domain:
            return Check("enumeration", False, time.perf_counter() - t0,
                         "refused: the claim is vacuous: no point satisfies its conditions and assumptions")
    target = c.digest()
    e, changed = _private(c, lambda work: _call(work.enumeration, work))
    if changed:
        return Check("enumeration", False, time.perf_counter() - t0, changed, error=True)
    detail = f"{e.cases} cases enumerated exactly" + (f"; {e.detail}" if e.detail else "")
    cex = dict(e.counterexample) if e.counterexample else None
    if not e.ok:
        return Check("enumeration", False, time.perf_counter() - t0, detail, counterexample=cex, scope=e.scope)
    if c.finite:
        if e.target != target:
            return Check("enumeration", True, time.perf_counter() - t0,
                         detail + "; (the cases did not evaluate the stated relation: not a proof)",
                         strength="argued", scope=e.scope)
        syms = set(c.symbols())
        done = {_point_key(pt, syms) for pt in (e.points or ())}
        missing = domain - done
        if e.points is None or missing:
            example = ", ".join(f"{k} = {v}" for k, v in sorted(next(iter(missing)), key=lambda kv: str(kv[0]))) \
                if missing else ""
            return Check("enumeration", False, time.perf_counter() - t0,
                         detail + (f"; refused: the enumeration misses {len(missing)} of the {len(domain)} points of "
                                   f"the claim's domain (e.g. {example})" if missing else
                                   "; refused: the enumeration did not record the points it evaluated"), error=True)
        return Check("enumeration", True, time.perf_counter() - t0,
                     detail + f"; the {len(domain)} points are the claim's whole domain (derived from its conditions "
                              "and assumptions)", strength="exhaustive", scope=e.scope)
    if not e.scope:
        return Check("enumeration", False, time.perf_counter() - t0,
                     detail + "; a finite check of a general statement must state its scope", error=True)
    return Check("enumeration", True, time.perf_counter() - t0, detail + f"; scope: {e.scope}",
                 strength="finite-scope", scope=e.scope)


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


def _numeric_value(side: sp.Expr, pt: Mapping, guard: int):
    """One side at a point, to ``guard`` digits.  Integrals of one variable over numeric limits whose
    integrand has no other free symbol are computed by mpmath's tanh-sinh quadrature (``mpmath.quad``) on
    the integrand compiled to mpmath (``lambdify``): the algorithm SymPy's ``evalf`` uses for an integral,
    without walking the expression tree at every node of the quadrature.  Anything else, and any
    integral that does not compile, goes to ``evalf``; a relation that fails on these values is decided
    again on ``evalf``'s (:func:`_numeric`)."""
    expr = release(side).subs(pt)

    def quadrature(integral):
        if len(integral.limits) != 1 or len(integral.limits[0]) != 3:
            raise ValueError("not one variable with limits")
        x, a, b = integral.limits[0]
        f = integral.function
        if f.free_symbols - {x} or f.has(sp.Integral) or not (a.is_number and b.is_number):
            raise ValueError("not a closed integral of one variable")
        g = sp.lambdify(x, f, "mpmath")
        ends = [mpmath.mpf(sp.N(e, guard)) if e.is_finite else (mpmath.inf if e == sp.oo else -mpmath.inf)
                for e in (a, b)]
        return sp.Float(mpmath.quad(g, ends), guard)

    if expr.has(sp.Integral):
        try:
            expr = expr.replace(lambda e: isinstance(e, sp.Integral), quadrature)
        except Exception:       # evalf decides
            pass
    return mpmath.mpf(sp.N(expr, guard))


def _numeric_holds(relation: str, lhs, rhs, tol) -> bool:
    """Whether two values meet the relation within ``tol`` (the test of :func:`_numeric`)."""
    if relation == "==":
        return abs(lhs - rhs) / max(abs(lhs), abs(rhs), mpmath.mpf(10) ** -40) <= tol
    margin = rhs - lhs if relation in ("<", "<=") else lhs - rhs
    return not (margin < -tol or (relation in ("<", ">") and margin <= tol))


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
            lhs, rhs = (_numeric_value(side, pt, guard) for side in (c.lhs, c.rhs))
            if not _numeric_holds(c.relation, lhs, rhs, tol):    # the integrals again, by SymPy's own evalf
                lhs, rhs = (mpmath.mpf(sp.N(release(side).subs(pt), guard)) for side in (c.lhs, c.rhs))
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
                     None, n, dps, strength="numeric")
    return Check("numeric", True, time.perf_counter() - t0,
                 f"{n} random points at {dps} digits, worst relative error {mpmath.nstr(worst, 3)}",
                 None, n, dps, mpmath.nstr(worst, 3), strength="numeric")


_RUNNERS = {"symbolic": _symbolic, "enumeration": _enumeration, "numeric": _numeric,
            "construction": _construction}


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


def verify_many(claims: Iterable[Claim], jobs: int = 1,
                progress: Callable[[Verdict], None] | None = None, scale: float | None = None) -> list[Verdict]:
    """Verify claims in worker processes, each within its budget of CPU time
    (:func:`derivations.engine.runner.verify_many`)."""
    from .runner import verify_many as run
    return run(claims, jobs=jobs, progress=progress, scale=scale)
