"""The source documents, for the tests that check a reading or a finding against the printed text.  They
are not part of the package: next to the checkout (../shared/seeds) or where $DPDERIVE_SEEDS points."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

SEEDS = Path(os.environ.get("DPDERIVE_SEEDS") or Path(__file__).resolve().parents[2] / "shared" / "seeds")


def seed_text(name: str) -> str:
    """The text of one source document; the test is skipped, saying where it looked, when it is absent."""
    doc = SEEDS / name
    if not doc.is_file():
        pytest.skip(f"the source document {name} is not in {SEEDS} (set DPDERIVE_SEEDS to their folder)")
    return doc.read_text()
