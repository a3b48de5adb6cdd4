"""The ``dpderive`` command line.

    dpderive verify [--only PATTERN] [--json FILE] [--jobs N]   verify every claim (main job)
    dpderive list                                               list the claims
    dpderive show ID                                            one claim, verified
    dpderive latex --out FILE.tex                               the LaTeX report
    dpderive codegen [--check]                                  write / check numeric/_generated.py
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
    from derivations import errata
    from derivations.report import json_report, table

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
    print(f"\n{len(verdicts)} claims: {len(verdicts) - len(bad)} as expected, {len(bad)} unexpected; "
          f"{len(shown)} errata.")
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
    return 0 if v.ok else 1


def cmd_latex(args) -> int:
    from derivations.report import latex_document

    claims = _select(args.only)
    verdicts = _verify(claims, args.jobs, args.quiet)
    text = latex_document({v.claim_id: v for v in verdicts})
    with open(args.out, "w") as fh:
        fh.write(text)
    print(f"wrote {args.out} ({len(verdicts)} claims)")
    return 0 if all(v.ok for v in verdicts) else 1


def cmd_codegen(args) -> int:
    import derivations  # noqa: F401  (registers the formulas)
    from derivations import codegen

    if args.check:
        if codegen.check():
            print(f"{codegen.GENERATED_PATH} is up to date")
            return 0
        print(f"{codegen.GENERATED_PATH} is stale: run `dpderive codegen`", file=sys.stderr)
        return 1
    print(f"wrote {codegen.write()}")
    return 0


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

    lx = sub.add_parser("latex", help="write the LaTeX report of all claims")
    lx.add_argument("--out", required=True, metavar="FILE.tex")
    lx.add_argument("--only", metavar="PATTERN")
    lx.add_argument("--jobs", type=int, default=jobs)
    lx.add_argument("--quiet", action="store_true")
    lx.set_defaults(func=cmd_latex)

    cg = sub.add_parser("codegen", help="write numeric/_generated.py from the registered formulas")
    cg.add_argument("--check", action="store_true", help="exit 1 if the committed file is stale")
    cg.set_defaults(func=cmd_codegen)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
