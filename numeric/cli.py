"""The ``dpderive`` command line.

    dpderive verify [--only PATTERN] [--json FILE] [--jobs N]   verify every claim (main job)
    dpderive list                                               list the claims
    dpderive show ID                                            one claim, verified, with its citations
    dpderive readings | findings                                repairs of damaged text; remarks of the review
    dpderive latex --out FILE.tex                               the LaTeX report
    dpderive codegen [--check]                                  write / check numeric/_generated.py
    dpderive calibrate --design srs --N N --n n --epsilon E --delta D
                                                                the noise scale for (eps, delta), the worst pair
    dpderive profile --design srs --N N --n n --b B [--epsilons 0:2:21] [--plot FILE.png]
                                                                delta(eps) over a grid

Errors.  A bad argument ends in ONE line on stderr, ``dpderive: --flag: <what is wrong>``, and exit
status 2 (as argparse does), before any long computation: every flag's domain is checked up front
by the numeric layer's validation (:mod:`numeric._common`, whose ``ParameterError.param`` is mapped
to the flag) and every output file's directory is checked before computing.  Nothing is printed on
stdout before all the results of a command are computed.  Unexpected internal errors are not
disguised as user errors: they keep their traceback.  When stdout is closed early
(``dpderive verify | head``) the command stops quietly with exit status 141 (128 + SIGPIPE, what a
shell reports for a process killed by SIGPIPE, e.g. ``yes | head``).  Progress bars are shown only
when stderr is a terminal and ``--quiet`` is not given.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import re
import sys
import textwrap

from ._common import ParameterError, as_float, count, require, scalar

#: Python parameter name of the numeric layer -> CLI flag.
FLAGS = {"N": "--N", "n": "--n", "p": "--p", "m_t": "--m-t", "M_t": "--M-t", "b": "--b",
         "epsilon": "--epsilon", "epsilons": "--epsilons", "delta": "--delta", "noise": "--noise",
         "design": "--design", "jobs": "--jobs", "only": "--only", "out": "--out", "json": "--json",
         "plot": "--plot"}
#: At most this many values of epsilon in ``profile --epsilons``.
MAX_EPSILONS = 10_000
#: Exit status when stdout is closed early (128 + SIGPIPE).
EXIT_BROKEN_PIPE = 141


def _fail(param: str, message: str):
    """A one-line user error on the flag of ``param`` (``message`` without the flag's name)."""
    raise ParameterError(param, f"{param} {message}")


def _error_line(exc: ParameterError, flags: dict[str, str]) -> str:
    """``dpderive: --flag: <message>``; the message loses its leading parameter name (the flag says it)."""
    msg = " ".join(str(exc).split())
    flag = flags.get(exc.param)
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


# -- claims -----------------------------------------------------------------------------------------
def _select(pattern: str | None):
    import derivations

    claims = derivations.claims()
    if pattern:
        claims = [c for c in claims if fnmatch.fnmatch(c.id, pattern) or pattern in c.id]
        if not claims:
            _fail("only", f"matches no claim: {pattern!r} (`dpderive list` lists them)")
    return claims


def _jobs(jobs) -> int:
    return count("jobs", jobs, 1)


def _show_progress(quiet: bool) -> bool:
    """A progress bar only on a terminal (no bar spam in logs and pipes) and without --quiet."""
    try:
        return not quiet and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _verify(claims, jobs: int, quiet: bool = False):
    from derivations import verify_many
    from tqdm import tqdm

    bar = tqdm(total=len(claims), desc="verifying", unit="claim", disable=not _show_progress(quiet),
               file=sys.stderr)

    def tick(v):
        bar.set_postfix_str(v.claim_id[-40:])
        bar.update(1)

    try:
        return verify_many(claims, jobs=jobs, progress=tick)
    finally:
        bar.close()


def cmd_verify(args) -> int:
    from derivations import errata, readings, findings
    from derivations.engine.report import json_report, strength_line, table

    jobs = _jobs(args.jobs)
    _check_output("json", args.json)
    claims = _select(args.only)
    verdicts = _verify(claims, jobs, args.quiet)
    by_id = {v.claim_id: v for v in verdicts}
    if args.json:
        _write_text("json", args.json, json.dumps(json_report(by_id), indent=2))
    print(table(verdicts))
    shown = [e for e in errata() if e.printed.id in by_id]
    if shown:
        print(f"\nErrata ({len(shown)}): statements printed in the sources that are wrong\n")
    for e in shown:
        vp = by_id[e.printed.id]
        print(f"* {e.id}  [{e.source}]  printed statement {vp.label}")
        print(f"    printed:        {e.printed.statement}")
        cex = ", ".join(f"{k} = {v}" for k, v in e.printed.counterexample.items()) or "the closed statement itself"
        print(f"    counterexample: {cex}  ({vp.checks[0].detail if vp.checks else ''})")
        vc = by_id.get(e.corrected.id)
        print(f"    corrected:      {e.corrected.statement}  [{vc.label if vc else 'not run'}]")
        print(textwrap.indent(textwrap.fill(e.explanation, 96), "    "))
    bad = [v for v in verdicts if not v.ok]
    ids = set(by_id)
    n_read = sum(1 for r in readings() if not r.claims or ids & set(r.claims))
    n_find = sum(1 for f in findings() if not f.claims or ids & set(f.claims))
    print(f"\n{len(verdicts)} claims: {len(verdicts) - len(bad)} as expected, {len(bad)} unexpected; "
          f"{len(shown)} errata; {n_read} readings of damaged text and {n_find} findings "
          f"(`dpderive readings`, `dpderive findings`).")
    print("By strength: " + strength_line(verdicts) + ".")
    for v in bad:
        print(f"UNEXPECTED: {v.claim_id}: {v.label}: " + "; ".join(c.detail for c in v.checks))
    if args.json:
        print(f"wrote {args.json}")
    return 1 if bad else 0


def cmd_list(args) -> int:
    for c in _select(args.only):
        tag = " (printed; refuted)" if not c.expected else ""
        print(f"{c.id:48s} {c.kind:10s} {c.source}{tag}")
    return 0


def cmd_show(args) -> int:
    import derivations

    try:
        c = derivations.get(args.id)
    except KeyError as exc:
        print(" ".join(f"dpderive: {exc.args[0]}".split()), file=sys.stderr)
        return 2
    v = _verify([c], 1, quiet=True)[0]
    print(f"{c.id}: {c.title}\nsource:     {c.source}\nkind:       {c.kind}")
    print(f"statement:  {c.statement}")
    if c.conditions:
        print("conditions: " + ", ".join(map(str, c.conditions)))
    print(f"latex:      {c.latex()}")
    if c.note:
        print(f"note:       {c.note}")
    print(f"verdict:    {v.label} ({v.method}, {v.seconds:.2f} s)")
    for chk in v.checks:
        print(f"  - {chk.method}: {chk.detail}")
        if chk.counterexample:
            print(f"    counterexample: {chk.counterexample}")
    for key in v.citations:
        ref = derivations.CITATIONS[key]
        print(f"cites:      {ref.name}. {ref.statement} [{ref.reference}]")
    for r in derivations.readings():
        if c.id in r.claims:
            print(f"reading:    {r.id}: printed '{r.printed}', read as '{r.reading}'")
    for f in derivations.findings():
        if c.id in f.claims:
            print(f"finding:    {f.id}: {f.text}")
    return 0 if v.ok else 1


def cmd_readings(args) -> int:
    import derivations

    for r in derivations.readings():
        print(f"* {r.id}  [{r.source}]")
        for head, text in (("printed", r.printed), ("read as", r.reading), ("why", r.why),
                           ("other readings", r.alternatives)):
            if text:
                print(textwrap.indent(textwrap.fill(f"{head}: {text}", 96), "    "))
    return 0


def cmd_findings(args) -> int:
    import derivations

    for f in derivations.findings():
        print(f"* {f.id}  [{f.source}]")
        print(textwrap.indent(textwrap.fill(f.text, 96), "    "))
    return 0


def cmd_latex(args) -> int:
    from derivations.engine.latex import latex_document

    jobs = _jobs(args.jobs)
    _check_output("out", args.out)
    claims = _select(args.only)
    verdicts = _verify(claims, jobs, args.quiet)
    text = latex_document({v.claim_id: v for v in verdicts})
    _write_text("out", args.out, text)
    print(f"wrote {args.out} ({len(verdicts)} claims)")
    return 0 if all(v.ok for v in verdicts) else 1


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


def cmd_calibrate(args) -> int:
    from numeric import amplified_laplace_scale, calibrate_scale, worst_pair

    design, domain = _design_domain(args)
    eps, delta = _epsilon(args.epsilon), _delta(args.delta)
    # Everything is computed before anything is printed.
    scale = calibrate_scale(design, domain, eps, delta, noise=args.noise)
    pair = worst_pair(design, domain, scale, eps, noise=args.noise) if scale > 0 else None
    generic = None
    if args.noise == "laplace" and eps > 0:
        generic = amplified_laplace_scale(design, domain, eps)
    name = "sigma" if args.noise == "gaussian" else "b"
    print(_describe(design, domain))
    print(f"{args.noise} noise, target (eps, delta) = ({eps:g}, {delta:g})")
    print(f"smallest scale:  {name} = {scale:.10g}")
    if pair is not None:
        print(f"worst pair:      {pair}")
    else:
        print("no noise needed: the estimate alone meets (eps, delta), but only if the sample stays secret "
              "(the randomness of sampling is then the only protection)")
    if args.noise == "laplace":
        head = "generic route (Laplace on the sample + amplification by subsampling)"
        if generic is None or not math.isfinite(generic):
            print(f"{head}: no finite scale at eps = {eps:g}")
        else:
            print(f"{head}: b = {generic:.10g}; exact/generic = {scale / generic:.6g}")
    return 0


def cmd_profile(args) -> int:
    from numeric import privacy_profile

    design, domain = _design_domain(args)
    b = _b(args.b)
    eps = _grid(args.epsilons)
    _check_plot(args.plot)
    deltas = privacy_profile(design, domain, b, eps, noise=args.noise, progress=_show_progress(args.quiet))
    name = "sigma" if args.noise == "gaussian" else "b"
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(eps, deltas, marker=".")
        ax.set_xlabel(r"$\varepsilon$")
        ax.set_ylabel(r"$\delta(\varepsilon)$")
        ax.set_title(_describe(design, domain) + f"\n{args.noise}, {name} = {b:g}", fontsize=8)
        if (deltas > 0).any():
            ax.set_yscale("log")
        fig.tight_layout()
        try:
            fig.savefig(args.plot, dpi=120)
        except OSError as exc:
            _fail("plot", f"cannot write {args.plot!r}: {exc.strerror or exc}")
        finally:
            plt.close(fig)
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
    sp.add_argument("--design", choices=("srs", "bernoulli"), default="srs")
    sp.add_argument("--N", type=_integer, required=True, help="population size")
    sp.add_argument("--n", type=_integer, help="sample size (srs)")
    sp.add_argument("--p", type=float, help="inclusion probability (bernoulli)")
    sp.add_argument("--m-t", dest="m_t", type=_integer, default=0, help="smallest population total (default 0)")
    sp.add_argument("--M-t", dest="M_t", type=_integer, default=None, help="largest population total (default N)")
    sp.add_argument("--noise", choices=("laplace", "gaussian"), default="laplace")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="dpderive", description=__doc__.split("\n")[0],
                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    jobs = max(1, os.cpu_count() or 1)

    v = sub.add_parser("verify", help="verify every claim and list the errata (the main job)")
    v.add_argument("--only", metavar="PATTERN", help="claim ids matching this glob or substring")
    v.add_argument("--json", metavar="FILE", help="write the full results as JSON")
    v.add_argument("--jobs", type=_integer, default=jobs, help=f"parallel workers (default {jobs})")
    v.add_argument("--quiet", action="store_true", help="no progress bar (none either when stderr is not a terminal)")
    v.set_defaults(func=cmd_verify)

    ls = sub.add_parser("list", help="list the claims")
    ls.add_argument("--only", metavar="PATTERN")
    ls.set_defaults(func=cmd_list)

    sh = sub.add_parser("show", help="statement, conditions, source, LaTeX and verdict of one claim")
    sh.add_argument("id")
    sh.set_defaults(func=cmd_show)

    sub.add_parser("readings", help="the readings of damaged source text (printed glyphs, reading, why)"
                   ).set_defaults(func=cmd_readings)
    sub.add_parser("findings", help="the findings of the review (neither errata nor readings)"
                   ).set_defaults(func=cmd_findings)

    lx = sub.add_parser("latex", help="write the LaTeX report of all claims")
    lx.add_argument("--out", required=True, metavar="FILE.tex")
    lx.add_argument("--only", metavar="PATTERN")
    lx.add_argument("--jobs", type=_integer, default=jobs)
    lx.add_argument("--quiet", action="store_true")
    lx.set_defaults(func=cmd_latex)

    cg = sub.add_parser("codegen", help="write numeric/_generated.py from the registered formulas")
    cg.add_argument("--check", action="store_true", help="exit 1 if the committed file is stale")
    cg.set_defaults(func=cmd_codegen)

    ca = sub.add_parser("calibrate", help="smallest noise scale meeting (eps, delta) for a sampled HT total")
    _design_arguments(ca)
    ca.add_argument("--epsilon", type=float, required=True, help="finite, >= 0")
    ca.add_argument("--delta", type=float, required=True, help="in (0, 1)")
    ca.set_defaults(func=cmd_calibrate, numeric=True)

    pr = sub.add_parser("profile", help="delta(eps) of a sampled HT total over a grid of eps")
    _design_arguments(pr)
    pr.add_argument("--b", type=float, required=True, help="noise scale (sigma for gaussian), finite, > 0")
    pr.add_argument("--epsilons", default="0:2:21",
                    help=f"LO:HI:COUNT (0 <= LO <= HI, 1 <= COUNT <= {MAX_EPSILONS}) or a comma-separated "
                         "list of numbers >= 0 (default 0:2:21)")
    pr.add_argument("--plot", metavar="FILE.png", help="save a plot of the profile")
    pr.add_argument("--quiet", action="store_true", help="no progress bar (none either when stderr is not a terminal)")
    pr.set_defaults(func=cmd_profile, numeric=True)
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
        print(_error_line(exc, FLAGS), file=sys.stderr)
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
