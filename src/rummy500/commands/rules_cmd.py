"""``rummy500 rules [PRESET]``: the presets and every rule option, or one preset in full."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from ..narrate import game_stop_rule, idle_rule, value_text
from ..rules import OPTION_TABLE, OPTIONS, PRESET_DOCS, PRESETS, Rules, RulesError
from ..runners.simulation import rules_from_options

WIDTH = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", nargs="?", metavar="PRESET",
                        help=f"show this preset's full settings ({', '.join(PRESETS)})")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="set a rule option over the preset (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def settings(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` with its value (not the preset's name)."""
    return {option.name: getattr(rules, option.name) for option in OPTIONS}


def differences(rules: Rules, base: Rules | None = None) -> dict[str, Any]:
    """The options of ``rules`` whose values differ from ``base`` (classic by default)."""
    reference = settings(base if base is not None else PRESETS["classic"])
    return {name: value for name, value in settings(rules).items() if reference[name] != value}


def overview() -> dict[str, Any]:
    """Every preset and every option, as JSON data."""
    classic = settings(PRESETS["classic"])
    return {
        "presets": {
            name: {"meaning": PRESET_DOCS.get(name, ""), "differs_from_classic": differences(rules)}
            for name, rules in PRESETS.items()
        },
        "options": {
            option.name: {"meaning": option.meaning, "books": option.books,
                          "values": option.values, "classic": classic.get(option.name)}
            for option in OPTIONS
        },
    }


def preset_detail(name: str, rules: Rules) -> dict[str, Any]:
    return {
        "preset": name,
        "meaning": PRESET_DOCS.get(name, ""),
        "settings": settings(rules),
        "differs_from_classic": differences(rules),
        "differs_from_preset": differences(rules, PRESETS[name]),
    }


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False) or [indent.rstrip()]


def _changes(values: dict[str, Any]) -> str:
    return ", ".join(f"{name}={value_text(value)}" for name, value in values.items())


def overview_text() -> list[str]:
    lines = ["Presets (rummy500 rules PRESET shows one in full):", ""]
    for name, rules in PRESETS.items():
        lines.append(f"  {name}")
        lines.extend(_wrap(PRESET_DOCS.get(name, ""), "      "))
        diff = differences(rules)
        if diff:
            lines.extend(_wrap(f"differs from classic: {_changes(diff)}", "      "))
        lines.append("")
    lines += ["Options (set any over a preset with --option NAME=VALUE):", ""]
    classic = settings(PRESETS["classic"])
    for option in OPTIONS:
        lines.append(f"  {option.name}  (classic: {value_text(classic.get(option.name))})")
        lines.extend(_wrap(option.meaning, "      "))
        lines.extend(_wrap(f"values: {option.values}", "      "))
        lines.extend(_wrap(f"books: {option.books}", "      "))
        lines.append("")
    lines.extend(_wrap("Every preset: " + idle_rule() + "; and " + game_stop_rule() + ".", ""))
    lines.append("")
    lines.append("Books: 000 Dummies-style, 001 BestFreeNewGames, 002, 003, 004 encyclopedia "
                 "(see docs/rules.md).")
    return lines


def detail_text(name: str, rules: Rules) -> list[str]:
    lines = [f"Preset {name}:"]
    lines.extend(_wrap(PRESET_DOCS.get(name, ""), "  "))
    lines.append("")
    classic = settings(PRESETS["classic"])
    preset = settings(PRESETS[name])
    width = max(len(option) for option in OPTION_TABLE)
    for option, value in settings(rules).items():
        notes = []
        if value != preset[option]:
            notes.append(f"set over {name}'s {value_text(preset[option])}")
        elif value != classic[option]:
            notes.append(f"classic: {value_text(classic[option])}")
        note = f"  ({'; '.join(notes)})" if notes else ""
        lines.append(f"  {option:<{width}} = {value_text(value)}{note}")
        lines.extend(_wrap(OPTION_TABLE[option].meaning, " " * (width + 5)))
    lines.append("")
    lines.extend(_wrap("And in every preset: " + idle_rule() + "; and "
                       + game_stop_rule(rules) + ".", "  "))
    return lines


def run(args: argparse.Namespace) -> int:
    if args.preset is None and not args.option:
        if args.json:
            print(json.dumps(overview(), indent=2))
        else:
            print("\n".join(overview_text()))
        return 0
    name = args.preset if args.preset is not None else "classic"
    try:
        rules = rules_from_options(name, args.option)
    except RulesError as error:
        print(f"rummy500 rules: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(preset_detail(name, rules), indent=2))
    else:
        print("\n".join(detail_text(name, rules)))
    return 0
