"""Deals between computer players, and the statistics of many of them.

Every simulated deal is a fresh :class:`~rummy500.game.Game` of one deal, seeded
from the run's seed and the deal's index, so any deal can be played again on its
own and its record (:func:`~rummy500.record.game_record`) stands alone.

>>> from rummy500.rules import make_rules
>>> summary = simulate(make_rules("classic"), players=2, bots=["random"], seed=1, deals=3)
>>> summary.deals, sum(summary.ended_by.values())
(3, 3)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import BOT_NAMES, Bot, check_worlds, make_bot
from ..bots.playout import play_out
from ..deal import DealResult
from ..errors import SimulationError as SimulationError
from ..game import Game
from ..kinds import DealEnd
from ..moves import DRAW, END, TAKE
from ..record import game_record
from ..rules import Rules, make_rules, parse_options

ENDINGS = tuple(DealEnd)
"""How a deal can end (:attr:`rummy500.deal.DealResult.ended_by`)."""

TURN_STARTS = frozenset({DRAW, TAKE, END})
"""Moves that open a turn: each turn begins with exactly one of them."""


# -- settings from the command line ----------------------------------------------------------


def rules_from_options(preset: str, pairs: Iterable[str] = ()) -> Rules:
    """A preset with ``NAME=VALUE`` settings over it; raises :class:`RulesError`."""
    return make_rules(preset, **parse_options(pairs))


def bot_names_for(spec: str, players: int) -> list[str]:
    """One bot name per seat from ``NAME`` (every seat) or ``NAME,NAME,…`` (seat by seat)."""
    return seat_bots([name.strip() for name in spec.split(",")], players)


def seat_bots(names: Sequence[str], players: int) -> list[str]:
    """One bot name per seat: ``names`` holds one name for every seat, or one per seat."""
    for name in names:
        if name not in BOT_NAMES:
            raise SimulationError(f"unknown bot {name!r}; the bots are: {', '.join(BOT_NAMES)}")
    if len(names) == 1:
        return list(names) * players
    if len(names) != players:
        raise SimulationError(
            f"{len(names)} bots named for {players} players: name one bot, or one per seat"
        )
    return list(names)


# -- one deal -----------------------------------------------------------------------------------


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` (from 0) of a run seeded with ``seed``."""
    return random.Random(f"rummy500 simulate {seed} {index}").getrandbits(63)


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """What one simulated deal gave."""

    index: int
    seed: int
    dealer: int
    result: DealResult
    moves: int
    turns: int


def make_bots(names: Sequence[str], seed: int, time_budget: float = 1.0,
              worlds: int | None = None) -> list[Bot]:
    """The bots of one deal, each seeded from the deal's seed and its seat; ``worlds``
    bounds a search's sampled deals in place of the time budget (see :func:`make_bot`)."""
    return [
        make_bot(name, random.Random(f"{seed} seat {seat}").getrandbits(63), time_budget,
                 worlds)
        for seat, name in enumerate(names)
    ]


def play_turns(game: Game, bots: Sequence[Bot], *, check: bool = True) -> None:
    """Let the bots play the current deal of ``game`` to its end (:func:`play_out`; an
    illegal move raises :class:`SimulationError`). With ``check`` false the moves are
    trusted (fine for bots that pick among the legal moves)."""
    play_out(game, bots, check=check, error=SimulationError)


def play_deal(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    seed: int,
    index: int,
    *,
    time_budget: float = 1.0,
    worlds: int | None = None,
) -> tuple[Game, DealOutcome]:
    """Play deal ``index`` of the run seeded with ``seed``: a game of exactly one deal.

    ``bots`` names one bot for every seat, or one per seat. With ``worlds`` (see
    :func:`make_bots`) the deal depends on the seed only, searching bots included.
    """
    bots = seat_bots(bots, players)
    dseed = deal_seed(seed, index)
    game = Game(rules, players, rng=random.Random(dseed), auto_deal=False)
    deal = game.start_deal()
    trusted = all(name == "random" for name in bots)
    play_turns(game, make_bots(bots, dseed, time_budget, worlds), check=not trusted)
    turns = sum(1 for move in deal.moves if move.kind in TURN_STARTS)
    outcome = DealOutcome(index, dseed, deal.dealer, game.results[-1], len(deal.moves), turns)
    return game, outcome


def play_deals(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    seed: int,
    indexes: Iterable[int],
    *,
    time_budget: float = 1.0,
    worlds: int | None = None,
    records: bool = False,
) -> list[tuple[DealOutcome, dict[str, Any] | None]]:
    """Deals ``indexes`` of the run seeded with ``seed`` (:func:`play_deal`), as one unit of
    work played elsewhere (a cluster's worker): each outcome, with its game's record
    when ``records``."""
    played: list[tuple[DealOutcome, dict[str, Any] | None]] = []
    for index in indexes:
        game, outcome = play_deal(rules, players, bots, seed, index, time_budget=time_budget,
                                  worlds=worlds)
        played.append((outcome, game_record(game) if records else None))
    return played


# -- statistics -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Spread:
    """Mean, 95th percentile and extremes of a list of numbers."""

    mean: float
    p95: float
    min: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            return cls(0.0, 0.0, 0.0, 0.0)
        ordered = sorted(values)
        rank = max(1, math.ceil(0.95 * len(ordered)))
        return cls(round(sum(ordered) / len(ordered), 3), ordered[rank - 1], ordered[0],
                   ordered[-1])

    def as_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "p95": self.p95, "min": self.min, "max": self.max}


@dataclass(slots=True)
class Summary:
    """The statistics of a run of simulated deals."""

    rules: Rules
    players: int
    bots: list[str]
    seed: int
    worlds: int | None = None
    """The bound on a search's sampled deals, if the run had one."""
    deals: int = 0
    seconds: float = 0.0
    scores: list[list[int]] = field(default_factory=list)
    """Per side, its score in every deal."""
    melded: list[list[int]] = field(default_factory=list)
    in_hand: list[list[int]] = field(default_factory=list)
    """Per seat, points on the table and in hand in every deal."""
    ended_by: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENDINGS, 0))
    went_out: list[int] = field(default_factory=list)
    """Per seat, the deals it went out in."""
    wins: list[int] = field(default_factory=list)
    """Per side, the deals it scored strictly the most in."""
    ties: int = 0
    """Deals whose best score was shared."""
    moves: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        sides = self.sides
        self.scores = self.scores or [[] for _ in range(sides)]
        self.melded = self.melded or [[] for _ in range(self.players)]
        self.in_hand = self.in_hand or [[] for _ in range(self.players)]
        self.went_out = self.went_out or [0] * self.players
        self.wins = self.wins or [0] * sides

    @property
    def sides(self) -> int:
        return self.rules.sides(self.players)

    def add(self, outcome: DealOutcome) -> None:
        result = outcome.result
        self.deals += 1
        for side, score in enumerate(result.scores):
            self.scores[side].append(score)
        for seat in range(self.players):
            self.melded[seat].append(result.melded[seat])
            self.in_hand[seat].append(result.in_hand[seat])
        self.ended_by[result.ended_by] = self.ended_by.get(result.ended_by, 0) + 1
        if result.went_out is not None:
            self.went_out[result.went_out] += 1
        best = max(result.scores)
        leaders = [side for side, score in enumerate(result.scores) if score == best]
        if len(leaders) == 1:
            self.wins[leaders[0]] += 1
        else:
            self.ties += 1
        self.moves.append(outcome.moves)
        self.turns.append(outcome.turns)

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0

    def win_share(self) -> list[float]:
        return [round(w / self.deals, 4) if self.deals else 0.0 for w in self.wins]

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain JSON data; every field but ``timing`` depends on the seed only."""
        overall = [score for side in self.scores for score in side]
        return {
            "rules": self.rules.to_record(),
            "players": self.players,
            "sides": self.sides,
            "bots": list(self.bots),
            "seed": self.seed,
            "worlds": self.worlds,
            "deals": self.deals,
            "points": {
                "per_side": [Spread.of(side).as_dict() for side in self.scores],
                "overall": Spread.of(overall).as_dict(),
                "melded_per_seat": [Spread.of(s).mean for s in self.melded],
                "in_hand_per_seat": [Spread.of(s).mean for s in self.in_hand],
            },
            "ended_by": dict(self.ended_by),
            "went_out_per_seat": list(self.went_out),
            "wins_per_side": list(self.wins),
            "ties": self.ties,
            "win_share": self.win_share(),
            "moves": Spread.of(self.moves).as_dict(),
            "turns": Spread.of(self.turns).as_dict(),
            "timing": {
                "seconds": round(self.seconds, 3),
                "deals_per_second": round(self.deals_per_second, 2),
            },
        }


DealCallback = Callable[[Game, DealOutcome], None]


def simulate(
    rules: Rules,
    players: int,
    bots: Sequence[str],
    seed: int,
    deals: int,
    *,
    time_budget: float = 1.0,
    worlds: int | None = None,
    on_deal: DealCallback | None = None,
) -> Summary:
    """Play ``deals`` deals and sum them up; ``on_deal`` sees each finished deal's game.

    ``bots`` names one bot for every seat, or one per seat. ``seconds`` counts the
    time spent playing, not the time ``on_deal`` takes.
    """
    rules.check_players(players)
    check_worlds(worlds)
    if deals < 0:
        raise SimulationError("the number of deals cannot be negative")
    names = seat_bots(bots, players)
    summary = Summary(rules, players, names, seed, worlds)
    for index in range(deals):
        start = time.perf_counter()
        game, outcome = play_deal(rules, players, names, seed, index, time_budget=time_budget,
                                  worlds=worlds)
        summary.seconds += time.perf_counter() - start
        summary.add(outcome)
        if on_deal is not None:
            on_deal(game, outcome)
    return summary


__all__ = [
    "ENDINGS",
    "DealOutcome",
    "SimulationError",
    "Spread",
    "Summary",
    "bot_names_for",
    "deal_seed",
    "make_bots",
    "parse_options",
    "play_deal",
    "play_deals",
    "play_turns",
    "rules_from_options",
    "seat_bots",
    "simulate",
]
