"""The documentation builds without a warning, documents every public name, and its examples run.

References: the objects inventory Sphinx writes (``objects.inv``) is read back with Sphinx's own
reader, independently of the pages' text; the worked examples of ``docs/numbers.md`` state values
computed by hand in the page (the closed-form amplified Laplace scale, the SRS design variance)."""
from __future__ import annotations

import doctest
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import numeric

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The HTML build with warnings as errors (``sphinx-build -W``): (return code, messages, output dir)."""
    out = tmp_path_factory.mktemp("html")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS),
                          str(out)], capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr, out


def inventory(path: Path) -> set[str]:
    """The names of the Python objects documented in a build (its ``objects.inv``)."""
    from sphinx.util.inventory import InventoryFile

    with open(path, "rb") as fh:
        inv = InventoryFile.load(fh, "", lambda base, uri: uri)
    data = inv.data if hasattr(inv, "data") else inv
    return {name for kind, entries in data.items() if kind.startswith("py:") for name in entries}


def test_the_docs_build_with_warnings_as_errors(built):
    code, messages, _ = built
    assert code == 0, messages


def test_every_public_numeric_name_is_in_the_api_reference(built):
    names = inventory(built[2] / "objects.inv")
    missing = [n for n in numeric.__all__ if f"numeric.{n}" not in names]
    assert not missing, missing
    for engine in ("derivations.Claim", "derivations.claims", "derivations.get", "derivations.verify",
                   "derivations.engine.proofs.conclude", "derivations.engine.runner.verify_many"):
        assert engine in names
    assert "numeric.no_such_function" not in names          # control: the reader does not say yes to anything


def test_a_warning_fails_the_build(tmp_path):
    """Control: a page with an undefined substitution (what ``|x|`` in a docstring used to be) fails ``-W``."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text("extensions = []\n")
    (src / "index.rst").write_text("Title\n=====\n\nThe value |x - y| of the difference.\n")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(tmp_path / "out")],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "substitution" in (run.stdout + run.stderr)


@pytest.mark.parametrize("page", [p for p in PAGES if ">>> " in p.read_text()], ids=lambda p: p.stem)
def test_the_doctest_examples_of_the_pages(page):
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def code_blocks(text: str) -> list[str]:
    """The ```python blocks of a Markdown text that are scripts (not doctest sessions)."""
    return [b for b in re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S) if ">>> " not in b]


def test_code_block_reader():
    """Control: a script block is found, a doctest block and a bash block are not."""
    text = "```python\nx = 1\n```\n\n```python\n>>> 1\n1\n```\n\n```bash\nls\n```\n"
    assert code_blocks(text) == ["x = 1\n"]


SCRIPTS = [(page, k, block) for page in [ROOT / "README.md", *PAGES]
           for k, block in enumerate(code_blocks(page.read_text()))]


@pytest.mark.parametrize("page, k, block", SCRIPTS, ids=[f"{p.stem}-{k}" for p, k, _ in SCRIPTS])
def test_every_python_snippet_of_the_readme_and_the_docs_runs(page, k, block):
    """Each snippet runs as printed, in a fresh namespace (the figures in its comments are the page's)."""
    start = time.process_time()
    exec(compile(block, f"{page.name} block {k}", "exec"), {"__name__": "__snippet__"})
    assert time.process_time() - start < 120
