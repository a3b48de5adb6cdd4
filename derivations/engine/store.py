"""The results store: the verdicts of ``dpderive verify``, kept for ``latex``, ``show`` and ``summary``.

``dpderive verify`` writes every verdict it computes to one JSON file, by default
``.dpderive/results.json`` under the current directory, or the file named by the environment
variable ``DPDERIVE_CACHE``.  The other commands reuse a stored verdict only when it is still the
verdict of the claim as it stands:

* the claim's :meth:`~derivations.engine.core.Claim.digest` (its kind, statement and conditions)
  is the one stored with the verdict, and
* the *fingerprint* of the store is the current one: the SHA-256 of the source of every module that
  ``import derivations`` can load (the engine that makes verdicts, the proof routines and the
  encodings: a digest covers the statement, not the code that proves it; the modules that only
  present verdicts, such as this one, are not loaded by it), with the versions of the package,
  Python, SymPy and mpmath.

Anything else (a claim not stored, a changed claim, a changed module or version, an unreadable
file) is verified again, and the commands say how many verdicts they reused and why they
re-verified the others.

The file::

    {"format": 1, "fingerprint": "<sha256>", "written": "<UTC time>",
     "provenance": {"dpderive": ..., "commit": ..., "python": ..., "sympy": ..., ...},
     "index": {"claims": [...], "errata": [...], ...},      (when every paper was built: :mod:`.index`)
     "verdicts": {"<claim id>": {"digest": "<claim digest>", "label": "<label>",
                                 "verdict": {"claim_id": ..., "expected": ..., "checks": [...]}}}}

``verdict`` holds every field of the :class:`~derivations.engine.core.Verdict` and its
:class:`~derivations.engine.core.Check` s, so a verdict read back has the same label, strength,
method, citations and checks as the one written.
"""
from __future__ import annotations

import ast
import dataclasses
import datetime
import hashlib
import json
import os
import re
import sys
import textwrap
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from .core import Check, Claim, Verdict
from .provenance import provenance

FORMAT = 1
ENVIRONMENT = "DPDERIVE_CACHE"
DEFAULT = os.path.join(".dpderive", "results.json")
PACKAGE = Path(__file__).resolve().parent.parent       # the derivations package
# Why a verdict is verified again
NOT_STORED = "not stored"
CLAIM_CHANGED = "stale: claim changed"
CODE_CHANGED = "stale: code or versions changed"
UNREADABLE = "store unreadable"
FRESH = "--fresh"


def default_path() -> str:
    """``$DPDERIVE_CACHE`` if set, else ``.dpderive/results.json`` under the current directory."""
    return os.environ.get(ENVIRONMENT) or DEFAULT


def _versions() -> str:
    import mpmath
    import sympy

    try:
        from importlib.metadata import version
        package = version("dpderive")
    except Exception:           # not installed (a source tree on sys.path): the source hash still counts
        package = "unknown"
    return f"dpderive {package}; python {sys.version_info[0]}.{sys.version_info[1]}; " \
           f"sympy {sympy.__version__}; mpmath {mpmath.__version__}"


_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*)", re.M)


def _import_nodes(text: str, name: str) -> list:
    """The import statements of a module, anywhere in it (inside functions too): each line that starts an
    import is parsed alone (a whole module's syntax tree costs ten times more); if one does not parse
    alone, the whole module is parsed."""
    nodes = []
    for m in _IMPORT_LINE.finditer(text):
        try:
            tree = ast.parse(textwrap.dedent(m.group(0)).split("#")[0].strip())
        except SyntaxError:
            return [n for n in ast.walk(ast.parse(text, name)) if isinstance(n, (ast.Import, ast.ImportFrom))]
        nodes.extend(tree.body)
    return nodes


def _imported(path: Path, package: Path) -> set[Path]:
    """The files of ``package`` that the module at ``path`` imports (anywhere in it, at any depth)."""
    def resolve(parts: list[str]) -> list[Path]:
        """The module ``parts`` and the ``__init__`` of every package on its way (imported first)."""
        inits = [package.parent.joinpath(*parts[:k], "__init__.py") for k in range(1, len(parts))]
        target = package.parent.joinpath(*parts)
        return [f for f in (*inits, target.with_suffix(".py"), target / "__init__.py") if f.is_file()]

    here = list(path.relative_to(package.parent).with_suffix("").parts)
    if here[-1] == "__init__":
        here = here[:-1]
    else:
        here = here[:-1]        # the package the module belongs to
    found: set[Path] = set()
    for node in _import_nodes(path.read_text(), str(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.update(resolve(alias.name.split(".")))
        elif isinstance(node, ast.ImportFrom):
            base = here[:len(here) - node.level + 1] if node.level else []
            mod = base + (node.module.split(".") if node.module else [])
            found.update(resolve(mod))
            for alias in node.names:
                found.update(resolve(mod + [alias.name]))
    return {f for f in found if package in f.parents or f.parent == package}


def verdict_modules(package: Path = PACKAGE) -> list[Path]:
    """The source files that ``import derivations`` can load: the engine that makes verdicts, the
    proof routines and the encodings (imports followed from the package's ``__init__``, including
    the imports inside functions); the modules that only present verdicts are not among them."""
    seen: set[Path] = set()
    todo = [package / "__init__.py"]
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(_imported(path, package) - seen)
    return sorted(seen)


def fingerprint(package: Path = PACKAGE) -> str:
    """SHA-256 of the source of the :func:`verdict_modules` (paths and contents, in a fixed order)
    and of the versions of the package, Python, SymPy and mpmath."""
    h = hashlib.sha256(_versions().encode())
    for path in verdict_modules(package):
        h.update(path.relative_to(package).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


# -- verdicts to and from JSON ---------------------------------------------------------------------
def verdict_to_dict(v: Verdict) -> dict:
    """Every field of the verdict and its checks (JSON types only)."""
    return {"claim_id": v.claim_id, "expected": v.expected, "checks": [dataclasses.asdict(c) for c in v.checks]}


_CHECK_FIELDS = {f.name for f in dataclasses.fields(Check)}


def verdict_from_dict(d: dict) -> Verdict:
    """The verdict written by :func:`verdict_to_dict` (``ValueError`` if ``d`` is not one)."""
    try:
        checks = [Check(**c) for c in d["checks"] if set(c) <= _CHECK_FIELDS]
        if len(checks) != len(d["checks"]):
            raise ValueError("a check has fields this version does not know")
        return Verdict(str(d["claim_id"]), bool(d["expected"]), checks)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a stored verdict: {exc}") from None


# -- the store -------------------------------------------------------------------------------------
@dataclass
class Reuse:
    """What a command took from the store: the verdicts, and why the others were verified again."""

    path: str
    verdicts: dict[str, Verdict]
    reused: int = 0
    reasons: Counter = field(default_factory=Counter)
    written: str = ""           # when the reused verdicts were stored
    problem: str = ""           # the store could not be read or written: why

    @property
    def verified(self) -> int:
        return sum(self.reasons.values())

    def message(self) -> str:
        """One line: ``reused 190 stored verdicts (PATH), verified 5 (stale: claim changed)``."""
        text = f"reused {self.reused} stored verdict{'s' * (self.reused != 1)} ({self.path})"
        if self.verified:
            why = ", ".join(f"{n} {reason}" if len(self.reasons) > 1 else reason
                            for reason, n in self.reasons.items())
            text += f", verified {self.verified} ({why})"
        return text + (f"; {self.problem}" if self.problem else "")


class Store:
    """The stored verdicts of one file, valid for one fingerprint."""

    def __init__(self, path: str | None = None):
        self.path = path or default_path()
        self.fingerprint = fingerprint()
        self.entries: dict[str, dict] = {}
        self.written = ""
        self.stale_code = False     # the file holds verdicts of other code or versions
        self.problem = ""
        self.index: dict | None = None   # the registry's index (:mod:`.index`), for the current fingerprint

    @classmethod
    def load(cls, path: str | None = None) -> "Store":
        """The store at ``path``; empty (and saying why in ``problem``) when there is no usable file."""
        store = cls(path)
        try:
            with open(store.path) as fh:
                data = json.load(fh)
        except FileNotFoundError:
            return store
        except (OSError, ValueError) as exc:
            store.problem = f"{UNREADABLE}: {getattr(exc, 'strerror', None) or exc}"
            return store
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("verdicts"), dict):
            store.problem = f"{UNREADABLE}: not a results store of format {FORMAT}"
            return store
        if data.get("fingerprint") != store.fingerprint:
            store.stale_code = bool(data["verdicts"])
            return store
        store.entries, store.written = data["verdicts"], str(data.get("written", ""))
        store.index = data.get("index") if isinstance(data.get("index"), dict) else None
        return store

    def get(self, c: Claim) -> tuple[Verdict | None, str]:
        """The stored verdict of ``c`` if it is current, else (None, why not)."""
        entry = self.entries.get(c.id)
        if entry is None:
            return None, CODE_CHANGED if self.stale_code else (UNREADABLE if self.problem else NOT_STORED)
        if entry.get("digest") != c.digest():
            return None, CLAIM_CHANGED
        try:
            v = verdict_from_dict(entry["verdict"])
        except (KeyError, ValueError):
            return None, UNREADABLE
        if v.claim_id != c.id or v.expected != c.expected or v.label != entry.get("label"):
            return None, CLAIM_CHANGED
        return v, ""

    def put(self, claims: Iterable[Claim], verdicts: Iterable[Verdict]) -> None:
        """Store the verdicts, except those stopped at the end of a budget of CPU time: such a
        verdict says nothing final, so the next command verifies the claim again."""
        by_id = {c.id: c for c in claims}
        for v in verdicts:
            if any(c.budget_exhausted for c in v.checks):
                self.entries.pop(v.claim_id, None)
                continue
            self.entries[v.claim_id] = {"digest": by_id[v.claim_id].digest(), "label": v.label,
                                        "verdict": verdict_to_dict(v)}

    def save(self) -> None:
        """Write the file atomically (``OSError`` if it cannot be written).  A directory created for
        the default location gets a ``.gitignore`` that keeps it out of version control."""
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            os.makedirs(folder)
            if os.path.normpath(self.path) == os.path.normpath(DEFAULT):
                with open(os.path.join(folder, ".gitignore"), "w") as fh:
                    fh.write("# results of `dpderive verify`, written by the command\n*\n")
        self.written = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        from .core import fully_built
        if fully_built():                # every package built: the index of the registry goes with the verdicts
            from .index import build
            self.index = build()
        data = {"format": FORMAT, "fingerprint": self.fingerprint, "written": self.written,
                "provenance": provenance(), "verdicts": dict(sorted(self.entries.items()))}
        if self.index is not None:
            data["index"] = self.index
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".results-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w") as fh:
                json.dump(data, fh, indent=1)
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise


def record(claims: list[Claim], verdicts: list[Verdict], path: str | None = None) -> str:
    """Store the verdicts of ``verify`` (merged into the file when it holds verdicts of the same code);
    returns '' or why the file could not be written."""
    store = Store.load(path)
    store.put(claims, verdicts)
    try:
        store.save()
    except OSError as exc:
        return f"cannot write {store.path}: {exc.strerror or exc}"
    return ""


def reuse(claims: list[Claim], verify: Callable[[list[Claim]], list[Verdict]], path: str | None = None,
          fresh: bool = False) -> Reuse:
    """The verdicts of ``claims``: current stored ones reused, the others computed by ``verify`` and
    written back to the store."""
    store = Store.load(path)
    out = Reuse(store.path, {}, written=store.written, problem=store.problem)
    todo = []
    for c in claims:
        v, why = (None, FRESH) if fresh else store.get(c)
        if v is None:
            todo.append(c)
            out.reasons[why] += 1
        else:
            out.verdicts[c.id] = v
    out.reused = len(out.verdicts)
    if todo:
        done = verify(todo)
        out.verdicts.update((v.claim_id, v) for v in done)
        store.put(todo, done)
        try:
            store.save()
        except OSError as exc:
            out.problem = f"cannot write {store.path}: {exc.strerror or exc}"
    out.verdicts = {c.id: out.verdicts[c.id] for c in claims}
    return out
