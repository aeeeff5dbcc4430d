"""``rummy500 tournament``: measure computer players against each other.

    rummy500 tournament --bots expert,simple --players 2 --games 200 --seed 1
    rummy500 tournament --bots mcts,expert --deals 400 --budget 1 --json
    rummy500 tournament --bots mcts,expert --deals 2000 --sprt 0,30 --ray auto
    rummy500 tournament --bots mcts,expert --deals 400 --worlds 32 --bot-option mcts:holds=0
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..bots import BOT_NAMES
from ..bots.search_options import SEARCH_OPTIONS
from ..rules import RulesError
from ..runners.simulation import rules_from_options
from ..runners.sprt import H0, H1, Sprt
from ..runners.tournament import (
    TournamentError,
    TournamentResult,
    TournamentSpec,
    run_tournament,
    usable_workers,
)
from .options import add_ray_argument, add_rule_arguments, add_search_arguments, failure


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", "-b", required=True,
                        help=f"bots separated by commas, seat by seat, repeated round the table "
                        f"when fewer than the players ({', '.join(BOT_NAMES)})")
    add_rule_arguments(parser)
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--games", "-g", type=int, default=None,
                       help="whole games to the target for every seating (100)")
    count.add_argument("--deals", "-d", type=int, default=None,
                       help="single deals for every seating, scored by points")
    parser.add_argument("--seed", type=int, default=1, help="seed of the pack orders (1)")
    add_search_arguments(parser)
    parser.add_argument("--bot-option", action="append", default=[], metavar="BOT:NAME=VALUE",
                        help="an argument of a bot's search, e.g. mcts:holds=0 (repeatable; "
                        f"mcts: {', '.join(SEARCH_OPTIONS)}; see its documentation)")
    parser.add_argument("--workers", type=int, default=2,
                        help="processes playing at once, at most the machine's cores (2); "
                        "with --ray the cluster's CPUs play")
    add_ray_argument(parser)
    parser.add_argument("--sprt", metavar="ELO0,ELO1", default=None,
                        help="two bots: stop once the sequential probability ratio test over "
                        "the duplicate sets accepts H0 (the first bot is ELO0 stronger, in "
                        "Elo) or H1 (ELO1 stronger); the games or deals given are the most; "
                        "a negative ELO0 as --sprt=-5,5")
    parser.add_argument("--sprt-alpha", type=float, default=0.05, metavar="P",
                        help="chance of accepting H1 when H0 holds (0.05)")
    parser.add_argument("--sprt-beta", type=float, default=0.05, metavar="P",
                        help="chance of accepting H0 when H1 holds (0.05)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


fail = partial(failure, "tournament")
"""Say why the command cannot go on; its exit status."""


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_options(args.preset, args.option)
        players = args.players if args.players is not None else rules.default_players
        names = tuple(name.strip() for name in args.bots.split(",") if name.strip())
        games = args.games if args.games is not None else (0 if args.deals else 100)
        sprt = (Sprt.parse(args.sprt, args.sprt_alpha, args.sprt_beta)
                if args.sprt is not None else None)
        spec = TournamentSpec(names, players, rules, seed=args.seed, games=games,
                              deals=args.deals or 0, budget=args.budget, worlds=args.worlds,
                              bot_options=parse_bot_options(args.bot_option),
                              workers=args.workers, sprt=sprt)
        spec.check()
    except ValueError as error:  # RulesError, TournamentError, or an unreadable --sprt
        return fail(str(error) if isinstance(error, RulesError | TournamentError)
                    else f"--sprt: {error}")
    workers = usable_workers(spec.workers)
    if workers < spec.workers and args.ray is None:
        print(f"rummy500 tournament: this machine has {workers} core(s): playing with "
              f"{workers} worker process(es), not {spec.workers}", file=sys.stderr)
    errors = Console(stderr=True)
    progress = Progress(
        TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TimeRemainingColumn(), console=errors, transient=True, disable=not errors.is_terminal,
    )
    task = progress.add_task("games", total=None)

    def on_progress(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    try:
        if args.ray is None:
            with progress:
                result = run_tournament(spec, on_progress)
        else:
            from .cluster import ClusterError, connect, player

            try:
                with connect(args.ray or None, "tournament") as cluster, progress:
                    result = run_tournament(spec, on_progress, player(cluster))
            except ClusterError as error:
                return fail(str(error))
    except TournamentError as error:
        print(f"rummy500 tournament: {error}", file=sys.stderr)
        return 1
    data = result.as_dict()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        console = Console()
        if not console.is_terminal:
            console = Console(width=120)
        show(console, result, data)
    return 0


def parse_bot_options(texts: list[str]) -> dict[str, dict[str, float]]:
    """``--bot-option`` values (``BOT:NAME=VALUE``) by bot; :class:`TournamentError` for
    one not so written (the spec checks the names and values)."""
    options: dict[str, dict[str, float]] = {}
    for text in texts:
        bot, colon, setting = text.partition(":")
        name, equals, value = setting.partition("=")
        if not (colon and equals and bot.strip() and name.strip()):
            raise TournamentError(f"--bot-option {text!r} is not BOT:NAME=VALUE "
                                  "(e.g. mcts:holds=0)")
        try:
            number = float(value)
        except ValueError:
            raise TournamentError(f"--bot-option {text!r}: {value!r} is not a number") from None
        options.setdefault(bot.strip(), {})[name.strip()] = number
    return options


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def show(console: Console, result: TournamentResult, data: dict[str, Any]) -> None:
    """The report as tables."""
    spec = result.spec
    what = "deals" if spec.deals else "games"
    changes = "".join(f", {k}={v}" for k, v in spec.rules.overrides().items())
    played = (f"{data['sprt']['sets']} of {spec.count}"
              if data.get("sprt", {}).get("stopped_early") else f"{spec.count}")
    console.print(
        f"{result.games} {what} of {spec.rules.preset}{changes} ({played} for each of "
        f"{data['rotations']} seatings: duplicate {what}), {spec.players} players, "
        f"line-up {', '.join(spec.lineup())}, seed {spec.seed}, "
        + "".join(f"{bot} with {', '.join(f'{k}={v:g}' for k, v in options.items())}, "
                  for bot, options in spec.bot_options.items() if options)
        + (f"at most {spec.worlds} sampled deals a search\n" if spec.worlds is not None
           else f"budget {spec.budget:g} s\n")
        + f"{result.deals} deals in {result.seconds:.1f} s"
        + (f"; {result.draws} drawn" if result.draws else ""),
        markup=False, highlight=False,
    )
    table = Table(title="Bots", title_justify="left")
    for column in ("bot", "seats", "wins", "win share [95%]", "fair", "points/deal [95%]",
                   "ms mean/p95/max"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for name, stats in data["bots"].items():
        low, high = stats["ci95"]
        points = stats["points_per_deal"]
        plo, phi = points["ci95"]
        timing = stats["decision_ms"]
        table.add_row(name, str(stats["seats"]), f"{stats['wins']}/{stats['games']}",
                      f"{_pct(stats['win_share'])} [{_pct(low)}, {_pct(high)}]",
                      _pct(stats["expected_share"]),
                      f"{points['mean']:.1f} [{plo:.1f}, {phi:.1f}]",
                      f"{timing['mean']:.2f}/{timing['p95']:.2f}/{timing['max']:.0f}")
    console.print(table)
    if "difference" in data:
        diff = data["difference"]
        lo, hi = diff["ci95"]
        console.print(
            f"{diff['bot']} minus {diff['against']}: {diff['points_per_deal']:+.1f} points a deal "
            f"(95% interval {lo:+.1f} to {hi:+.1f}, over {diff['pairs']} duplicate sets)",
            markup=False, highlight=False,
        )
    if "sprt" in data:
        console.print(sprt_line(data["sprt"]), markup=False, highlight=False, soft_wrap=True)
    if "ratings" in data:
        ratings = Table(title="Ratings (Elo scale)", title_justify="left",
                        caption="Bradley-Terry fit to who beat whom in each game")
        ratings.add_column("bot")
        ratings.add_column("rating", justify="right")
        for name, rating in sorted(data["ratings"].items(), key=lambda item: -item[1]):
            ratings.add_row(name, f"{rating:+.0f}")
        console.print(ratings)


def sprt_line(sprt: dict[str, Any]) -> str:
    """The stopping rule's verdict in one sentence."""
    lower, upper = sprt["bounds"]
    verdict = {H1: f"H1 accepted ({sprt['bot']} at least {sprt['elo1']:+g} Elo)",
               H0: f"H0 accepted ({sprt['bot']} at most {sprt['elo0']:+g} Elo)"
               }.get(sprt["verdict"], "inconclusive")
    return (f"SPRT {sprt['bot']} {sprt['elo0']:+g} vs {sprt['elo1']:+g} Elo (alpha "
            f"{sprt['alpha']:g}, beta {sprt['beta']:g}): LLR {sprt['llr']:+.2f} over "
            f"{sprt['sets']} duplicate sets, bounds {lower:+.2f}/{upper:+.2f}: {verdict}"
            + (", stopped early" if sprt["stopped_early"] else ""))
