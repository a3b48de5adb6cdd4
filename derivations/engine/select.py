"""Which claims a reader asks for: the terms of ``--only``.

A *term* selects every claim it matches in any of these ways (case-insensitive):

* a **paper**: its short name (``ht-mechanism``) or its file name or a prefix of it (``000``,
  ``000_3f4b``); every claim of that paper;
* a **location**: a phrase of the claim's location in its paper (``Result 8``, ``Appendix B``,
  ``proof of Lemma 1``), matched as whole words, so ``Result 1`` does not select Result 10;
* a **claim id**: the id itself, a prefix of it (``htm.r8``) or a glob (``profile.*``).

``PAPER:TERM`` selects the claims of that paper that ``TERM`` matches
(``ht-mechanism:Result 8``).  Several terms select every claim that any of them matches.  A term
that matches no claim is an error (:class:`NoMatch`) whose message says what can be matched.

Errata, readings and findings follow their claims: one is selected when a claim it concerns is
selected, or, for one that names no claim, when a term matches its paper or its location.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .papers import Paper, all_papers, find_papers


class NoMatch(ValueError):
    """A term of ``--only`` that selects nothing; the message says what a term can be."""


def _words(phrase: str) -> re.Pattern:
    """``phrase`` as whole words, case-insensitive: not preceded nor followed by a letter or digit."""
    return re.compile(r"(?<!\w)" + re.escape(" ".join(phrase.split())) + r"(?!\w)", re.IGNORECASE)


def id_matches(pattern: str, claim_id: str) -> bool:
    """``claim_id`` is ``pattern``, starts with it, or matches it as a glob (``*``, ``?``, ``[...]``)."""
    p, c = pattern.lower(), claim_id.lower()
    return c.startswith(p) or (any(ch in p for ch in "*?[") and fnmatch.fnmatchcase(c, p))


@dataclass(frozen=True)
class Term:
    """One term of ``--only``: optional papers (``PAPER:``) and what else must match."""

    text: str
    papers: tuple[Paper, ...] = ()
    what: str = ""

    @classmethod
    def parse(cls, text: str) -> "Term":
        text = " ".join(str(text).split())
        if not text:
            raise NoMatch(f"an empty term; {hint()}")
        head, sep, rest = text.partition(":")
        if sep:
            papers = find_papers(head)
            if not papers:
                raise NoMatch(f"{head!r} before ':' names no paper; {hint()}")
            return cls(text, tuple(papers), rest.strip())
        return cls(text, (), text)

    def matches(self, paper: Paper, location: str, ids: Iterable[str] = ()) -> bool:
        """Does the term select an item of ``paper`` at ``location`` concerning the claims ``ids``?"""
        if self.papers and paper not in self.papers:
            return False
        if not self.what:
            return True
        if not self.papers and paper in find_papers(self.what):
            return True
        return bool(_words(self.what).search(location)) or any(id_matches(self.what, i) for i in ids)


def hint() -> str:
    """What a term can be, with the papers that have claims (one line)."""
    from .core import all_claims

    encoded = {c.source.document for c in all_claims()}
    papers = ", ".join(p.label() for p in all_papers() if p.file in encoded) or "none yet"
    return (f"a term is a paper ({papers}; a short name or a file prefix), a location ('Result 8', "
            f"'Appendix B'), a claim id, prefix or glob ('profile.*'), or PAPER:TERM ('ht-mechanism:Result 8')")


class Selection:
    """The claims selected by the terms of ``--only`` (every claim when there is no term)."""

    def __init__(self, terms: Sequence[str] | None = ()):
        self.terms = [Term.parse(t) for t in (terms or ())]

    def __bool__(self) -> bool:
        return bool(self.terms)

    def claims(self, claims) -> list:
        """The claims any term matches, in registry order; :class:`NoMatch` for a term matching none."""
        claims = list(claims)
        if not self.terms:
            return claims
        chosen = set()
        for term in self.terms:
            hit = {c.id for c in claims if term.matches(c.source.paper, c.source.location, (c.id,))}
            if not hit:
                raise NoMatch(_no_claim(term, claims))
            chosen |= hit
        return [c for c in claims if c.id in chosen]

    def covers(self, paper: Paper, location: str, ids: Iterable[str], selected_ids: set[str]) -> bool:
        """Is an erratum, reading or finding (of ``paper`` at ``location``, concerning the claims
        ``ids``) part of the selection whose claims are ``selected_ids``?"""
        ids = tuple(ids)
        if not self.terms:
            return True
        if ids:
            return bool(selected_ids.intersection(ids))
        return any(t.matches(paper, location) for t in self.terms)


def _no_claim(term: Term, claims) -> str:
    encoded = {c.source.document for c in claims}
    named = list(term.papers) or find_papers(term.what)
    idle = [p.label() for p in named if p.file not in encoded]
    if idle and not (term.papers and term.what):
        return f"{term.text!r} matches no claim: {', '.join(idle)} not yet encoded"
    return f"{term.text!r} matches no claim; {hint()}"
