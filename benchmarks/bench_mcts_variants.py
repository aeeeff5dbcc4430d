"""``mcts`` with changed search parameters, each against ``expert`` on the same duplicate deals.

Each variant sets search arguments of :class:`~rummy500.bots.mcts.MctsBot` (``horizon``,
``holds``, ``confidence``, ``candidates``, ``margin``, ``light``, ``lean``:
``SEARCH_OPTIONS``); it plays ``mcts`` against ``expert`` exactly as ``rummy500 tournament
--bots mcts,expert`` does, with the same seed, so every variant meets the very same pack
orders. The report gives, per variant, ``mcts`` less ``expert`` per deal over the
duplicate pairs, and for each variant after the first its difference from the first, pair
by pair, with a 95% interval: the measure of whether a change to the search pays.

Run (the figures of docs/strength.md's "What made `mcts` stronger"):

    nice -n 5 .venv/bin/python benchmarks/bench_mcts_variants.py --deals 100 \\
        --variant now --variant holds=0

``--variant NAME=VALUE,...`` (``now``: the defaults), ``--preset``, ``--players``,
``--deals``, ``--seed``, ``--worlds`` (32; 0 for the time budget), ``--workers``,
``--json``. Each variant is the tournament's ``bot_options`` for ``mcts``, so worker
processes play it too.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rummy500.bots.search_options import SEARCH_OPTIONS, search_options
from rummy500.errors import OptionsError
from rummy500.rules import find_preset
from rummy500.runners.tournament import TournamentSpec, mean_ci, run_tournament

Variant = dict[str, float]


def parse_variant(text: str) -> Variant:
    """``now`` (the defaults) or ``name=value,...`` over ``SEARCH_OPTIONS``."""
    if text == "now":
        return {}
    variant: Variant = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or name not in SEARCH_OPTIONS:
            raise SystemExit(f"bench_mcts_variants: {part!r} is not NAME=VALUE with NAME one "
                             f"of {', '.join(SEARCH_OPTIONS)}")
        try:
            variant[name] = float(value)
            search_options(variant)
        except ValueError as error:  # OptionsError too
            raise SystemExit(f"bench_mcts_variants: {value!r} is not a value for {name}"
                             f"{': ' + str(error) if isinstance(error, OptionsError) else ''}"
                             ) from None
    return variant


def play(spec: TournamentSpec, variant: Variant, label: str, console: Console
         ) -> dict[str, Any]:
    """One tournament of ``mcts`` (with ``variant``) against ``expert``."""
    progress = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, transient=True,
                        disable=not console.is_terminal)
    task = progress.add_task("deals", total=None)
    spec = replace(spec, bot_options={"mcts": variant})
    with progress:
        result = run_tournament(
            spec, lambda done, total: progress.update(task, completed=done, total=total))
    assert result.difference is not None
    data = result.as_dict()
    return {"variant": label, "arguments": search_options(variant), "pairs": result.difference[2],
            "difference": data["difference"], "seconds": data["seconds"],
            "decision_ms": data["bots"]["mcts"]["decision_ms"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", required=True,
                        help="now, or NAME=VALUE,... (repeat; the first is the reference)")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=0)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    variants = [(text, parse_variant(text)) for text in args.variant]
    try:
        rules = find_preset(args.preset)
        players = args.players or rules.default_players
        spec = TournamentSpec(("mcts", "expert"), players, rules, seed=args.seed,
                              deals=args.deals, worlds=args.worlds or None,
                              workers=args.workers)
        spec.check()
    except ValueError as error:  # RulesError, TournamentError
        raise SystemExit(f"bench_mcts_variants: {error}") from None
    console = Console(stderr=True)
    runs = [play(spec, variant, label, console) for label, variant in variants]
    reference = runs[0]["pairs"]
    for run in runs[1:]:
        gains = [a - b for a, b in zip(run["pairs"], reference, strict=True)]
        mean, low, high = mean_ci(gains)
        run["against_first"] = {"points_per_deal": round(mean, 2),
                                "ci95": [round(low, 2), round(high, 2)]}
    if args.json:
        json.dump({"preset": args.preset, "players": players, "deals": args.deals,
                   "seed": args.seed, "worlds": args.worlds or None,
                   "variants": [{k: v for k, v in run.items() if k != "pairs"} for run in runs]},
                  sys.stdout, indent=2)
        print()
        return 0
    table = Table(title=f"mcts against expert, {args.preset}, {players} players, "
                        f"{args.deals} duplicate pairs (seed {args.seed}, "
                        f"--worlds {args.worlds or 'none: 1 s budget'})")
    for column in ("variant", "mcts less expert a deal", "less the first variant",
                   "ms mean / p95", "seconds"):
        table.add_column(column)
    for run in runs:
        diff = run["difference"]
        low, high = diff["ci95"]
        against = run.get("against_first")
        table.add_row(
            run["variant"], f"{diff['points_per_deal']:+.1f} ({low:+.1f} to {high:+.1f})",
            (f"{against['points_per_deal']:+.1f} ({against['ci95'][0]:+.1f} to "
             f"{against['ci95'][1]:+.1f})") if against else "—",
            f"{run['decision_ms']['mean']:.0f} / {run['decision_ms']['p95']:.0f}",
            f"{run['seconds']:.0f}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
