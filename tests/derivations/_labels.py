"""Label pins and negative controls shared by the per-paper claim tests.

A label is read from the session's verdicts (the ``all_verdicts`` fixture: every claim is verified once per
run); the changed statement (rhs -> 2 rhs + 1, or the relation reversed) is verified here.  The changed
statements of proved claims are also verified by test_negative_controls.py; the per-paper tests control the
enumerated (CHECKED) claims, which that file leaves out."""
from __future__ import annotations

import derivations
from derivations.engine.core import Verdict, verify_inline


def assert_label(all_verdicts, cid: str, label: str) -> None:
    """The claim holds with exactly ``label``, or (``label`` ending in ": ") a label starting with it."""
    v = all_verdicts[cid]
    ok = v.label.startswith(label) if label.endswith(": ") else v.label == label
    assert v.ok and ok, (cid, v.label)


def changed_verdict(cid: str) -> Verdict:
    """The verdict of the claim with its statement changed, without numeric sampling."""
    c = derivations.get(cid).mutated()
    c.numeric_points = 0
    return verify_inline(c)


def assert_label_and_mutations(cid: str, label: str) -> None:
    """Verified in this process, the claim gets exactly ``label``; its changed statement (rhs -> 2 rhs + 1)
    is not proved, nor, for an inequality or a sign, its reversed relation."""
    c = derivations.get(cid)
    v = verify_inline(c)
    assert v.label == label, v.as_dict()
    assert not verify_inline(c.mutated()).proved
    if c.kind in ("inequality", "sign"):
        assert not verify_inline(c.mutated("relation")).proved
