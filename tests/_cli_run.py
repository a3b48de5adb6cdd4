"""Running the ``dpderive`` command in-process, for the CLI tests."""
from __future__ import annotations

from numeric.cli import main


def run(capsys, *args):
    """``main(args)`` in-process: (exit status, stdout, stderr); argparse's exits included."""
    try:
        rc = main([str(a) for a in args])
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err
