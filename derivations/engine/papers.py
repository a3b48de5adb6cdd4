"""Bibliographic records of the source documents, and the lookup of a paper by what a reader types.

A record holds what the document itself states (title, authors, date, institution or venue) and
says so where the document states nothing, plus a short name for the command line (``ht-mechanism``)
and the file name in ``shared/seeds``.  Every place that names a paper (``list``, ``show``,
``verify``, the reports, the README) prints it through :meth:`Paper.cite` or :meth:`Paper.label`.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """One source document."""

    short: str                 # short name for filters and tables: lowercase words joined by '-'
    file: str                  # file name in shared/seeds
    title: str                 # as printed; a descriptive title in [brackets] when the document has none
    authors: tuple[str, ...]   # as printed; () when the document names none
    date: str                  # as printed ("24/10/2022", "February 24, 2016"), or ""
    venue: str = ""            # institution or venue as the document states it
    remark: str = ""           # what the record could not take from the document, and why
    sections: tuple[tuple[str, str], ...] = ()   # ("Section 2.1", heading as printed), for contents

    def section_title(self, section: str) -> str:
        """The heading the document prints for ``section`` ("Section 2.1" -> "AboveThreshold"), or ''."""
        return dict(self.sections).get(section, "")

    @property
    def number(self) -> str:
        """The document's number, the prefix of its file name ("000")."""
        return self.file.split("_", 1)[0]

    @property
    def by(self) -> str:
        """Authors as a reader cites them: "Shlomo and Skinner", or the institution when no author
        is named, or "no author named"."""
        if self.authors:
            last = [a.split()[-1] for a in self.authors]
            return last[0] if len(last) == 1 else ", ".join(last[:-1]) + " and " + last[-1]
        return self.venue or "no author named"

    @property
    def year(self) -> str:
        digits = [w.strip(",.") for w in self.date.replace("/", " ").split()]
        years = [w for w in digits if len(w) == 4 and w.isdigit()]
        return years[-1] if years else "n.d."

    def label(self) -> str:
        """Short form for tables and headings: ``ht-mechanism (000)``."""
        return f"{self.short} ({self.number})"

    def cite(self) -> str:
        """One line: authors (year), title [short name, file]."""
        return f"{self.by} ({self.year}), {self.title} [{self.short}, {self.file}]"

    def bibtex(self) -> str:
        """A BibTeX entry with what the document itself prints; a field it does not print is named in
        ``note`` ("author not printed") rather than guessed.  The key is the short name.

        >>> print(Paper("k-randomization", "003.txt", "K-Randomization", ("Maxim Zhilyaev", "David Zeber"),
        ...             "February 24, 2016").bibtex())
        @misc{k-randomization,
          title = {{K-Randomization}},
          author = {Zhilyaev, Maxim and Zeber, David},
          year = {2016},
          note = {Dated February 24, 2016. Source document 003.txt. Venue not printed.}
        }
        """
        def escape(text: str) -> str:
            return "".join("\\" + ch if ch in "&%$#_" else ch for ch in text)

        fields = [("title", "{" + escape(self.title) + "}")]
        missing = []
        if self.authors:
            fields.append(("author", " and ".join(_bib_name(a) for a in self.authors)))
        else:
            missing.append("author")
        if self.date:
            if self.year != "n.d.":
                fields.append(("year", self.year))
        else:
            missing.append("date")
        if self.venue:
            fields.append(("howpublished", escape(self.venue)))
        else:
            missing.append("venue")
        note = (f"Dated {escape(self.date)}. " if self.date else "") + f"Source document {escape(self.file)}."
        if missing:
            note += " " + ", ".join(missing).capitalize() + " not printed."
        if self.remark:
            note += " " + escape(self.remark)
        fields.append(("note", note))
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields)
        return f"@misc{{{self.short},\n{body}\n}}"

    def record(self) -> dict:
        """The record as a dictionary (JSON reports)."""
        return {"short": self.short, "file": self.file, "title": self.title, "authors": list(self.authors),
                "date": self.date, "venue": self.venue, "remark": self.remark, "cite": self.cite()}


def _bib_name(name: str) -> str:
    """``"Chris J. Skinner"`` as BibTeX's ``"Skinner, Chris J."``."""
    parts = name.split()
    return name if len(parts) < 2 else f"{parts[-1]}, {' '.join(parts[:-1])}"


_PAPERS: dict[str, Paper] = {}


def register_paper(paper: Paper) -> Paper:
    for other in _PAPERS.values():
        if paper.short == other.short or paper.number == other.number:
            raise ValueError(f"paper {paper.file!r}: short name or number already used by {other.file!r}")
    _PAPERS[paper.file] = paper
    return paper


def all_papers() -> list[Paper]:
    """Every record, by document number."""
    return sorted(_PAPERS.values(), key=lambda p: p.file)


def paper_of(file: str) -> Paper:
    """The record of a source file name (``KeyError`` naming the file if none is registered)."""
    try:
        return _PAPERS[file]
    except KeyError:
        raise KeyError(f"no bibliographic record for the source document {file!r}") from None


def find_papers(text: str) -> list[Paper]:
    """The papers ``text`` names, case-insensitive: a short name (whole: a prefix of one would clash
    with claim-id prefixes such as ``ht.``), or a file name or a prefix of it (``000``, ``000_3f4b``)."""
    t = text.strip().lower()
    if not t:
        return []
    return [p for p in all_papers() if t == p.short or p.file.lower().startswith(t)]
