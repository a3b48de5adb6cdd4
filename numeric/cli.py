"""The ``dpderive`` command line.

    dpderive verify [--only TERM]... [--json FILE] [--jobs N] [--width W]
                                                verify the claims (the main job), store the verdicts
    dpderive summary [--only TERM]... [--fresh]  per paper: claims by verdict, errata, readings, findings
    dpderive list [--only TERM]...              the claims by paper and location
    dpderive papers [--bibtex]                  the source documents and what is encoded of each
    dpderive show ID [--fresh]                  one claim in full, its paper's record, its verdict
    dpderive readings | findings [--only TERM]...
                                                repairs of damaged text; remarks of the review
    dpderive latex [--outdir DIR] [--pdf] [--only TERM]... [--fresh]
                                                the referee report and the catalogue (LaTeX)
    dpderive codegen [--check]                  write / check numeric/_generated.py
    dpderive calibrate --design srs --N N --n n --epsilon E --delta D [--width W]
                                                the noise scale for (eps, delta), the worst pair
    dpderive profile --design srs --N N --n n --b B [--epsilons 0:2:21] [--plot FILE.png]
                                                delta(eps) over a grid

Selecting claims (--only TERM).  A term selects every claim it matches as
  a paper:     its short name or file name or a prefix of the file name   ht-mechanism, 000, 000_3f4b
  a location:  whole words of the claim's location, any case              'Result 8', 'appendix b'
  a claim id:  the id, a prefix of it, or a glob                          htm.r8, 'profile.*'
and PAPER:TERM selects the claims of that paper that TERM matches: --only 'ht-mechanism:Result 8'.
'Result 1' does not select Result 10 (whole words).  Repeated, --only selects what any term
selects.  A term that selects nothing is an error that lists what can be matched.  Errata,
readings and findings follow the claims they concern.

Stored verdicts.  verify writes every verdict, with the digest of its claim, to
.dpderive/results.json under the current directory (or the file $DPDERIVE_CACHE).  summary,
show and latex reuse a stored verdict when its claim is unchanged and the source of the
derivations package and the versions of dpderive, Python, SymPy and mpmath are those it was
computed with; they verify the others, store them, and say how many verdicts they reused and
why they verified the others.  --fresh verifies everything again.

Output.  Text is fitted to the terminal's width, at most 100 columns (--width W, 60 <= W <= 100),
claims grouped by paper with a heading line per paper; statements are shown in a short readable
form (cut with an ellipsis: show prints them whole, and the JSON has both forms).  Progress: a
bar when stderr is a terminal, else a line 'verified 57/195 claims, 31 s' at most every 10 s;
none with --quiet.

Errors.  A bad argument ends in ONE line on stderr, ``dpderive: --flag: <what is wrong>``, and exit
status 2 (as argparse does), before any long computation: every flag's domain is checked up front
by the numeric layer's validation (:mod:`numeric._common`, whose ``ParameterError.param`` is mapped
to the flag) and every output file's directory is checked before computing.  Nothing is printed on
stdout before all the results of a command are computed.  Unexpected internal errors are not
disguised as user errors: they keep their traceback.  When stdout is closed early
(``dpderive verify | head``) the command stops quietly with exit status 141 (128 + SIGPIPE, what a
shell reports for a process killed by SIGPIPE, e.g. ``yes | head``).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import textwrap
import time

from ._common import ParameterError, as_float, count, require, scalar

#: Python parameter name of the numeric layer -> CLI flag.
FLAGS = {"budget_scale": "--budget-scale", "N": "--N", "n": "--n", "p": "--p", "m_t": "--m-t", "M_t": "--M-t", "b": "--b",
         "epsilon": "--epsilon", "epsilons": "--epsilons", "delta": "--delta", "noise": "--noise",
         "design": "--design", "jobs": "--jobs", "only": "--only", "out": "--out", "json": "--json",
         "cells": "--cells", "split": "--split",
         "plot": "--plot", "width": "--width", "outdir": "--outdir"}
#: At most this many values of epsilon in ``profile --epsilons``.
MAX_EPSILONS = 10_000
#: What ``calibrate`` prints under a scale of 0 (see :func:`numeric.calibrate_scale`).
NO_NOISE_CAVEAT = ("no noise needed: the estimate alone meets (eps, delta) only while nobody outside knows which "
                   "units were sampled; the randomness of sampling is then the only protection")
#: Exit status when stdout is closed early (128 + SIGPIPE).
EXIT_BROKEN_PIPE = 141


def _fail(param: str, message: str):
    """A one-line user error on the flag of ``param`` (``message`` without the flag's name)."""
    raise ParameterError(param, f"{param} {message}")


def _error_line(exc: ParameterError) -> str:
    """``dpderive: --flag: <message>``; the message loses its leading parameter name (the flag says it)."""
    msg = " ".join(str(exc).split())
    flag = FLAGS.get(exc.param)
    if flag is None:
        return f"dpderive: {msg}"
    if msg.startswith(exc.param + " "):
        msg = msg[len(exc.param) + 1:]
    return f"dpderive: {flag}: {msg}"


# -- output files: checked before computing ---------------------------------------------------------
def _check_output(param: str, path: str | None) -> None:
    """The file ``path`` can be created or overwritten: its directory exists and is writable."""
    if path is None:
        return
    if not path:
        _fail(param, "needs a file name")
    if os.path.isdir(path):
        _fail(param, f"is a directory, not a file: {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        _fail(param, f"cannot write {path!r}: directory {folder!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        _fail(param, f"cannot write {path!r}: directory {folder!r} is not writable")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        _fail(param, f"cannot write {path!r}: the file is not writable")


def _check_plot(path: str | None) -> None:
    if path is None:
        return
    _check_output("plot", path)
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext:
        from matplotlib.backend_bases import FigureCanvasBase

        formats = FigureCanvasBase.get_supported_filetypes()
        if ext not in formats:
            _fail("plot", f"has an unsupported image format {ext!r} (one of {', '.join(sorted(formats))})")


def _write_text(param: str, path: str, text: str) -> None:
    try:
        with open(path, "w") as fh:
            fh.write(text)
    except OSError as exc:
        _fail(param, f"cannot write {path!r}: {exc.strerror or exc}")


# -- claims ---------------------------------------------------------------------------------------
def _select(terms, claims=None):
    """(the selection, the claims it selects among ``claims``, default every claim); a term matching
    nothing is an error on --only."""
    import derivations
    from derivations.engine.select import NoMatch, Selection

    try:
        selection = Selection(terms)
        return selection, selection.claims(derivations.claims() if claims is None else claims)
    except NoMatch as exc:
        _fail("only", str(exc))


def _indexed():
    """The results store and the entries of its index of the registry ((claims, errata, readings,
    findings), :mod:`derivations.engine.index`) when it holds a current one, else (store, None): the
    commands that list and count claims then need not build the papers' encodings."""
    from derivations.engine.index import entries
    from derivations.engine.store import Store

    store = Store.load()
    return store, (entries(store.index) if store.index is not None else None)


def _jobs(jobs) -> int:
    return count("jobs", jobs, 1)


def _scale(scale) -> float:
    """The budget scale of ``--budget-scale`` (or $DPDERIVE_BUDGET_SCALE), checked before any work."""
    from derivations.engine.runner import SCALE_VARIABLE, budget_scale

    try:
        return budget_scale(scale)
    except ValueError as exc:
        flag = "budget_scale" if scale is not None else SCALE_VARIABLE
        raise ParameterError("budget_scale", f"{flag}: {exc}") from None


def _width(width) -> int:
    """--width, an integer in [MIN_WIDTH, MAX_WIDTH] = [60, 100] of derivations.engine.terminal (else a
    one-line error naming --width), or the terminal's width (100 when unknown) brought into that range."""
    from derivations.engine.terminal import MAX_WIDTH, MIN_WIDTH, terminal_width

    if width is not None:
        count("width", width, MIN_WIDTH, MAX_WIDTH)
    return terminal_width(width)


def _print_lines(text: str, width: int) -> None:
    from derivations.engine.terminal import wrap

    print("\n".join(wrap(text, width)))


def _show_progress(quiet: bool) -> bool:
    """A progress bar only on a terminal (no bar spam in logs and pipes) and without --quiet."""
    try:
        return not quiet and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


#: Seconds between two progress lines when stderr is not a terminal.
PROGRESS_SECONDS = 10.0


class _ProgressLines:
    """Progress for a log or a pipe: a plain line ``verified 57/195 claims, 31 s`` on ``stream`` at
    most every ``every`` seconds, and a last line when the run took long enough to print any."""

    def __init__(self, total: int, stream, every: float = PROGRESS_SECONDS, clock=time.monotonic):
        self.total, self.stream, self.every, self.clock = total, stream, every, clock
        self.start = self.last = clock()
        self.done = 0
        self.printed = 0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = self.clock()
        if now - self.last >= self.every and self.done < self.total:
            self._line(now)

    def set_postfix_str(self, text: str) -> None:
        pass

    def _line(self, now: float) -> None:
        print(f"verified {self.done}/{self.total} claims, {now - self.start:.0f} s", file=self.stream, flush=True)
        self.last = now
        self.printed += 1

    def close(self) -> None:
        if self.printed:
            self._line(self.clock())


def _progress(total: int, quiet: bool):
    """A tqdm bar on a terminal, plain periodic lines elsewhere, nothing with --quiet."""
    if _show_progress(quiet):
        from tqdm import tqdm

        return tqdm(total=total, desc="verifying", unit="claim", file=sys.stderr)
    return _ProgressLines(total, sys.stderr, every=math.inf if quiet else PROGRESS_SECONDS)


def _verify(claims, jobs: int, quiet: bool = False, scale: float | None = None):
    from derivations import verify_many

    bar = _progress(len(claims), quiet)

    def tick(v):
        bar.set_postfix_str(v.claim_id[-40:])
        bar.update(1)

    try:
        return verify_many(claims, jobs=jobs, progress=tick, scale=scale)
    finally:
        bar.close()


def _stored(claims, jobs: int, quiet: bool, fresh: bool, scale: float | None = None):
    """The verdicts of ``claims`` from the results store, verifying the missing and stale ones."""
    from derivations.engine import store

    return store.reuse(claims, lambda todo: _verify(todo, jobs, quiet, scale), fresh=fresh)


def cmd_verify(args) -> int:
    from derivations.engine import report, store
    from derivations.engine.render import text_unicode
    from derivations.engine.terminal import ELLIPSIS

    width = _width(args.width)
    jobs = _jobs(args.jobs)
    _check_output("json", args.json)
    selection, claims = _select(args.only)
    verdicts = _verify(claims, jobs, args.quiet, _scale(args.budget_scale))
    by_id = {v.claim_id: v for v in verdicts}
    problem = store.record(claims, verdicts)
    if args.json:
        _write_text("json", args.json, json.dumps(report.json_report(by_id), indent=2))
    scope = report.Scope(claims, by_id, covers=selection.covers)
    table = report.verdict_table(claims, by_id, width)
    print(table)
    if ELLIPSIS in table:
        _print_lines(f"(a statement ending in {ELLIPSIS} is cut to the width: `dpderive show ID` prints it whole)",
                     width)
    if scope.errata:
        print("\n" + report.errata_text(scope.errata, by_id, width))
    print("\n" + report.summary_text(scope, width) + "\n")
    print(report.totals_text(scope, width))
    for v in verdicts:
        if not v.ok:
            _print_lines(f"UNEXPECTED: {v.claim_id}: {v.label}: " + "; ".join(text_unicode(c.detail) for c in v.checks),
                         width)
    if problem:
        print(f"dpderive: the verdicts were not stored: {problem}", file=sys.stderr)
    else:
        _print_lines(f"stored the verdicts in {store.default_path()} (`dpderive latex`, `show` and `summary` "
                     "reuse them)", width)
    if args.json:
        print(f"wrote {args.json}")
    return 0 if all(v.ok for v in verdicts) else 1


def cmd_summary(args) -> int:
    import derivations
    from derivations.engine import report
    from derivations.engine.store import Reuse

    width = _width(args.width)
    jobs = _jobs(args.jobs)
    scale = _scale(args.budget_scale)
    store, indexed = (None, None) if args.fresh else _indexed()
    scope = None
    if indexed:                 # every selected verdict stored and current: nothing to build
        selection, claims = _select(args.only, indexed[0])
        got = {c.id: store.get(c)[0] for c in claims}
        if all(got.values()):
            reuse = Reuse(store.path, got, reused=len(got), written=store.written)
            scope = report.Scope(claims, got, covers=selection.covers, registry=indexed[1:])
    if scope is None:
        selection, claims = _select(args.only)
        reuse = _stored(claims, jobs, args.quiet, args.fresh, scale)
        scope = report.Scope(claims, reuse.verdicts, covers=selection.covers)
    print(report.summary_text(scope, width) + "\n")
    print(report.totals_text(scope, width))
    idle = [p.label() for p in derivations.all_papers() if p not in scope.papers()]
    if idle and not selection:
        _print_lines("Not yet encoded: " + ", ".join(idle) + " (`dpderive papers`).", width)
    _print_lines(reuse.message(), width)
    return 0 if all(v.ok for v in reuse.verdicts.values()) else 1


def cmd_list(args) -> int:
    from derivations.engine.report import list_text

    width = _width(args.width)
    indexed = _indexed()[1]
    print(list_text(_select(args.only, indexed[0] if indexed else None)[1], width))
    return 0


def cmd_papers(args) -> int:
    if args.bibtex:
        import derivations

        print("\n\n".join(p.bibtex() for p in derivations.all_papers()))
        return 0
    from derivations.engine.report import papers_text

    width = _width(args.width)
    indexed = _indexed()[1]
    print(papers_text(width, registry=indexed))
    return 0


def cmd_show(args) -> int:
    import derivations

    width = _width(args.width)
    try:
        c = derivations.get(args.id)
    except KeyError as exc:
        print(" ".join(f"dpderive: {exc.args[0]}".split()), file=sys.stderr)
        return 2
    from derivations.engine.report import claim_text

    reuse = _stored([c], 1, True, args.fresh, _scale(args.budget_scale))
    v = reuse.verdicts[c.id]
    print(claim_text(c, v, width, results=reuse.message()))
    return 0 if v.ok else 1


def _remarks(args, items, fields) -> int:
    """``readings`` and ``findings``: the items of the selected claims, by paper."""
    from derivations.engine.report import remarks_text

    width = _width(args.width)
    selection, claims = _select(args.only)
    ids = {c.id for c in claims}
    shown = [it for it in items if selection.covers(it.source.paper, it.source.location, it.claims, ids)]
    if shown:
        print(remarks_text(shown, width, fields))
    return 0


def cmd_readings(args) -> int:
    import derivations

    return _remarks(args, derivations.readings(), lambda r: (("printed", r.printed), ("read as", r.reading),
                                                             ("why", r.why), ("other readings", r.alternatives)))


def cmd_findings(args) -> int:
    import derivations

    return _remarks(args, derivations.findings(), lambda f: (("", f.text),))


#: The two documents of ``dpderive latex``, written in ``--outdir``.
DOCUMENTS = ("referee-report.tex", "catalogue.tex")


def cmd_latex(args) -> int:
    from derivations.engine.latex import catalogue_document
    from derivations.engine.referee import referee_document

    jobs = _jobs(args.jobs)
    folder = args.outdir
    if not os.path.isdir(folder):
        _fail("outdir", f"is not a directory: {folder!r}")
    paths = [os.path.join(folder, name) for name in DOCUMENTS]
    for path in paths:
        _check_output("outdir", path)
    _, claims = _select(args.only)
    reuse = _stored(claims, jobs, args.quiet, args.fresh, _scale(args.budget_scale))
    for path, make in zip(paths, (referee_document, catalogue_document)):
        _write_text("outdir", path, make(reuse.verdicts))
    _print_lines(reuse.message(), _width(None))
    print(f"wrote {paths[0]} and {paths[1]} ({len(claims)} claims)")
    if args.pdf:
        for path in paths:
            print(_pdflatex(path))
    return 0 if all(v.ok for v in reuse.verdicts.values()) else 1


def _pdflatex(path: str) -> str:
    """Compile ``path`` with pdflatex, twice (for the contents and links); one line on the outcome."""
    import shutil
    import subprocess

    if shutil.which("pdflatex") is None:
        return f"no pdflatex on this machine: compile {path} with pdflatex, twice"
    folder, name = os.path.split(os.path.abspath(path))
    for _ in range(2):
        done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name], cwd=folder,
                              capture_output=True, text=True)
        if done.returncode != 0:
            return f"pdflatex failed on {path}: see {os.path.splitext(path)[0]}.log"
    return f"wrote {os.path.splitext(path)[0]}.pdf"


def cmd_codegen(args) -> int:
    import derivations  # noqa: F401  (registers the formulas)
    from derivations.engine import codegen

    if args.check:
        if codegen.check():
            print(f"{codegen.GENERATED_PATH} is up to date")
            return 0
        print(f"{codegen.GENERATED_PATH} is stale: run `dpderive codegen`", file=sys.stderr)
        return 1
    print(f"wrote {codegen.write()}")
    return 0


# -- calibrate and profile: every flag validated by the numeric layer before computing -------------
def _design_domain(args):
    from numeric import SRS, Bernoulli, BinaryDomain

    if args.design == "srs":
        if args.n is None:
            _fail("n", "is required with --design srs (the sample size)")
        if args.p is not None:
            _fail("p", "applies to --design bernoulli only (--design srs takes --n)")
        design = SRS(args.N, args.n)
    else:
        if args.p is None:
            _fail("p", "is required with --design bernoulli (the inclusion probability)")
        if args.n is not None:
            _fail("n", "applies to --design srs only (--design bernoulli takes --p)")
        design = Bernoulli(args.N, args.p)
    return design, BinaryDomain(args.N, args.m_t, args.M_t)


def _epsilon(value) -> float:
    return scalar("epsilon", value, 0.0, math.inf, hi_open=True)


def _delta(value) -> float:
    return scalar("delta", value, 0.0, 1.0, lo_open=True, hi_open=True)


def _b(value) -> float:
    return scalar("b", value, 0.0, math.inf, lo_open=True, hi_open=True)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        _fail("epsilons", f"must be numbers: {text.strip()!r} is not one")


def _grid(text: str):
    """``LO:HI:COUNT`` (COUNT values from LO to HI, 1 <= COUNT <= MAX_EPSILONS, 0 <= LO <= HI) or a
    comma-separated list of at most MAX_EPSILONS numbers >= 0; all finite."""
    import numpy as np

    form = f"LO:HI:COUNT or a comma-separated list of numbers, got {text!r}"
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3 or not all(s.strip() for s in parts):
            _fail("epsilons", f"must be {form}")
        lo, hi = _number(parts[0]), _number(parts[1])
        try:
            k = int(parts[2])
        except ValueError:
            _fail("epsilons", f"COUNT must be an integer, got {parts[2].strip()!r}")
        if not 1 <= k <= MAX_EPSILONS:
            _fail("epsilons", f"COUNT must be an integer in [1, {MAX_EPSILONS}], got {k}")
        ends = as_float("epsilons", [lo, hi], finite=True)
        require(ends >= 0, "epsilons", "made of numbers >= 0")
        if lo > hi:
            _fail("epsilons", f"LO must be <= HI in LO:HI:COUNT, got {text!r}")
        return np.linspace(lo, hi, k)
    items = text.split(",")
    if not all(s.strip() for s in items):
        _fail("epsilons", f"must be {form}")
    if len(items) > MAX_EPSILONS:
        _fail("epsilons", f"must have at most {MAX_EPSILONS} values, got {len(items)}")
    eps = as_float("epsilons", [_number(s) for s in items], finite=True)
    require(eps >= 0, "epsilons", "made of numbers >= 0")
    return eps


def _describe(design, domain) -> str:
    what = f"SRS N = {design.N}, n = {design.n}" if hasattr(design, "n") else f"Bernoulli N = {design.N}, p = {design.p:g}"
    return f"{what}; binary data, population total in [{domain.m_t}, {domain.M_t}]"


def _fitted(text: str, width: int, label: str = "", indent: int = 17, keep=()) -> list[str]:
    """``label`` + ``text`` wrapped to ``width`` columns, the label's spacing kept, the next lines
    indented by ``indent`` (under the values of the labelled lines); the phrases ``keep`` are never
    broken across lines."""
    from derivations.engine.terminal import wrap

    for phrase in keep:
        text = text.replace(phrase, phrase.replace(" ", "\0"))
    return [line.replace("\0", " ") for line in wrap(text, width, indent=" " * indent, first=label)]


def _read_cells(path: str):
    """The CSV file of ``--cells`` as a DataFrame of strings indexed by line number (the header is line
    1), so that every refusal of :func:`numeric.tables.validate_cells` names the file's line; a line
    whose number of fields differs from the header's is refused here."""
    import csv

    import pandas as pd

    if not os.path.isfile(path):
        _fail("cells", f"cannot read {path!r}: no such file")
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            lines = [(k, row) for k, row in enumerate(csv.reader(fh, skipinitialspace=True), start=1)]
    except (UnicodeDecodeError, OSError, csv.Error) as exc:
        _fail("cells", f"cannot read {path!r} as CSV: {exc}")
    lines = [(k, row) for k, row in lines if any(field.strip() for field in row)]    # blank lines skipped
    if not lines:
        _fail("cells", f"{path!r} is empty (a header line cell,stratum,N,n[,lower,upper][,total][,sd] and one line "
              "per stratum are needed)")
    header = [h.strip() for h in lines[0][1]]
    for k, row in lines[1:]:
        if len(row) != len(header):
            _fail("cells", f"line {k} of {path!r} has {len(row)} fields, the header has {len(header)}")
    body = [[field.strip() or None for field in row] for _, row in lines[1:]]
    return pd.DataFrame(body, columns=header, index=[k for k, _ in lines[1:]], dtype=object)


def _split(text):
    """--split: 'parallel', 'basic', an integer k >= 1, or kov:K (1 <= K <= numeric.tables.KOV_MAX)."""
    from numeric.tables import KOV_MAX

    form = f"must be 'parallel', 'basic', an integer k >= 1 or kov:K (1 <= K <= {KOV_MAX}), got {text!r}"
    if text in ("parallel", "basic"):
        return text
    kov = text.startswith("kov:")
    try:
        k = int(text[4:] if kov else text)
    except ValueError:
        _fail("split", form)
    if k < 1 or (kov and k > KOV_MAX):
        _fail("split", form)
    return ("kov", k) if kov else k


def _calibrate_cells(args) -> int:
    """``calibrate --cells``: one scale per cell of the CSV table; the file is validated line by line and
    the whole table computed before anything is written (a bad line writes nothing)."""
    import numpy as np

    from numeric.tables import calibrate_table, validate_cells

    for name, flag, default in (("n", "--n", None), ("p", "--p", None), ("m_t", "--m-t", 0), ("M_t", "--M-t", None)):
        if getattr(args, name) != default:
            _fail(name, "describes one design; with --cells the designs are the table's rows (columns N, n)")
    if args.N is not None:
        _fail("N", "describes one design; with --cells the designs are the table's rows (columns N, n)")
    eps, delta = _epsilon(args.epsilon), _delta(args.delta)
    split = _split(args.split)
    _check_output("out", args.out)
    frame = validate_cells(_read_cells(args.cells), row_word="line")
    with np.errstate(all="ignore"):
        table = calibrate_table(frame, eps, delta, noise=args.noise, split=split)
    if args.out is not None:
        try:
            table.to_csv(args.out, index=False, float_format="%.17g")
        except OSError as exc:
            _fail("out", f"cannot write {args.out!r}: {exc.strerror or exc}")
        print(f"wrote the scales of {len(table)} cells to {args.out}")
        return 0
    cols = ["cell", "strata", "b", "noise_sd", "exact", "generic_b", "ratio"]
    cols += [c for c in ("rse_design", "rse") if c in table.columns]
    shown = table[cols].rename(columns={"b": "sigma" if args.noise == "gaussian" else "b"})
    print(f"{args.noise} noise, (eps, delta) = ({eps:g}, {delta:g}) per table; each cell at "
          f"({table['epsilon'].iloc[0]:g}, {table['delta'].iloc[0]:g}) (split {args.split})")
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.6g}"))
    return 0


def cmd_calibrate(args) -> int:
    """The smallest scale and the worst pair.  A scale of 0 (the estimate alone meets the target) is
    printed with its caveat on the same line: it holds only while the sample stays secret.  A scale
    at which delta(eps) = 0 exactly (the pure region, see :func:`numeric.calibrate_scale`) is said to
    be pure.  Every line fits ``--width``."""
    import numpy as np

    from numeric import amplified_laplace_scale, calibrate_scale, worst_pair

    if args.cells is not None:
        return _calibrate_cells(args)
    for name in ("out", "split"):
        if getattr(args, name) != (None if name == "out" else "parallel"):
            _fail(name, "applies to a table of cells (--cells) only")
    if args.N is None:
        _fail("N", "is required (the population size, units) unless --cells gives a table of cells")
    width = _width(args.width)
    design, domain = _design_domain(args)
    eps, delta = _epsilon(args.epsilon), _delta(args.delta)
    # Everything is computed before anything is printed; numpy's floating-point warnings are not the
    # user's business (every overflow of the library is handled: an inf bounds, it is never a result).
    with np.errstate(all="ignore"):
        scale = calibrate_scale(design, domain, eps, delta, noise=args.noise)
        pair = worst_pair(design, domain, scale, eps, noise=args.noise) if scale > 0 else None
        generic = None
        if args.noise == "laplace" and eps > 0:
            generic = amplified_laplace_scale(design, domain, eps)
    name = "sigma" if args.noise == "gaussian" else "b"
    lines = _fitted(_describe(design, domain), width, indent=2)
    lines += _fitted(f"{args.noise} noise, target (eps, delta) = ({eps:g}, {delta:g})", width, indent=2)
    if pair is not None:
        lines += _fitted(f"{name} = {scale:.10g}", width, "smallest scale:  ")
        lines += _fitted(str(pair), width, "worst pair:      ")
        if pair.delta == 0:
            lines += _fitted(f"delta(eps) = 0 exactly at this scale: the release is pure eps-DP, eps = {eps:g}",
                             width, "pure:            ")
    else:   # the answer and its caveat on the same line: b = 0 is safe only while the sample is secret
        lines += _fitted(f"{name} = 0, but only if the sample stays secret", width, "smallest scale:  ")
        lines += _fitted(NO_NOISE_CAVEAT, width, " " * 17,
                         keep=("no noise needed", "(eps, delta)", "which units were sampled", "the only protection"))
    if args.noise == "laplace":     # the route on one line, its answer on the next (never cut by the width)
        lines += _fitted("Laplace on the sample + amplification by subsampling", width, "generic route:   ")
        if generic is None or not math.isfinite(generic):
            lines += _fitted(f"no finite scale at eps = {eps:g}", width, " " * 17)
        else:
            lines += _fitted(f"b = {generic:.10g}; exact/generic = {scale / generic:.6g}", width, " " * 17)
    print("\n".join(lines))
    return 0


def profile_figure(eps, deltas, title: str):
    """delta against eps on an axis that shows zeros: logarithmic above the smallest positive delta,
    linear below it down to 0 (``symlog``), the points where delta = 0 drawn apart and labelled."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, ax = plt.subplots(figsize=(6, 4))
    pos, zero = deltas > 0, deltas == 0
    ax.plot(eps, deltas, color="C0", lw=1)
    ax.plot(eps[pos], deltas[pos], ".", color="C0", label=r"$\delta(\varepsilon) > 0$ (an upper value)")
    if zero.any():
        ax.plot(eps[zero], deltas[zero], "x", color="C3", label=r"$\delta(\varepsilon) = 0$ exactly")
    if pos.any():
        floor = 10.0 ** np.floor(np.log10(deltas[pos].min()))
        ax.set_yscale("symlog", linthresh=floor, linscale=0.5)
        ax.set_ylim(0, max(1.0, deltas.max()) * 1.5)
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$\delta(\varepsilon)$")
    ax.set_title(title, fontsize=8)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _plot_profile(path: str, eps, deltas, title: str) -> None:
    import matplotlib.pyplot as plt

    fig = profile_figure(eps, deltas, title)
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        _fail("plot", f"cannot write {path!r}: {exc.strerror or exc}")
    finally:
        plt.close(fig)


def cmd_profile(args) -> int:
    from numeric import privacy_profile

    design, domain = _design_domain(args)
    b = _b(args.b)
    eps = _grid(args.epsilons)
    _check_plot(args.plot)
    deltas = privacy_profile(design, domain, b, eps, noise=args.noise, progress=_show_progress(args.quiet))
    name = "sigma" if args.noise == "gaussian" else "b"
    if args.plot:
        _plot_profile(args.plot, eps, deltas, _describe(design, domain) + f"\n{args.noise}, {name} = {b:g}")
    print(f"{_describe(design, domain)}; {args.noise} noise, {name} = {b:g}")
    print(f"{'epsilon':>12s}  {'delta(epsilon)':>22s}")
    for e, d in zip(eps, deltas):
        print(f"{e:12.6g}  {d:22.15e}")
    if args.plot:
        print(f"wrote {args.plot}")
    return 0


# -- the parser -------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``dpderive: --flag: <message> (see 'dpderive cmd --help')``, exit 2."""

    def error(self, message):
        m = re.match(r"argument ([^:]+): (.*)", message, re.S)
        text = f"{m.group(1).split('/')[-1]}: {m.group(2)}" if m else message
        self.exit(2, " ".join(f"dpderive: {text} (see '{self.prog} --help')".split()) + "\n")


def _integer(text: str) -> int:
    """An integer flag; an integer-valued float such as 1e6 is accepted."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if math.isfinite(v) and v == int(v):
        return int(v)
    raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")


def _design_arguments(sp) -> None:
    sp.add_argument("--design", choices=("srs", "bernoulli"), default="srs",
                    help="the sampling design: simple random sampling of n of the N units without replacement "
                         "(srs), or each unit sampled independently with probability p (bernoulli); default srs")
    sp.add_argument("--N", type=_integer, required=True, help="population size, an integer >= 1 (units); required")
    sp.add_argument("--n", type=_integer, help="sample size, an integer in [1, N] (units; srs only, required there)")
    sp.add_argument("--p", type=float, help="inclusion probability of each unit, in (0, 1] (bernoulli only, required there)")
    sp.add_argument("--m-t", dest="m_t", type=_integer, default=0, help="smallest population total the domain allows, an integer in [0, N] (default 0)")
    sp.add_argument("--M-t", dest="M_t", type=_integer, default=None, help="largest population total the domain allows, an integer in [m_t, N] (default N)")
    sp.add_argument("--noise", choices=("laplace", "gaussian"), default="laplace",
                    help="the law of the noise added to the estimated total: Laplace of scale b, or Gaussian of "
                         "standard deviation sigma (default laplace)")


#: Each subcommand's description (what it does, in the units it speaks) and its examples, shown by
#: ``dpderive COMMAND --help``.
COMMANDS = {
    "verify": ("Verify every claim of the encoded papers (or those --only selects) in worker processes, each "
               "within a budget of CPU time, print each claim's verdict, title and statement, the errata with "
               "their counterexamples and corrections, and a summary per paper; store the verdicts for show, "
               "summary and latex. Exit status 1 if any claim has an unexpected outcome.",
               ["dpderive verify", "dpderive verify --only ht-mechanism --json out.json",
                "dpderive verify --only htm.r8.support_condition --budget-scale 2"]),
    "summary": ("Per paper: the number of claims by verdict, the errata, readings and findings, from the stored "
                "verdicts (the claims whose verdict is not stored are verified first).",
                ["dpderive summary", "dpderive summary --only k-randomization"]),
    "list": ("List the claims by paper and location: id, kind and place in the paper (nothing is verified).",
             ["dpderive list --only abs-pufferfish", "dpderive list --only 'profile.*'"]),
    "papers": ("The five source documents: short name, file, authors, date, title, and what is encoded of "
               "each; with --bibtex, a BibTeX entry per document.",
               ["dpderive papers", "dpderive papers --bibtex > sources.bib"]),
    "show": ("One claim in full: its paper's record and place, title, statement in the papers' notation with "
             "its conditions and hypotheses, LaTeX, the steps of its proof, its verdict and the results it "
             "cites (the stored verdict, or verified now).",
             ["dpderive show htm.r8.support_condition", "dpderive show htm.r2.not_pure --fresh"]),
    "readings": ("The readings of damaged (OCR'd) source text: the glyphs printed, the reading taken and why.",
                 ["dpderive readings --only ht-mechanism"]),
    "findings": ("The findings of the review: remarks on the papers that are neither errata nor readings.",
                 ["dpderive findings --only shlomo-skinner"]),
    "latex": ("Write the referee report (the errata, readings and findings) and the catalogue of every claim "
              "with its proof as LaTeX documents, from the stored verdicts; with --pdf, compile them.",
              ["dpderive latex --outdir reports --pdf", "dpderive latex --only private-deciles"]),
    "codegen": ("Write numeric/_generated.py from the registered formulas, or check that the committed file is "
                "up to date.", ["dpderive codegen --check"]),
    "calibrate": ("The smallest scale b of the noise added to the Horvitz-Thompson estimate of a population "
                  "total (Laplace noise of scale b, standard deviation sqrt(2) b, in the units of the total; "
                  "or Gaussian noise of standard deviation sigma) such that the release is (epsilon, delta)-"
                  "differentially private: for every pair of neighbouring populations -- populations that "
                  "differ in one unit's value -- and every set A of outputs, P(release in A) changes by at "
                  "most a factor e^epsilon, up to delta. Printed with the worst pair of neighbours and the "
                  "generic scale. A scale of 0 (no noise) holds only while the sample stays secret.",
                  ["dpderive calibrate --design srs --N 10000 --n 500 --epsilon 1 --delta 1e-6",
                   "dpderive calibrate --cells cells.csv --epsilon 1 --delta 1e-6 --out scales.csv",
                   "dpderive calibrate --design bernoulli --N 10000 --p 0.05 --epsilon 1 --delta 1e-6 "
                   "--noise gaussian"]),
    "profile": ("The privacy profile delta(epsilon) of the noisy Horvitz-Thompson total over a grid of epsilon: "
                "the smallest delta for each epsilon, the supremum over every pair of neighbouring "
                "populations (one unit's value changed), for the noise scale b given.",
                ["dpderive profile --design srs --N 10000 --n 500 --b 5.6 --epsilons 0:2:41 --plot profile.png"]),
}


def _describe_commands(sub) -> None:
    """Give every subcommand its description and examples (:data:`COMMANDS`)."""
    for name, parser in sub.choices.items():
        text, examples = COMMANDS[name]
        parser.description = textwrap.fill(text, 78)
        parser.epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples)
        parser.formatter_class = argparse.RawDescriptionHelpFormatter


def build_parser() -> argparse.ArgumentParser:
    usage = __doc__.split("\n\n", 1)[1].split("\nErrors.")[0]
    p = _Parser(prog="dpderive", description=__doc__.split("\n")[0].replace("``", ""), epilog=usage,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    jobs = max(1, os.cpu_count() or 1)

    only = dict(metavar="TERM", action="append",
                help="claims of a paper (ht-mechanism, 000), at a location ('Result 8'), with an id, prefix or "
                     "glob ('profile.*'), or PAPER:TERM; repeat for more (see 'dpderive --help'); default: every claim")
    width = dict(type=_integer, help="columns of the output (default: the terminal's, at most 100)")

    def verifying(sp, store: bool) -> None:
        sp.add_argument("--jobs", type=_integer, default=jobs, help=f"parallel workers (default {jobs})")
        sp.add_argument("--budget-scale", type=float, default=None, metavar="S",
                        help="multiply every claim's budget of CPU time by S > 0 (default 1, or "
                             "$DPDERIVE_BUDGET_SCALE): for a slow machine")
        sp.add_argument("--quiet", action="store_true",
                        help="no progress (a bar on a terminal, else a line every 10 s)")
        if store:
            sp.add_argument("--fresh", action="store_true",
                            help="verify again instead of reusing the stored verdicts")

    v = sub.add_parser("verify", help="verify every claim and list the errata (the main job)")
    v.add_argument("--only", **only)
    v.add_argument("--json", metavar="FILE", help="write the full results as JSON to FILE (default: none)")
    v.add_argument("--width", **width)
    verifying(v, store=False)
    v.set_defaults(func=cmd_verify)

    su = sub.add_parser("summary", help="per paper: claims by verdict, errata, readings, findings")
    su.add_argument("--only", **only)
    su.add_argument("--width", **width)
    verifying(su, store=True)
    su.set_defaults(func=cmd_summary)

    ls = sub.add_parser("list", help="list the claims by paper and location")
    ls.add_argument("--only", **only)
    ls.add_argument("--width", **width)
    ls.set_defaults(func=cmd_list)

    pa = sub.add_parser("papers", help="the source documents: record and what is encoded of each")
    pa.add_argument("--width", **width)
    pa.add_argument("--bibtex", action="store_true",
                    help="a BibTeX entry for each source, with what the document prints (missing fields said so)")
    pa.set_defaults(func=cmd_papers)

    sh = sub.add_parser("show", help="one claim in full: its paper's record, statement, LaTeX, verdict, citations")
    sh.add_argument("id", help="the claim's id, e.g. htm.r8.support_condition (dpderive list shows them)")
    sh.add_argument("--width", **width)
    sh.add_argument("--fresh", action="store_true", help="verify again instead of reusing the stored verdict")
    sh.add_argument("--budget-scale", type=float, default=None, metavar="S",
                    help="multiply the claim's budget of CPU time by S > 0 (default 1)")
    sh.set_defaults(func=cmd_show)

    for name, func, text in (("readings", cmd_readings, "the readings of damaged source text (printed glyphs, "
                                                         "reading, why)"),
                             ("findings", cmd_findings, "the findings of the review (neither errata nor readings)")):
        rf = sub.add_parser(name, help=text)
        rf.add_argument("--only", **only)
        rf.add_argument("--width", **width)
        rf.set_defaults(func=func)

    lx = sub.add_parser("latex", help="write the referee report and the catalogue of claims (LaTeX)")
    lx.add_argument("--outdir", default=".", metavar="DIR",
                    help=f"the directory of the two documents, {DOCUMENTS[0]} and {DOCUMENTS[1]} (default: here)")
    lx.add_argument("--pdf", action="store_true", help="compile both with pdflatex (twice), when it is installed")
    lx.add_argument("--only", **only)
    verifying(lx, store=True)
    lx.set_defaults(func=cmd_latex)

    cg = sub.add_parser("codegen", help="write numeric/_generated.py from the registered formulas")
    cg.add_argument("--check", action="store_true", help="exit 1 if the committed file is stale")
    cg.set_defaults(func=cmd_codegen)

    ca = sub.add_parser("calibrate", help="smallest noise scale meeting (eps, delta) for a sampled HT total "
                                          "(a scale of 0 holds only while the sample stays secret)")
    _design_arguments(ca)
    for action in ca._actions:          # --N is not needed with --cells (the table gives the designs)
        if action.dest == "N":
            action.required = False
            action.help = "population size, an integer >= 1 (units); required unless --cells is given"
    ca.add_argument("--epsilon", type=float, required=True,
                    help="the privacy loss epsilon (natural-log units), finite, >= 0; required")
    ca.add_argument("--delta", type=float, required=True,
                    help="the probability delta allowed beyond e^epsilon, in (0, 1); required")
    ca.add_argument("--cells", metavar="CELLS.csv",
                    help="a table of cells instead of one design: a CSV file with a header and one line per "
                         "stratum of each cell, columns cell,stratum,N,n (population and sample sizes, units) "
                         "and optionally lower,upper (the range of the values, in the variable's units; binary "
                         "0/1 data when absent), total (the expected stratum total) and sd (the expected "
                         "standard deviation of the stratum's values); default: none (one design from --N)")
    ca.add_argument("--out", metavar="SCALES.csv",
                    help="with --cells: write one line per cell (scale b in the units of the total, noise "
                         "standard deviation, worst pair, generic scale and ratio, RSE when totals are given) "
                         "to this CSV file instead of printing a summary; default: print")
    ca.add_argument("--split", default="parallel",
                    help="with --cells: how the budget is shared between cells: 'parallel' (the cells partition "
                         "the population: each cell at (eps, delta)), 'basic' (a unit may be in every cell: each "
                         "at (eps/k, delta/k), k the number of cells), an integer k (a unit changes at most k "
                         "cells: basic composition) or kov:K (K cells calibrated alike, the optimal composition "
                         "theorem); default parallel")
    ca.add_argument("--width", **width)
    ca.set_defaults(func=cmd_calibrate, numeric=True)

    pr = sub.add_parser("profile", help="delta(eps) of a sampled HT total over a grid of eps")
    _design_arguments(pr)
    pr.add_argument("--b", type=float, required=True, help="the scale b of the Laplace noise added to the estimated total (sigma for gaussian), "
                         "in the units of the total, finite, > 0; required")
    pr.add_argument("--epsilons", default="0:2:21",
                    help=f"LO:HI:COUNT (0 <= LO <= HI, 1 <= COUNT <= {MAX_EPSILONS}) or a comma-separated "
                         "list of numbers >= 0 (default 0:2:21)")
    pr.add_argument("--plot", metavar="FILE.png", help="save a plot of the profile to this PNG file (default: none)")
    pr.add_argument("--quiet", action="store_true", help="no progress bar (none either when stderr is not a terminal)")
    pr.set_defaults(func=cmd_profile, numeric=True)
    _describe_commands(sub)
    return p


def _silence_stdout() -> None:
    """After a broken pipe: send what is left of stdout to /dev/null (no error at interpreter exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        rc = args.func(args)
        sys.stdout.flush()
        return rc
    except ParameterError as exc:
        print(_error_line(exc), file=sys.stderr)
        return 2
    except ValueError as exc:
        if not getattr(args, "numeric", False):
            raise                   # not a refusal of the numeric layer: a bug keeps its traceback
        print(" ".join(f"dpderive: {exc}".split()), file=sys.stderr)   # the numeric layer's other refusals
        return 2
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print("dpderive: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
