"""``rummy500 simulate``: play deals between computer players and sum them up."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from ..bots import check_budget, check_worlds
from ..errors import BadInputError, OptionsError
from ..game import Game
from ..narrate import seat_name, side_name, value_text
from ..record import game_record
from ..rules import RulesError
from ..runners.simulation import (
    ENDINGS,
    DealOutcome,
    SimulationError,
    Summary,
    bot_names_for,
    rules_from_options,
    simulate,
)
from .options import (
    add_bot_argument,
    add_ray_argument,
    add_rule_arguments,
    add_search_arguments,
    failure,
)

if TYPE_CHECKING:
    from rich.progress import Progress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", "-n", type=int, default=100, help="deals to play (100)")
    add_rule_arguments(parser)
    add_bot_argument(parser)
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the run (each deal is seeded from it and its number); "
                        "drawn at random and shown when left out")
    add_search_arguments(parser)
    parser.add_argument("--records", type=Path, default=None, metavar="DIR",
                        help="write every deal's record to DIR/deal-00001.json, …")
    add_ray_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def make_progress(errors: Console, deals: int) -> Progress:
    """The progress bar of the run on ``errors`` (a terminal), its one task added."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=errors, transient=True,
    )
    progress.add_task("deals", total=deals)
    return progress


fail = partial(failure, "simulate")
"""Say why the command cannot go on; its exit status."""


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_options(args.preset, args.option)
        players = args.players if args.players is not None else rules.default_players
        rules.check_players(players)
        bots = bot_names_for(args.bot, players)
    except (RulesError, SimulationError) as error:
        return fail(str(error))
    if args.deals < 1:
        return fail("--deals must be at least 1")
    try:
        check_budget(args.budget, "--budget")
        check_worlds(args.worlds)
    except BadInputError as error:
        return fail(str(error))
    except OptionsError as error:
        return fail(f"--worlds: {error}")
    if args.seed is not None:
        seed = args.seed
    else:
        import secrets  # only for a run without --seed (it loads hashlib and hmac)

        seed = secrets.randbelow(2**31)
    records: Path | None = args.records
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return fail(f"cannot make the records folder {records}: {error}")

    errors = Console(stderr=True)
    # The progress bar shows on a terminal only: elsewhere it is not even loaded.
    progress = make_progress(errors, args.deals) if errors.is_terminal else None

    def keep(outcome: DealOutcome, record: dict[str, Any] | None) -> None:
        if records is not None and record is not None:
            path = records / f"deal-{outcome.index + 1:05d}.json"
            path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        if progress is not None:
            progress.advance(progress.task_ids[0])

    def on_deal(game: Game, outcome: DealOutcome) -> None:
        keep(outcome, game_record(game) if records is not None else None)

    try:
        if args.ray is None:
            with progress if progress is not None else nullcontext():
                summary = simulate(rules, players, bots, seed, args.deals,
                                   time_budget=args.budget, worlds=args.worlds, on_deal=on_deal)
        else:
            from . import cluster

            try:
                with (cluster.connect(args.ray or None, "simulate") as ray_cluster,
                      progress if progress is not None else nullcontext()):
                    summary = cluster.simulate(ray_cluster, rules, players, bots, seed,
                                               args.deals, time_budget=args.budget,
                                               worlds=args.worlds, records=records is not None,
                                               on_deal=keep)
            except cluster.ClusterError as error:
                return fail(str(error))
    except SimulationError as error:
        print(f"rummy500 simulate: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        return fail(f"cannot write a record: {error}")
    data = summary.as_dict()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        show(Console(), summary, data)
    return 0


def _number(value: float) -> str:
    return str(value) if isinstance(value, int) else f"{value:.1f}"


def show(console: Console, summary: Summary, data: dict[str, Any]) -> None:
    """The summary as tables."""
    rules = summary.rules
    changes = "".join(f", {name}={value_text(value)}" for name, value in rules.overrides().items())
    timing = data["timing"]
    bots = sorted(set(summary.bots))
    who = f"bot {bots[0]}" if len(bots) == 1 else f"bots {', '.join(summary.bots)}"
    console.print(
        f"{summary.deals} deals of {rules.preset}{changes}, {summary.players} players, {who}, "
        f"seed {summary.seed}"
        + (f", at most {summary.worlds} sampled deals a search" if summary.worlds else "")
        + f"\n{timing['seconds']:.2f} s of play, "
        f"{timing['deals_per_second']:.1f} deals a second",
        markup=False, highlight=False,
    )
    points = Table(title="Points per deal", title_justify="left")
    for column in ("", "mean", "min", "p95", "max", "deals won", "share"):
        points.add_column(column, justify="left" if not column else "right")
    for side, spread in enumerate(data["points"]["per_side"]):
        points.add_row(side_name(rules, summary.players, side),
                       *(_number(spread[key]) for key in ("mean", "min", "p95", "max")),
                       str(summary.wins[side]), f"{100 * data['win_share'][side]:.1f}%")
    overall = data["points"]["overall"]
    points.add_row("overall", *(_number(overall[key]) for key in ("mean", "min", "p95", "max")),
                   f"{summary.ties} tied" if summary.ties else "", "")
    console.print(points)

    seats = Table(title="Seats (means per deal)", title_justify="left")
    for column in ("", "on the table", "in hand", "went out"):
        seats.add_column(column, justify="left" if not column else "right")
    for seat in range(summary.players):
        seats.add_row(seat_name(seat), _number(data["points"]["melded_per_seat"][seat]),
                      _number(data["points"]["in_hand_per_seat"][seat]),
                      str(summary.went_out[seat]))
    console.print(seats)

    endings = Table(title="How deals ended", title_justify="left")
    endings.add_column("")
    endings.add_column("deals", justify="right")
    endings.add_column("share", justify="right")
    for ending in ENDINGS:
        count = summary.ended_by.get(ending, 0)
        endings.add_row(ending, str(count), f"{100 * count / summary.deals:.1f}%")
    console.print(endings)

    length = Table(title="Deal length", title_justify="left")
    for column in ("", "mean", "p95", "max"):
        length.add_column(column, justify="left" if not column else "right")
    for what in ("moves", "turns"):
        spread = data[what]
        length.add_row(what, *(_number(spread[key]) for key in ("mean", "p95", "max")))
    console.print(length)
