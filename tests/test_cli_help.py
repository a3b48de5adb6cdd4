"""Every subcommand says what it does and shows examples; every option and argument has a help text that
states its default or that it is required.  The parser is walked (argparse's own structures), so a new
option without help fails here; controls show that the walk finds such an option."""
from __future__ import annotations

import argparse
import shlex

import pytest

from numeric.cli import build_parser

VALUE_ACTIONS = (argparse._StoreAction, argparse._AppendAction)


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def problems(name: str, parser: argparse.ArgumentParser) -> list[str]:
    """What is missing from one subcommand's help."""
    out = []
    if not (parser.description or "").strip():
        out.append(f"{name}: no description")
    if "examples:" not in (parser.epilog or ""):
        out.append(f"{name}: no examples")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        label = action.option_strings[0] if action.option_strings else action.dest
        if not (action.help or "").strip():
            out.append(f"{name} {label}: no help")
        elif action.option_strings and isinstance(action, VALUE_ACTIONS) and not action.required \
                and "default" not in action.help and "required" not in action.help:
            out.append(f"{name} {label}: the help does not state the default")
    return out


def test_every_subcommand_and_option_is_described():
    found = [p for name, sp in subcommands(build_parser()).items() for p in problems(name, sp)]
    assert not found, found


def test_the_walk_finds_an_undescribed_option_and_a_missing_default():
    """Controls: an option without help and one whose help omits its default are reported."""
    parser = build_parser()
    calibrate = subcommands(parser)["calibrate"]
    calibrate.add_argument("--undocumented")
    calibrate.add_argument("--silent-default", default=3, help="a number")
    assert set(problems("calibrate", calibrate)) == {"calibrate --undocumented: no help",
                                                    "calibrate --silent-default: the help does not state the default"}


@pytest.mark.parametrize("name", sorted(subcommands(build_parser())))
def test_each_example_parses_as_its_subcommand(name):
    parser = build_parser()
    lines = [line.strip() for line in subcommands(parser)[name].epilog.splitlines()[1:] if line.strip()]
    assert lines
    for line in lines:
        words = shlex.split(line.split(" > ")[0])
        assert words[:2] == ["dpderive", name], line
        assert parser.parse_args(words[1:]).command == name


def test_calibrate_help_says_what_b_scales_and_what_a_neighbour_is(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["calibrate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "noise added to the Horvitz-Thompson estimate of a population total" in text
    assert "neighbouring populations -- populations that differ in one unit's value" in text
    assert "only while the sample stays secret" in text
