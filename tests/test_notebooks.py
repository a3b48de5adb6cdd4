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
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


class _ClientWithoutHeartbeat(AsyncKernelClient):
    """A kernel client that starts no heartbeat channel.

    On a loaded machine the heartbeat misses a beat, recreates its REQ socket and sends a ping; once the
    kernel is shut down no peer ever takes that ping, the send blocks, and ``stop_channels`` joins that
    thread for ever (the run then ends on pytest-timeout).  A client made by a kernel manager asks the
    manager whether the kernel process lives, so the heartbeat is not needed."""

    def start_channels(self, shell=True, iopub=True, stdin=True, hb=True, control=True):
        super().start_channels(shell=shell, iopub=iopub, stdin=stdin, hb=False, control=control)


class _KernelManager(AsyncKernelManager):
    def _client_factory_default(self):
        return _ClientWithoutHeartbeat


def test_notebooks_found():
    """Guards against an empty parametrisation (which pytest would merely skip)."""
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"


def _heartbeat_started(manager_class) -> bool:
    """Executes a one-cell notebook and reports whether its client had a heartbeat channel then."""
    seen = []
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    client = nbclient.NotebookClient(nb, timeout=60, kernel_name="python3", kernel_manager_class=manager_class)
    client.on_cell_executed = lambda **_: seen.append(client.kc._hb_channel is not None)
    client.execute()
    return seen == [True]


def test_notebook_kernel_has_no_heartbeat():
    """The notebooks run with no heartbeat thread to join at shutdown; the control is nbclient's own
    manager, whose client does start one (so the check can see a heartbeat when there is one)."""
    assert not _heartbeat_started(_KernelManager)
    assert _heartbeat_started(AsyncKernelManager)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_executes(path, monkeypatch):
    # The kernel is a subprocess and inherits this environment: headless matplotlib, and the
    # working tree's packages importable even without an editable install.
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))

    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     kernel_manager_class=_KernelManager,
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
