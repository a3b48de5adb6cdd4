"""What produced a result: the toolkit's version and commit, the versions of the libraries that computed
it, and when.  Every output that may be archived (the JSON report, the results store, both LaTeX
documents) records it, so that a verdict read later can be traced to the code that made it."""
from __future__ import annotations

import datetime
import functools
import subprocess
import sys
from importlib import metadata
from pathlib import Path

__all__ = ["provenance", "provenance_line"]

_ROOT = Path(__file__).resolve().parents[2]      # the source tree holding the derivations package


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


@functools.lru_cache(maxsize=1)
def _commit() -> tuple[str | None, bool]:
    """(commit, modified) of the git checkout the package is run from; (None, False) outside one."""
    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(["git", "-C", str(_ROOT), *args], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    if not (_ROOT / ".git").exists():
        return None, False
    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no", "--", "derivations", "numeric")
    return commit, bool(status)


def provenance(now: datetime.datetime | None = None) -> dict:
    """``{"dpderive", "commit", "modified", "python", "sympy", "mpmath", "numpy", "date"}``: ``commit``
    is None outside a git checkout, ``modified`` says whether the package's files differ from it, and
    ``date`` is UTC (ISO 8601).  NumPy's version is read without importing it."""
    commit, modified = _commit()
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return {"dpderive": _version("dpderive"), "commit": commit, "modified": modified,
            "python": ".".join(map(str, sys.version_info[:3])), "sympy": _version("sympy"),
            "mpmath": _version("mpmath"), "numpy": _version("numpy"),
            "date": now.strftime("%Y-%m-%dT%H:%M:%SZ")}


def provenance_line(p: dict | None = None) -> str:
    """One line: ``dpderive 0.1.0, commit 4db7ae0 (modified), Python 3.11.7, SymPy 1.14.0, mpmath 1.3.0,
    NumPy 2.4.6; 2026-11-29T04:00:00Z``."""
    p = p or provenance()
    commit = f"commit {p['commit'][:7]}" + (" (modified)" if p["modified"] else "") if p["commit"] else "no git commit"
    return (f"dpderive {p['dpderive']}, {commit}, Python {p['python']}, SymPy {p['sympy']}, mpmath {p['mpmath']}, "
            f"NumPy {p['numpy']}; {p['date']}")
