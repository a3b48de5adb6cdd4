"""The terms of ``--only`` (derivations.engine.select): papers, locations, claim ids, PAPER:TERM.
References: the registry itself (each claim's document, location and id), read independently of
the selection code; every kind of term has a negative control (a term that must not select)."""
from __future__ import annotations

import re

import pytest

import derivations
from derivations.engine.papers import find_papers
from derivations.engine.select import NoMatch, Selection

ALL = derivations.claims()
HT, ABS = "000_3f4b38deb4c4e7bd.txt", "004_005a37d6f70bd1b7.txt"


def ids(*terms):
    return {c.id for c in Selection(terms).claims(ALL)}


def of(document):
    return {c.id for c in ALL if c.source.document == document}


@pytest.mark.parametrize("term", ["ht-mechanism", "HT-Mechanism", "000", "000_3f4b", "000_3f4b38deb4c4e7bd.txt"])
def test_a_paper_by_short_name_file_name_or_prefix(term):
    assert ids(term) == of(HT)


def test_papers_are_not_matched_by_a_prefix_of_their_short_name():
    """'ht' is a prefix of the claim ids ht.* and htm.*, not a name of the paper ht-mechanism."""
    assert find_papers("ht") == [] and find_papers("abs") == []
    assert ids("ht") == {c.id for c in ALL if c.id.startswith("ht")} != of(HT)


def test_no_term_selects_everything():
    assert Selection([]).claims(ALL) == ALL and Selection(None).claims(ALL) == ALL


def test_location_whole_words_case_insensitive():
    r8 = {c.id for c in ALL if re.search(r"Result 8\b", c.source.location)}
    assert r8 and ids("result 8") == r8
    assert ids("Appendix B") == {c.id for c in ALL if "Appendix B" in c.source.location}


def test_result_1_does_not_select_result_10():
    """Negative control of the word boundary: Result 10's claims are not Result 1's."""
    r10 = {c.id for c in ALL if "Result 10" in c.source.location}
    assert r10 and ids("Result 1") == {"htm.r1.delta0_bound"}
    assert not r10 & ids("Result 1")
    assert not ids("Result 1") & ids("Result 10")


def test_claim_id_exact_prefix_and_glob():
    assert ids("htm.r8.delta0") == {"htm.r8.delta0"}
    assert ids("htm.r8") == {c.id for c in ALL if c.id.startswith("htm.r8")}
    profile = {c.id for c in ALL if c.id.startswith("profile.")}
    assert profile and ids("profile.*") == profile
    assert ids("laplace.mgf_ab_[pm]*") == {c.id for c in ALL if re.match(r"laplace\.mgf_ab_[pm]", c.id)}
    # negative control: an id is matched from its start, not anywhere inside it
    with pytest.raises(NoMatch):
        ids("r8.delta0")


def test_paper_colon_term_intersects():
    both = ids("ht-mechanism:Result 8")
    assert both == {c.id for c in ALL if c.source.document == HT and re.search(r"Result 8\b", c.source.location)}
    assert both and both < of(HT)
    assert ids("004:Lemma 1") == {c.id for c in ALL if c.source.document == ABS
                                  and re.search(r"Lemma 1\b", c.source.location)}
    # negative control: the paper restricts the term (Result 8 is not a location of abs-pufferfish)
    with pytest.raises(NoMatch):
        ids("abs-pufferfish:Result 8")


def test_repeated_terms_are_a_union():
    assert ids("htm.r8", "profile.*") == ids("htm.r8") | ids("profile.*")


@pytest.mark.parametrize("term", ["no.such.claim", "Result 99", "Appendix Z", "999"])
def test_a_term_that_matches_nothing_says_what_can_be_matched(term):
    with pytest.raises(NoMatch) as err:
        ids(term)
    msg = str(err.value)
    assert "\n" not in msg and repr(term) in msg
    for what in ("ht-mechanism (000)", "abs-pufferfish (004)", "'Result 8'", "'profile.*'", "PAPER:TERM"):
        assert what in msg, (what, msg)


def test_a_paper_not_yet_encoded_is_named_as_such():
    """Every paper is encoded now: a registry without the claims of 001 stands for one that is not."""
    without = [c for c in ALL if not c.source.document.startswith("001")]
    with pytest.raises(NoMatch, match=r"private-deciles \(001\) not yet encoded"):
        Selection(["private-deciles"]).claims(without)
    assert ids("private-deciles") == of("001_1dd3d7af6edcb71d.txt")     # control: encoded, it selects its claims


def test_a_prefix_before_the_colon_must_name_a_paper():
    with pytest.raises(NoMatch, match="names no paper"):
        ids("nopaper:Result 8")
    with pytest.raises(NoMatch, match="empty term"):
        ids("  ")


def test_readings_and_findings_follow_their_claims():
    sel = Selection(["htm.r8"])
    chosen = {c.id for c in sel.claims(ALL)}
    shown = {r.id for r in derivations.readings() if sel.covers(r.source.paper, r.source.location, r.claims, chosen)}
    expected = {r.id for r in derivations.readings() if set(r.claims) & chosen}
    assert shown == expected and "htm.r8.support_line" in shown
    # a reading that names no claim follows its location: Result 7's orientation, not Result 8's
    orientation = next(r for r in derivations.readings() if r.id == "htm.r7.reading.orientation")
    assert not orientation.claims
    assert Selection(["Result 7"]).covers(orientation.source.paper, orientation.source.location, (), set())
    assert not sel.covers(orientation.source.paper, orientation.source.location, (), chosen)
