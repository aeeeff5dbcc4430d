"""``rummy500 watch``: computer players play a game, told move by move."""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from collections.abc import Sequence
from functools import partial

from rich.console import Console
from rich.text import Text

from ..bots import Bot, check_budget
from ..bots.playout import Played, play_out
from ..deal import Deal, IllegalMoveError
from ..errors import BadInputError
from ..game import Game
from ..kinds import Phase
from ..narrate import (
    before,
    deal_end,
    deal_start,
    game_end,
    narrate_move,
    seat_names,
    side_words,
    status_line,
    value_text,
)
from ..rules import RulesError
from ..runners.simulation import SimulationError, bot_names_for, make_bots, rules_from_options
from .options import add_bot_argument, add_rule_arguments, failure

SEAT_STYLES = ("bold cyan", "bold magenta", "bold green", "bold yellow", "bold blue",
               "bold bright_red", "bold bright_cyan", "bold bright_magenta")
TTY_DELAY = 0.3
MAX_DELAY = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_arguments(parser)
    add_bot_argument(parser)
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the game and the bots (drawn at random and shown when "
                        "left out)")
    parser.add_argument("--deals", type=int, default=None,
                        help="stop after this many deals (default: play the game to its end)")
    parser.add_argument("--delay", type=float, default=None, metavar="SECONDS",
                        help=f"pause after each move ({TTY_DELAY} in a terminal, else 0)")
    parser.add_argument("--budget", type=float, default=1.0, metavar="SECONDS",
                        help="thinking time a decision for bots that search (1.0)")
    parser.add_argument("--reasons", action="store_true", help="show why each bot moved")
    parser.add_argument("--no-hands", action="store_true",
                        help="do not show the hands as they are dealt")


fail = partial(failure, "watch")
"""Say why the command cannot go on; its exit status."""


class Teller:
    """Prints narration lines with each seat in its colour and red suits red."""

    def __init__(self, console: Console, players: int, delay: float) -> None:
        self.console = console
        self.players = players
        self.delay = delay

    def say(self, line: str, style: str = "") -> None:
        text = Text(line, style=style)
        for seat in range(self.players):
            text.highlight_regex(rf"\bSeats? {seat + 1}\b", SEAT_STYLES[seat % len(SEAT_STYLES)])
        text.highlight_regex(r"(?:10|[2-9AJQK])[♥♦]", "red")
        text.highlight_regex(r"\bm[0-9]+\b", "bold")
        self.console.print(text)

    def pause(self, factor: float = 1.0) -> None:
        if self.delay > 0:
            time.sleep(self.delay * factor)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_options(args.preset, args.option)
        players = args.players if args.players is not None else rules.default_players
        rules.check_players(players)
        names = bot_names_for(args.bot, players)
    except (RulesError, SimulationError) as error:
        return fail(str(error))
    if args.deals is not None and args.deals < 1:
        return fail("--deals must be at least 1")
    if args.delay is not None and not 0 <= args.delay <= MAX_DELAY:
        return fail(f"--delay must be a number of seconds from 0 to {MAX_DELAY:g}")
    try:
        check_budget(args.budget, "--budget")
    except BadInputError as error:
        return fail(str(error))
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    console = Console(highlight=False)
    console.soft_wrap = not console.is_terminal  # lines whole in a file or a pipe
    delay = args.delay if args.delay is not None else (TTY_DELAY if console.is_terminal else 0.0)
    teller = Teller(console, players, delay)
    game = Game(rules, players, rng=random.Random(seed))
    bots = make_bots(names, seed, args.budget)
    changes = "".join(f", {name}={value_text(value)}" for name, value in rules.overrides().items())
    seats = ", ".join(f"{seat} {name}" for seat, name in zip(seat_names(players), names,
                                                              strict=True))
    teller.say(f"{players} players, rules {rules.preset}{changes}, seed {seed}: {seats}.")
    if rules.partnership:
        teller.say("Sides: " + " against ".join(side_words(rules, seat_names(players), side)
                                               for side in range(rules.sides(players))) + ".")
    try:
        watch(game, bots, teller, args.deals, reasons=args.reasons, hands=not args.no_hands)
    except IllegalMoveError as error:
        print(f"rummy500 watch: a bot played an illegal move: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        console.print()
        teller.say("Stopped.")
        return 130
    return 0


def watch(
    game: Game, bots: Sequence[Bot], teller: Teller, deals: int | None, *,
    reasons: bool = False, hands: bool = True,
) -> None:
    """Play ``game`` (or its next ``deals`` deals) with ``bots``, telling every move."""
    rules = game.rules
    totals = list(game.totals)
    played = 0
    while not game.finished and (deals is None or played < deals):
        deal = game.deal
        number = len(game.deals)
        teller.console.print()
        teller.console.rule(f"Deal {number}")
        for line in deal_start(deal, number, hands=hands):
            teller.say(line)
        if any(totals):
            teller.say("Totals so far: " + ", ".join(
                f"{side_words(rules, seat_names(game.players), side)} {total}"
                for side, total in enumerate(totals)) + ".", "dim")
        teller.pause()
        seen = before(deal)

        def tell(turn: Played, deal: Deal = deal) -> None:
            nonlocal seen
            lines = narrate_move(seen, deal, turn.move)
            if reasons and turn.reason:
                lines[0] += f"  ({turn.reason})"
            for line in lines:
                teller.say(line)
            if not deal.over and deal.phase == Phase.DRAW:
                teller.say("    " + status_line(deal), "dim")
            teller.pause()
            seen = before(deal)

        play_out(game, bots, reasons=reasons, on_move=tell)
        result = game.results[number - 1]
        totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
        for line in deal_end(deal, result, number, totals):
            teller.say(line)
        played += 1
        teller.pause(3)
    teller.console.print()
    for line in game_end(game):
        teller.say(line, "bold")
