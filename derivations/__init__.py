"""Machine-checked derivations of the privacy mathematics of official statistics.

Every statement is a :class:`~derivations.engine.core.Claim` in one registry:

>>> import derivations
>>> c = derivations.get("laplace.mgf")
>>> c.source.document
'004_005a37d6f70bd1b7.txt'
"""
from .engine.core import (CITATIONS, Check, Claim, Enumeration, Erratum, Finding, Proof, Reading, Source,
                          Verdict, all_claims, all_errata, all_findings, all_readings, get_claim, verify_inline,
                          verify_many)
from .engine.formulas import Formula, all_formulas
from .engine.papers import Paper, all_papers, find_papers, paper_of
from . import papers  # noqa: F401  (registers the bibliographic records of the source documents)
from . import log_laplace, ht_mechanism, shlomo_skinner, k_randomization, private_deciles  # noqa: F401  (registers the claims of each source document)

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
