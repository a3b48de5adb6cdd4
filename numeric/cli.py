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
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
import textwrap

from tqdm import tqdm


def _select(pattern: str | None):
    import derivations

    claims = derivations.claims()
    if pattern:
        claims = [c for c in claims if fnmatch.fnmatch(c.id, pattern) or pattern in c.id]
        if not claims:
            raise SystemExit(f"dpderive: no claim matches {pattern!r}")
    return claims


def _verify(claims, jobs: int, quiet: bool = False):
    from derivations import verify_many

    bar = tqdm(total=len(claims), desc="verifying", unit="claim", disable=quiet, file=sys.stderr)

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

    claims = _select(args.only)
    verdicts = _verify(claims, args.jobs, args.quiet)
    by_id = {v.claim_id: v for v in verdicts}
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
        with open(args.json, "w") as fh:
            json.dump(json_report(by_id), fh, indent=2)
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
        print(f"dpderive: {exc.args[0]}", file=sys.stderr)
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
    from derivations.engine.report import latex_document

    claims = _select(args.only)
    verdicts = _verify(claims, args.jobs, args.quiet)
    text = latex_document({v.claim_id: v for v in verdicts})
    with open(args.out, "w") as fh:
        fh.write(text)
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


def _design_domain(args):
    from numeric import SRS, Bernoulli, BinaryDomain

    if args.design == "srs":
        if args.n is None:
            raise SystemExit("dpderive: --n is required with --design srs")
        design = SRS(args.N, args.n)
    else:
        if args.p is None:
            raise SystemExit("dpderive: --p is required with --design bernoulli")
        design = Bernoulli(args.N, args.p)
    return design, BinaryDomain(args.N, args.m_t, args.M_t)


def _grid(text: str):
    import numpy as np

    if ":" in text:
        lo, hi, k = text.split(":")
        return np.linspace(float(lo), float(hi), int(k))
    return np.array([float(v) for v in text.split(",")])


def _describe(design, domain) -> str:
    what = f"SRS N = {design.N}, n = {design.n}" if hasattr(design, "n") else f"Bernoulli N = {design.N}, p = {design.p:g}"
    return f"{what}; binary data, population total in [{domain.m_t}, {domain.M_t}]"


def _guarded(fn):
    """Run a command; bad parameters end in a one-line message and exit status 2."""
    def run(args):
        try:
            return fn(args)
        except ValueError as exc:
            print(f"dpderive: {exc}", file=sys.stderr)
            return 2
    return run


@_guarded
def cmd_calibrate(args) -> int:
    from numeric import amplified_laplace_scale, calibrate_scale, worst_pair

    design, domain = _design_domain(args)
    scale = calibrate_scale(design, domain, args.epsilon, args.delta, noise=args.noise)
    name = "sigma" if args.noise == "gaussian" else "b"
    print(_describe(design, domain))
    print(f"{args.noise} noise, target (eps, delta) = ({args.epsilon:g}, {args.delta:g})")
    print(f"smallest scale:  {name} = {scale:.10g}")
    if scale > 0:
        print(f"worst pair:      {worst_pair(design, domain, scale, args.epsilon, noise=args.noise)}")
    else:
        print("no noise needed: the estimate alone meets (eps, delta)")
    if args.noise == "laplace":
        generic = amplified_laplace_scale(design, domain, args.epsilon)
        print(f"generic route (Laplace on the sample + amplification by subsampling): b = {generic:.10g}; "
              f"exact/generic = {scale / generic:.6g}")
    return 0


@_guarded
def cmd_profile(args) -> int:
    from numeric import privacy_profile

    design, domain = _design_domain(args)
    eps = _grid(args.epsilons)
    deltas = privacy_profile(design, domain, args.b, eps, noise=args.noise, progress=not args.quiet)
    name = "sigma" if args.noise == "gaussian" else "b"
    print(f"{_describe(design, domain)}; {args.noise} noise, {name} = {args.b:g}")
    print(f"{'epsilon':>12s}  {'delta(epsilon)':>22s}")
    for e, d in zip(eps, deltas):
        print(f"{e:12.6g}  {d:22.15e}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(eps, deltas, marker=".")
        ax.set_xlabel(r"$\varepsilon$")
        ax.set_ylabel(r"$\delta(\varepsilon)$")
        ax.set_title(_describe(design, domain) + f"\n{args.noise}, {name} = {args.b:g}", fontsize=8)
        if (deltas > 0).any():
            ax.set_yscale("log")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print(f"wrote {args.plot}")
    return 0


def _design_arguments(sp) -> None:
    sp.add_argument("--design", choices=("srs", "bernoulli"), default="srs")
    sp.add_argument("--N", type=int, required=True, help="population size")
    sp.add_argument("--n", type=int, help="sample size (srs)")
    sp.add_argument("--p", type=float, help="inclusion probability (bernoulli)")
    sp.add_argument("--m-t", dest="m_t", type=int, default=0, help="smallest population total (default 0)")
    sp.add_argument("--M-t", dest="M_t", type=int, default=None, help="largest population total (default N)")
    sp.add_argument("--noise", choices=("laplace", "gaussian"), default="laplace")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dpderive", description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    jobs = max(1, os.cpu_count() or 1)

    v = sub.add_parser("verify", help="verify every claim and list the errata (the main job)")
    v.add_argument("--only", metavar="PATTERN", help="claim ids matching this glob or substring")
    v.add_argument("--json", metavar="FILE", help="write the full results as JSON")
    v.add_argument("--jobs", type=int, default=jobs, help=f"parallel workers (default {jobs})")
    v.add_argument("--quiet", action="store_true", help="no progress bar")
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
    lx.add_argument("--jobs", type=int, default=jobs)
    lx.add_argument("--quiet", action="store_true")
    lx.set_defaults(func=cmd_latex)

    cg = sub.add_parser("codegen", help="write numeric/_generated.py from the registered formulas")
    cg.add_argument("--check", action="store_true", help="exit 1 if the committed file is stale")
    cg.set_defaults(func=cmd_codegen)

    ca = sub.add_parser("calibrate", help="smallest noise scale meeting (eps, delta) for a sampled HT total")
    _design_arguments(ca)
    ca.add_argument("--epsilon", type=float, required=True)
    ca.add_argument("--delta", type=float, required=True)
    ca.set_defaults(func=cmd_calibrate)

    pr = sub.add_parser("profile", help="delta(eps) of a sampled HT total over a grid of eps")
    _design_arguments(pr)
    pr.add_argument("--b", type=float, required=True, help="noise scale (sigma for gaussian)")
    pr.add_argument("--epsilons", default="0:2:21", help="LO:HI:COUNT or a comma-separated list (default 0:2:21)")
    pr.add_argument("--plot", metavar="FILE.png", help="save a plot of the profile")
    pr.add_argument("--quiet", action="store_true", help="no progress bar")
    pr.set_defaults(func=cmd_profile)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
