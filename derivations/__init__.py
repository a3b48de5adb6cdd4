"""Machine-checked derivations of the privacy mathematics of official statistics.

Every statement is a :class:`~derivations.engine.core.Claim` in one registry.  The encodings of the papers
are built when first asked for: :func:`get` builds the one package that registers the id, :func:`claims`
(and the errata, readings, findings and formulas) every package.

>>> import derivations
>>> c = derivations.get("laplace.mgf")
>>> c.source.document
'004_005a37d6f70bd1b7.txt'
"""
from .engine.core import (CITATIONS, Check, Claim, Enumeration, Erratum, Finding, Proof, Reading, Source,
                          Verdict, all_claims, all_errata, all_findings, all_readings, get_claim, verify_inline,
                          verify_many)
from .engine import core as _core
from .engine.formulas import Formula, all_formulas
from .engine.papers import Paper, all_papers, find_papers, paper_of
from . import papers  # noqa: F401  (registers the bibliographic records of the source documents)

#: The packages of encodings, one per source document.
PACKAGES = ("log_laplace", "ht_mechanism", "shlomo_skinner", "k_randomization", "private_deciles")
#: The package that registers the ids with each prefix (a claim, erratum, reading or finding id).
PREFIXES = {"laplace.": "log_laplace", "ht.": "log_laplace", "log_laplace.": "log_laplace", "puff.": "log_laplace",
            "htm.": "ht_mechanism", "profile.": "ht_mechanism", "ss.": "shlomo_skinner", "kr.": "k_randomization",
            "pd.": "private_deciles"}
_BUILT: set = set()


def _build(package: str) -> None:
    """Import one package of encodings (which registers its claims), once."""
    if package in _BUILT:
        return
    if package == "log_laplace":   # imports written out: the store's fingerprint follows them
        from . import log_laplace  # noqa: F401
    elif package == "ht_mechanism":
        from . import ht_mechanism  # noqa: F401
    elif package == "shlomo_skinner":
        from . import shlomo_skinner  # noqa: F401
    elif package == "k_randomization":
        from . import k_randomization  # noqa: F401
    elif package == "private_deciles":
        from . import private_deciles  # noqa: F401
    else:
        raise KeyError(f"no package of encodings named {package!r}")
    _BUILT.add(package)       # after the import: a package whose import failed is tried again


def _build_all() -> None:
    for package in PACKAGES:
        _build(package)


def _build_for(item_id: str) -> None:
    package = next((p for prefix, p in PREFIXES.items() if item_id.startswith(prefix)), None)
    if package is not None:
        _build(package)


_core.set_loader(_build_all, _build_for, lambda: _BUILT.issuperset(PACKAGES))

__all__ = ["CITATIONS", "Check", "Claim", "Enumeration", "Erratum", "Finding", "Formula", "Proof", "Reading",
           "Paper", "Source", "Verdict", "all_papers", "claims", "find_papers", "paper_of", "errata", "findings", "formulas", "get", "readings", "verify",
           "verify_many"]


def claims() -> list[Claim]:
    """Every registered claim, in registration order."""
    return all_claims()


def errata() -> list[Erratum]:
    """Every registered erratum (printed statement refuted, corrected statement proved)."""
    return all_errata()


def readings() -> list[Reading]:
    """Every registered reading of damaged source text (printed glyphs, reading taken, why)."""
    return all_readings()


def findings() -> list[Finding]:
    """Every registered finding of the review (neither an erratum nor a reading)."""
    return all_findings()


def formulas() -> list[Formula]:
    """Every formula the code generator turns into a numeric function."""
    return all_formulas()


def get(claim_id: str) -> Claim:
    """The claim with this id (``KeyError`` naming the id if there is none)."""
    return get_claim(claim_id)


def verify(claim_id: str) -> Verdict:
    """Verify one claim in this process."""
    return verify_inline(get_claim(claim_id))
