"""``rummy500 review RECORD``: where each deal's points were won and lost.

Every decision of the chosen seats is judged by ``mcts``'s search from what that seat
could see (:mod:`rummy500.runners.review`); the words, a chart of each deal's expected
points, each player's accuracy and the largest losses, or ``--json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import urllib.error
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from ..bots import check_budget, check_worlds
from ..errors import BadInputError, OptionsError
from ..narrate import seat_name, side_name
from ..record import RecordFormatError, ReplayError, read, replay
from ..runners.review.game import DecisionReview, Settings, review_game, seat_summaries
from ..runners.review.judge import WORLDS
from ..runners.review.labels import BLUNDER, FEWEST_WORLDS, INACCURACY, MISTAKE, SURE
from .options import failure
from .review_chart import deal_chart

fail = partial(failure, "review")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD",
                        help="a game record (JSON, as simulate --records writes), or the link "
                        "of a finished online table (http://HOST:PORT/t/ID)")
    parser.add_argument("--seat", type=int, action="append", default=None, metavar="N",
                        help="review this seat's decisions, counted from 0 as in the JSON "
                        "(0 is Seat 1 in the words; repeatable; every seat by default)")
    parser.add_argument("--worlds", type=int, default=WORLDS, metavar="N",
                        help=f"sampled deals each decision is judged over ({WORLDS}): the "
                        "review's budget, the same figures on any machine for the same seed")
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                        help="judge each decision for this long instead (at most 32 sampled "
                        "deals): quicker or slower, but no longer the same from run to run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sampled deals (1)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="processes judging decisions at once (2, or the cores there are)")
    parser.add_argument("--all-cards", action="store_true",
                        help="add a second opinion judged with every hand shown (not what the "
                        "player could see: a move it calls wrong may have been right)")
    parser.add_argument("--top", type=int, default=5, metavar="N",
                        help="the largest losses to tell in words (5)")
    parser.add_argument("--brief", action="store_true",
                        help="leave out the table of every decision under each deal's chart")
    parser.add_argument("--json", action="store_true",
                        help="print every decision's review as one JSON object")


def load_record(source: str) -> dict[str, Any]:
    """The record in the file ``source``, or of the finished online table it links to."""
    if source.startswith(("http://", "https://")):
        from ..net.client import Api, ServerError, split_table_url

        base, table = split_table_url(source)
        try:
            return asyncio.run(Api(base).record(table))
        except ServerError as error:
            raise BadInputError(f"the server gave no record of table {table}: "
                                f"{error.message}") from None
        except (urllib.error.URLError, OSError) as error:
            raise BadInputError(f"cannot reach {base}: {error}") from None
    return read(Path(source))


def run(args: argparse.Namespace) -> int:
    try:
        check_worlds(args.worlds)
        if args.budget is not None:
            check_budget(args.budget, "--budget")
        record = load_record(args.record)
        game = replay(record)
    except OptionsError as error:
        return fail(f"--worlds: {error}")
    except (BadInputError, RecordFormatError) as error:
        return fail(f"{args.record}: {error}")
    except ReplayError as error:
        return fail(f"{args.record}: deal {error.round + 1}, move {error.move + 1}: "
                    f"{error.reason}")
    if args.workers < 1:
        return fail("--workers must be at least 1")
    if args.top < 0:
        return fail("--top must be 0 or more")
    seats = sorted(set(args.seat)) if args.seat else list(range(game.players))
    stray = [seat for seat in seats if not 0 <= seat < game.players]
    if stray:
        return fail(f"there is no seat {stray[0]}: --seat counts the game's seats from 0, "
                    f"0 to {game.players - 1}")
    settings = Settings(args.seed, args.worlds, args.budget, args.all_cards)
    errors = Console(stderr=True)
    progress = _progress(errors) if errors.is_terminal else None
    task = progress.add_task("reviewing", total=None) if progress is not None else None

    def advance(done: int, total: int) -> None:
        if progress is not None and task is not None:
            progress.update(task, completed=done, total=total)

    with progress if progress is not None else nullcontext():
        reviews = review_game(record, seats, settings, args.workers, advance)
    if args.json:
        print(json.dumps(as_json(args.record, game.players, seats, settings, reviews),
                         indent=1, ensure_ascii=False))
    else:
        show(Console(highlight=False), args, game.players, game.rules, seats, reviews)
    return 0


def _progress(errors: Console) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("reviewing decisions"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=errors, transient=True)


def as_json(source: str, players: int, seats: list[int], settings: Settings,
            reviews: list[DecisionReview]) -> dict[str, Any]:
    return {
        "record": source,
        "seats": seats,
        "seed": settings.seed,
        "worlds": settings.worlds if settings.budget is None else None,
        "budget": settings.budget,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER,
                       "standard_errors": SURE},
        "players": [{"seat": s.seat, "decisions": s.decisions,
                     "accuracy": None if s.accuracy is None else round(s.accuracy, 1),
                     "mean_loss": round(s.mean_loss, 2), "lost": round(s.lost, 1),
                     "labels": s.labels} for s in seat_summaries(reviews, players)],
        "decisions": [review.as_json() for review in reviews],
    }


def show(console: Console, args: argparse.Namespace, players: int, rules: Any,
         seats: list[int], reviews: list[DecisionReview]) -> None:
    budget = (f"about {args.budget:g} s a decision" if args.budget is not None
              else f"{args.worlds} sampled deals a decision")
    deals = sorted({review.deal for review in reviews})
    who = "every seat" if len(seats) == players else ", ".join(seat_name(s) for s in seats)
    console.print(f"Review of {args.record}: {players} players, {rules.preset}, "
                  f"{len(deals)} deal{'s' if len(deals) != 1 else ''}, {who}; {budget}, "
                  f"seed {args.seed}.", markup=False)
    console.print("Each move is judged by the search from what its player could see: the "
                  "other hands and the stock are dealt again at random, consistently with "
                  "it, and each move played on. Points are expected deal points: the "
                  "player's side's points less the other sides'.", markup=False)
    sides = rules.sides(players)
    for deal in deals:
        own = [review for review in reviews if review.deal == deal]
        console.print()
        console.print(deal_chart(own, deal, sides, side_name(rules, players, 0),
                                 side_name(rules, players, 1) if sides == 2 else ""))
        if not args.brief:
            console.print(decision_table(own))
    console.print()
    table = Table(title="Accuracy (decisions with no label), expected points lost",
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
                  collapse_padding=True)
    for column in ("", "decisions", "accuracy", "lost each", "lost", "inacc.",
                   "mistakes", "blunders"):
        table.add_column(column, justify="left" if not column else "right", no_wrap=True)
    for summary in seat_summaries(reviews, players):
        table.add_row(seat_name(summary.seat), str(summary.decisions),
                      "-" if summary.accuracy is None else f"{summary.accuracy:.0f}%",
                      f"{summary.mean_loss:.1f}", f"{summary.lost:.0f}",
                      *(str(summary.labels[label])
                        for label in ("inaccuracy", "mistake", "blunder")))
    console.print(table)
    worst = sorted((r for r in reviews if r.label is not None), key=lambda r: -r.loss)
    if worst and args.top:
        console.print("Largest losses:", markup=False)
        for review in worst[:args.top]:
            console.print(f"  {loss_words(review)}", markup=False)
    elif args.top:
        console.print("No move lost enough, beyond chance, to be labelled.", markup=False)
    if args.all_cards:
        _show_second_opinion(console, reviews, args.top)
    rough = sum(1 for review in reviews if review.worlds < FEWEST_WORLDS)
    if rough:
        console.print(f"{rough} of {len(reviews)} decisions were judged over fewer than "
                      f"{FEWEST_WORLDS} sampled deals: too few to tell a loss from luck, they "
                      "carry no label (more --worlds, or a longer --budget).", markup=False)
    console.print(f"Labels: an inaccuracy from {INACCURACY:g} expected points lost, a mistake "
                  f"from {MISTAKE:g}, a blunder from {BLUNDER:g}, each also at least "
                  f"{SURE:g} standard errors (docs/strength.md, \"Game review\").",
                  markup=False)


def decision_table(reviews: list[DecisionReview]) -> Table:
    """Each decision of a deal (# its move's place in the deal, and its seat, from 1): the move
    played, the search's best, the expected deal points of each, the loss and its standard
    error."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True)
    for column in ("#", "seat", "turn", "played", "pts", "best", "pts ", "lost", "±",
                   "label"):
        left = column in ("played", "best", "label")
        table.add_column(column.strip(), justify="left" if left else "right", no_wrap=True)
    for review in reviews:
        same = review.move == review.best
        table.add_row(str(review.index + 1), str(review.seat + 1), str(review.turn),
                      review.move,
                      f"{review.move_points:+.0f}", "=" if same else review.best,
                      "" if same else f"{review.best_points:+.0f}",
                      "" if same else f"{review.loss:.1f}",
                      "" if same else f"{review.error:.1f}", review.label or "")
    return table


def loss_words(review: DecisionReview) -> str:
    """ "Deal 3, Seat 1's turn 7: melding … in place of … cost about 41 points (± 6), a
    blunder." """
    what = review.words[0].upper() + review.words[1:]
    return (f"Deal {review.deal}, {seat_name(review.seat)}'s turn {review.turn}: {what} cost "
            f"about {review.loss:.0f} points (± {review.error:.0f}), {_a(review.label)}.")


def _a(label: str | None) -> str:
    return f"an {label}" if label == "inaccuracy" else f"a {label}"


def _show_second_opinion(console: Console, reviews: list[DecisionReview], top: int) -> None:
    console.print("Second opinion, with every hand shown (not what the players could see: "
                  "a move it calls wrong may have been right on what its player knew):",
                  markup=False)
    marked = sorted((r for r in reviews if r.all_cards is not None and r.all_cards.label),
                    key=lambda r: -(r.all_cards.loss if r.all_cards else 0))
    if not marked:
        console.print("  no move labelled.", markup=False)
    for review in marked[:top]:
        second = review.all_cards
        assert second is not None
        console.print(f"  Deal {review.deal}, {seat_name(review.seat)}'s turn {review.turn}: "
                      f"{second.words} cost about {second.loss:.0f} "
                      f"points (± {second.error:.0f}), {_a(second.label)} with all cards "
                      "shown.", markup=False)
