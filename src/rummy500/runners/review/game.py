"""A whole game reviewed: every decision of the chosen seats judged, in worker processes.

Each decision is judged on its own (:func:`~.judge.judge`), seeded from the review's seed
and where the decision is, so a review gives the same figures with one worker or many.
A worker replays the record once and rebuilds each position from it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any

from ...deal import Deal
from ...game import Game
from ...narrate import fresh_deal
from ...record import replay
from .judge import WORLDS, Judgement, decision_seed, is_decision, judge
from .labels import accuracy, label_for
from .words import choice, turn_number


@dataclass(frozen=True, slots=True)
class Settings:
    """How a review searches: its seed, sampled deals a decision (or seconds), second opinion."""

    seed: int = 0
    worlds: int = WORLDS
    budget: float | None = None
    all_cards: bool = False


@dataclass(frozen=True, slots=True)
class Opinion:
    """A second opinion on a decision, with every hand shown (not what the seat could see)."""

    best: str
    best_points: float
    played_points: float
    loss: float
    error: float
    label: str | None
    words: str


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One reviewed decision, as ``--json`` writes it."""

    deal: int
    """The deal, from 1."""
    index: int
    """The move's place in the deal's moves, from 0 (as the record lists them)."""
    seat: int
    side: int
    turn: int
    """Which of the seat's turns of the deal, from 1."""
    move: str
    best: str
    move_points: float
    best_points: float
    loss: float
    error: float
    label: str | None
    worlds: int
    words: str
    """The move played in place of the best, in words (empty when it was the best)."""
    all_cards: Opinion | None = None

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("move_points", "best_points", "loss", "error"):
            data[key] = round(data[key], 2)
        if self.all_cards is None:
            del data["all_cards"]
        else:
            data["all_cards"] = {key: round(value, 2) if isinstance(value, float) else value
                                 for key, value in data["all_cards"].items()}
        return data


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    decisions: int
    accuracy: float | None
    mean_loss: float
    """Expected deal points lost a decision."""
    lost: float
    """Expected deal points lost over the game."""
    labels: dict[str, int]


def decision_places(game: Game, seats: Sequence[int]) -> list[tuple[int, int]]:
    """(deal index, move index) of every decision the chosen ``seats`` made in ``game``."""
    places = []
    for deal_index, played in enumerate(game.deals):
        deal = fresh_deal(played)
        for move_index, (move, seat) in enumerate(zip(played.moves, played.movers,
                                                      strict=True)):
            if seat in seats and is_decision(deal):
                places.append((deal_index, move_index))
            deal.play(move, check=False)
    return places


def position(game: Game, deal_index: int, move_index: int) -> Deal:
    """Deal ``deal_index`` of ``game`` just before its move ``move_index``."""
    played = game.deals[deal_index]
    deal = fresh_deal(played)
    for move in played.moves[:move_index]:
        deal.play(move, check=False)
    return deal


def totals_before(game: Game, deal_index: int) -> tuple[int, ...]:
    totals = [0] * game.rules.sides(game.players)
    for result in game.results[:deal_index]:
        totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
    return tuple(totals)


def review_decision(game: Game, deal_index: int, move_index: int,
                    settings: Settings) -> DecisionReview:
    deal = position(game, deal_index, move_index)
    played = game.deals[deal_index].moves[move_index]
    seat = deal.turn
    totals = totals_before(game, deal_index)
    seed = decision_seed(settings.seed, deal_index, move_index)

    def verdict_of(all_cards: bool) -> Judgement:
        return judge(deal, played, totals=totals, deal_number=deal_index, seed=seed,
                     worlds=settings.worlds, budget=settings.budget, all_cards=all_cards)

    verdict = verdict_of(False)
    second = None
    if settings.all_cards:
        other = verdict_of(True)
        second = Opinion(str(other.best), other.best_points, other.played_points, other.loss,
                         other.error, label_for(other.loss, other.error, other.compared),
                         _words(deal, other))
    label = label_for(verdict.loss, verdict.error, verdict.compared)
    return DecisionReview(
        deal_index + 1, move_index, seat, game.rules.side_of(seat), turn_number(deal, seat),
        str(verdict.played), str(verdict.best), verdict.played_points, verdict.best_points,
        verdict.loss, verdict.error, label, verdict.worlds, _words(deal, verdict), second)


def _words(deal: Deal, verdict: Judgement) -> str:
    return "" if verdict.best == verdict.played else choice(deal, verdict.played, verdict.best)


_WORKER_GAME: Game | None = None


def _start_worker(record: Mapping[str, Any]) -> None:
    global _WORKER_GAME
    with contextlib.suppress(OSError):
        os.nice(5)  # a review gives way to anything interactive on the machine
    _WORKER_GAME = replay(record)


def _review_in_worker(deal_index: int, move_index: int, settings: Settings) -> DecisionReview:
    assert _WORKER_GAME is not None
    return review_decision(_WORKER_GAME, deal_index, move_index, settings)


Progress = Callable[[int, int], None]
"""Told (decisions done, decisions in all) as the review goes."""


def review_game(record: Mapping[str, Any], seats: Sequence[int] | None = None,
                settings: Settings = Settings(), workers: int = 1,
                progress: Progress | None = None) -> list[DecisionReview]:
    """Every decision of ``seats`` (all by default) in the game of ``record``, in the order
    played; ``workers`` processes (1: in this one)."""
    game = replay(record)
    chosen = range(game.players) if seats is None else seats
    places = decision_places(game, chosen)
    done = 0
    if progress is not None:
        progress(0, len(places))
    reviews: list[DecisionReview] = []
    if workers <= 1 or len(places) < 2:
        for deal_index, move_index in places:
            reviews.append(review_decision(game, deal_index, move_index, settings))
            done += 1
            if progress is not None:
                progress(done, len(places))
        return reviews
    with ProcessPoolExecutor(min(workers, len(places)), initializer=_start_worker,
                             initargs=(dict(record),)) as pool:
        futures = [pool.submit(_review_in_worker, deal_index, move_index, settings)
                   for deal_index, move_index in places]
        for future in as_completed(futures):
            reviews.append(future.result())
            done += 1
            if progress is not None:
                progress(done, len(places))
    reviews.sort(key=lambda review: (review.deal, review.index))
    return reviews


def seat_summaries(reviews: Sequence[DecisionReview], players: int) -> list[SeatSummary]:
    """Each seat's accuracy, points lost and labels over the reviewed decisions."""
    summaries = []
    for seat in range(players):
        own = [review for review in reviews if review.seat == seat]
        if not own:
            continue
        lost = sum(review.loss for review in own)
        counts = {label: sum(1 for review in own if review.label == label)
                  for label in ("inaccuracy", "mistake", "blunder")}
        summaries.append(SeatSummary(seat, len(own), accuracy(r.label for r in own),
                                     lost / len(own), lost, counts))
    return summaries


__all__ = ["DecisionReview", "Opinion", "SeatSummary", "Settings", "decision_places",
           "position", "review_decision", "review_game", "seat_summaries", "totals_before"]
