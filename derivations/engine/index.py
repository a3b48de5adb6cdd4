"""An index of the registry, kept in the results store: what ``papers``, ``list`` and ``summary`` need to
know of every claim without building the papers' encodings.

Building every paper's claims costs about a second and a half of CPU; the commands that only list claims
(their id, kind, title, place, whether printed and refuted, and the digest of the statement) and count them
read the index instead.  The index is written with the verdicts (:mod:`.store`) whenever every package is
built, and it is trusted only while the store's fingerprint (the sources of the encodings and the versions)
is the current one: a changed encoding makes it stale, and the commands build the claims again.
"""
from __future__ import annotations

from dataclasses import dataclass

from .core import Source, all_claims, all_errata, all_findings, all_readings

__all__ = ["ClaimEntry", "ErratumEntry", "NoteEntry", "build", "entries"]


@dataclass(frozen=True)
class ClaimEntry:
    """What the lists know of a claim: the fields :class:`~derivations.engine.core.Claim` has of the same
    names, and the digest of its statement."""

    id: str
    title: str
    source: Source
    kind: str
    expected: bool
    hash: str

    def digest(self) -> str:
        return self.hash


@dataclass(frozen=True)
class _Named:
    id: str


class ErratumEntry:
    """An erratum: its id, its place, and its printed and corrected claims (each known by its id)."""

    __slots__ = ("id", "printed", "corrected", "source")

    def __init__(self, id: str, printed: str, corrected: str, source: Source):
        self.id, self.printed, self.corrected, self.source = id, _Named(printed), _Named(corrected), source


@dataclass(frozen=True)
class NoteEntry:
    """A reading or a finding: its id, place and the claims it concerns."""

    id: str
    source: Source
    claims: tuple[str, ...]


def _where(item) -> list[str]:
    return [item.source.document, item.source.location]


def build() -> dict:
    """The index of the whole registry (every package built), as JSON types."""
    return {"claims": [[c.id, c.title, *_where(c), c.kind, c.expected, c.digest()] for c in all_claims()],
            "errata": [[e.id, e.printed.id, e.corrected.id, *_where(e)] for e in all_errata()],
            "readings": [[r.id, *_where(r), list(r.claims)] for r in all_readings()],
            "findings": [[f.id, *_where(f), list(f.claims)] for f in all_findings()]}


def entries(index: dict) -> tuple[list[ClaimEntry], list[ErratumEntry], list[NoteEntry], list[NoteEntry]]:
    """The claims, errata, readings and findings of an index, in the registry's order."""
    claims = [ClaimEntry(i, t, Source(d, loc), k, bool(x), h) for i, t, d, loc, k, x, h in index["claims"]]
    errata = [ErratumEntry(i, p, c, Source(d, loc)) for i, p, c, d, loc in index["errata"]]
    readings = [NoteEntry(i, Source(d, loc), tuple(ids)) for i, d, loc, ids in index["readings"]]
    findings = [NoteEntry(i, Source(d, loc), tuple(ids)) for i, d, loc, ids in index["findings"]]
    return claims, errata, readings, findings
