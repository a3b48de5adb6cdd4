"""Machine-checked derivations of the privacy mathematics of official statistics.

Every statement is a :class:`~derivations.engine.core.Claim` in one registry:

>>> import derivations
>>> c = derivations.get("laplace.mgf")
>>> c.source.document
'004_005a37d6f70bd1b7.txt'
"""
from .engine.core import (Check, Claim, Enumeration, Erratum, Proof, Source, Verdict, all_claims,
                   all_errata, get_claim, verify_inline, verify_many)
from .engine.formulas import Formula, all_formulas
from . import log_laplace, ht_mechanism  # noqa: F401  (registers the claims of each source document)

__all__ = ["Check", "Claim", "Enumeration", "Erratum", "Formula", "Proof", "Source", "Verdict",
           "claims", "errata", "formulas", "get", "verify", "verify_many"]


def claims() -> list[Claim]:
    """Every registered claim, in registration order."""
    return all_claims()


def errata() -> list[Erratum]:
    """Every registered erratum (printed statement refuted, corrected statement proved)."""
    return all_errata()


def formulas() -> list[Formula]:
    """Every formula the code generator turns into a numeric function."""
    return all_formulas()


def get(claim_id: str) -> Claim:
    """The claim with this id (``KeyError`` naming the id if there is none)."""
    return get_claim(claim_id)


def verify(claim_id: str) -> Verdict:
    """Verify one claim in this process."""
    return verify_inline(get_claim(claim_id))
