"""Every notebook in notebooks/ is executed top to bottom; any cell that raises fails its test.

The notebooks end with assertions on their own numbers (e.g. Monte Carlo vs analytic values), so
executing them checks the results as well as the code. New notebooks are picked up by the glob.
"""
from __future__ import annotations

import os
from pathlib import Path

import nbclient
import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def test_notebooks_found():
    """Guards against an empty parametrisation (which pytest would merely skip)."""
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_executes(path, monkeypatch):
    # The kernel is a subprocess and inherits this environment: headless matplotlib, and the
    # working tree's packages importable even without an editable install.
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    try:
        client.execute()
    except CellExecutionError as exc:
        pytest.fail(f"{path.name}: a cell raised\n{exc}", pytrace=False)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_executed(path):
    """A repository browser shows the committed outputs: every notebook is committed executed top to
    bottom (execution counts 1, 2, ... in cell order) with its figures.  Reference: the file itself.
    Refresh with ``jupyter execute --inplace notebooks/NAME.ipynb``."""
    cells = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    counts = [c.get("execution_count") for c in cells]
    assert counts == list(range(1, len(cells) + 1)), f"{path.name}: execution counts {counts}"
    assert any("image/png" in o.get("data", {}) for c in cells for o in c.outputs), f"{path.name}: no figure"
