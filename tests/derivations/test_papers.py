"""Bibliographic records: every claim, erratum, reading and finding names a registered paper, and each
record holds what its document prints.  Reference: the opening lines of the five files in
``shared/seeds`` (read here, independently of the records), where a title, authors or a date is printed."""
from __future__ import annotations


import pytest

import derivations
from derivations.engine.papers import Paper, find_papers, paper_of, register_paper

# the documents are not part of the package: next to the checkout (../shared/seeds) or where
# $DPDERIVE_SEEDS points
from _seeds import SEEDS
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the source documents are not in {SEEDS} "
                                 "(set DPDERIVE_SEEDS to their folder)")


def test_every_item_names_a_registered_paper():
    for c in derivations.claims():
        assert c.source.paper.file == c.source.document
    for item in [*derivations.errata(), *derivations.readings(), *derivations.findings()]:
        assert paper_of(item.source.document)


def test_five_records_in_file_order():
    files = [p.file for p in derivations.all_papers()]
    assert files == sorted(files) and len(files) == 5


@needs_seeds
def test_one_record_per_seed_file():
    assert [p.file for p in derivations.all_papers()] == sorted(f.name for f in SEEDS.glob("*.txt"))


@needs_seeds
@pytest.mark.parametrize("paper", derivations.all_papers(), ids=lambda p: p.short)
def test_printed_fields_appear_in_the_document(paper):
    head = (SEEDS / paper.file).read_text(encoding="utf-8")[:3000]
    if not paper.title.startswith("["):           # a bracketed title is descriptive, said so in the remark
        assert paper.title in " ".join(head.split())
    else:
        assert paper.remark
    for author in paper.authors:
        assert author.split()[-1] in head
    if paper.date:
        assert paper.date in head


def test_year_by_and_lookup():
    """Reference: the dates as printed ('27 juin 2022', '24/10/2022', 'February 24, 2016', none)."""
    years = {p.short: p.year for p in derivations.all_papers()}
    assert years == {"ht-mechanism": "n.d.", "private-deciles": "2022", "shlomo-skinner": "n.d.",
                     "k-randomization": "2016", "abs-pufferfish": "2022"}
    assert paper_of("002_89b9dd341c0215c2.txt").by == "Shlomo and Skinner"
    assert paper_of("004_005a37d6f70bd1b7.txt").by == "Australian Bureau of Statistics"
    assert [p.short for p in find_papers("000")] == ["ht-mechanism"]
    assert [p.short for p in find_papers("ABS-Pufferfish")] == ["abs-pufferfish"]
    # negative controls: a prefix shared by every file names them all; nothing names nothing
    assert len(find_papers("00")) == 5 and find_papers("") == [] and find_papers("nonesuch") == []


def test_a_second_record_with_a_used_short_name_or_number_is_refused():
    with pytest.raises(ValueError, match="already used"):
        register_paper(Paper(short="ht-mechanism", file="999_x.txt", title="t", authors=(), date=""))
    with pytest.raises(ValueError, match="already used"):
        register_paper(Paper(short="other", file="000_y.txt", title="t", authors=(), date=""))
    with pytest.raises(KeyError, match="no bibliographic record"):
        paper_of("999_none.txt")
