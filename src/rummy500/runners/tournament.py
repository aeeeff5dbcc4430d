"""Tournaments between computer players: duplicate deals, two processes, honest statistics.

A tournament plays ``games`` whole games to the target (or ``deals`` single
deals, scored by points) for every *rotation* of the line-up: the same pack
orders are dealt again with the bots moved round the table, so each bot gets
the cards every other bot got, and luck cancels out. Game ``index`` draws its
pack orders, first dealer and any reshuffle from the tournament seed and its
index only, whatever the bots do.

Per bot it reports the share of games won with a Wilson 95% interval, the mean
points per deal with a normal 95% interval, and the time of its decisions;
with exactly two bots, the mean per-deal point difference over duplicate pairs
with its interval; with more than two, a Bradley-Terry rating table from the
pairwise game results (Elo scale). With a stopping rule (:mod:`rummy500.runners.sprt`) a two-bot
match ends as soon as the duplicate sets played so far decide it, taken in the order of
their index: the verdict and the report do not depend on which set finished first.

>>> from rummy500.rules import make_rules
>>> result = run_tournament(TournamentSpec(("simple", "random"), 2, make_rules("classic"),
...                                        seed=1, deals=2, workers=1))
>>> result.games, sorted(result.bots)
(4, ['random', 'simple'])
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from ..bots import BOT_NAMES, Bot, check_budget, check_options, check_worlds, make_bot
from ..bots.playout import Played, play_out
from ..cards import make_pack
from ..errors import BadInputError, OptionsError
from ..errors import TournamentError as TournamentError
from ..game import Game
from ..rules import Rules
from .sprt import SetWatch, Sprt, SprtRun

Z95 = 1.959963984540054
MAX_DEALS_PER_GAME = 200
"""A whole game still unfinished after this many deals is counted as drawn."""


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What to play. ``bots`` names one bot per seat, or fewer, repeated round the table."""

    bots: tuple[str, ...]
    players: int
    rules: Rules
    seed: int = 1
    games: int = 0
    """Whole games per rotation (0 when playing single deals)."""
    deals: int = 0
    """Single deals per rotation, scored by points (0 when playing whole games)."""
    budget: float = 1.0
    """Seconds a decision for the bots that search."""
    worlds: int | None = None
    """For the bots that search: at most this many sampled deals a decision, in place of
    ``budget``, so that every move depends on the seed only and the tournament replays
    exactly on any machine."""
    bot_options: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    """Per bot name, arguments of its search (``mcts``: ``bots.search_options.SEARCH_OPTIONS``)."""
    workers: int = 2
    """Processes playing at once; at most the machine's cores are started."""
    max_deals: int = MAX_DEALS_PER_GAME
    sprt: Sprt | None = None
    """Stop a two-bot match once this test decides (``count`` is then the most played)."""

    def lineup(self) -> list[str]:
        return [self.bots[seat % len(self.bots)] for seat in range(self.players)]

    def rotations(self) -> list[list[str]]:
        """Every distinct seating of the line-up turned round the table."""
        base = self.lineup()
        seen: list[list[str]] = []
        for shift in range(self.players):
            seating = [base[(seat + shift) % self.players] for seat in range(self.players)]
            if seating not in seen:
                seen.append(seating)
        return seen

    @property
    def count(self) -> int:
        return self.games or self.deals

    def check(self) -> None:
        for name in self.bots:
            if name not in BOT_NAMES:
                raise TournamentError(f"unknown bot {name!r}; the bots are: {', '.join(BOT_NAMES)}")
        if not self.bots:
            raise TournamentError("name at least one bot")
        if len(self.bots) > self.players:
            raise TournamentError(f"{len(self.bots)} bots named for {self.players} seats")
        if (self.games > 0) == (self.deals > 0):
            raise TournamentError("play either whole games or single deals, a positive number")
        try:
            check_budget(self.budget, "the time budget")
        except BadInputError as error:
            raise TournamentError(str(error)) from None
        try:
            check_worlds(self.worlds)
        except OptionsError as error:
            raise TournamentError(str(error)) from None
        for name, options in self.bot_options.items():
            if name not in self.bots:
                raise TournamentError(f"options are given for {name}, who does not play")
            try:
                check_options(name, options)
            except OptionsError as error:
                raise TournamentError(str(error)) from None
        if self.workers < 1:
            raise TournamentError("at least one worker process is needed")
        self.rules.check_players(self.players)
        if self.sprt is not None:
            self._check_sprt(self.sprt)

    def _check_sprt(self, test: Sprt) -> None:
        lineup = self.lineup()
        names = list(dict.fromkeys(lineup))
        if len(names) != 2:
            raise TournamentError("the stopping rule (--sprt) is for a match of two bots")
        if lineup.count(names[0]) != lineup.count(names[1]):
            raise TournamentError(f"the stopping rule (--sprt) needs the two bots on as many "
                                  f"seats each; the line-up is {', '.join(lineup)}")
        try:
            test.check()
        except ValueError as error:
            raise TournamentError(f"--sprt: {error}") from None


# -- one game -----------------------------------------------------------------------------


@dataclass(slots=True)
class GameOutcome:
    """What one game (or single deal) of the tournament gave."""

    index: int
    rotation: int
    seating: list[str]
    winners: list[str]
    """The bots of the winning side (empty for a draw)."""
    deal_scores: list[list[int]]
    """Per deal, each seat's side's score."""
    times: dict[str, list[float]] = field(default_factory=dict)
    """Per bot, the milliseconds of each of its decisions."""


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random("rummy500 tournament " + " ".join(str(p) for p in (seed, *parts)))


def pack_order(spec: TournamentSpec, index: int, deal: int) -> list[int]:
    """The pack order of deal ``deal`` of game ``index``: the same in every rotation."""
    pack = make_pack(spec.rules.deck_count(spec.players), spec.rules.jokers_in_each_deck)
    _rng(spec.seed, index, "deal", deal).shuffle(pack)
    return pack


def play_one(spec: TournamentSpec, index: int, rotation: int) -> GameOutcome:
    """Game (or deal) ``index`` with the line-up turned ``rotation`` seats."""
    seating = spec.rotations()[rotation]
    players = spec.players
    rules = spec.rules
    dealer = _rng(spec.seed, index, "dealer").randrange(players)
    game = Game(rules, players, rng=_rng(spec.seed, index, "reshuffle"), dealer=dealer,
                auto_deal=False)
    bots: list[Bot] = [
        make_bot(name, _rng(spec.seed, index, rotation, seat).getrandbits(63), spec.budget,
                 spec.worlds, spec.bot_options.get(name))
        for seat, name in enumerate(seating)
    ]
    times: dict[str, list[float]] = {name: [] for name in seating}
    deal_scores: list[list[int]] = []
    limit = 1 if spec.deals else spec.max_deals

    def timing(turn: Played) -> None:
        times[seating[turn.seat]].append(turn.ms)

    while not game.finished and len(game.deals) < limit:
        game.start_deal(pack_order(spec, index, len(game.deals)))
        play_out(game, bots, error=TournamentError, names=seating, timed=True, on_move=timing)
        scores = game.results[-1].scores
        deal_scores.append([scores[rules.side_of(seat)] for seat in range(players)])
    winners: list[str] = []
    if spec.deals:
        top = max(deal_scores[0])
        leaders = {rules.side_of(s) for s in range(players) if deal_scores[0][s] == top}
        if len(leaders) == 1:
            side = leaders.pop()
            winners = sorted({seating[s] for s in range(players) if rules.side_of(s) == side})
    elif game.finished and game.winner is not None:
        side = game.winner
        winners = sorted({seating[s] for s in range(players) if rules.side_of(s) == side})
    return GameOutcome(index, rotation, seating, winners, deal_scores, times)


Batch = list[tuple[int, int]]
"""(game index, rotation) pairs played together: one unit of work."""


def play_batch(spec: TournamentSpec, jobs: Batch) -> list[GameOutcome]:
    """The games of ``jobs``, each depending on the spec, its index and rotation only."""
    return [play_one(spec, index, rotation) for index, rotation in jobs]


# -- statistics ---------------------------------------------------------------------------------


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its normal 95% interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def bradley_terry(names: Sequence[str], wins: dict[tuple[str, str], float],
                  iterations: int = 500) -> dict[str, float]:
    """Elo-scale ratings (mean 0) from pairwise wins, with half a win each way as a prior."""
    strength = dict.fromkeys(names, 1.0)
    won = {a: sum(wins.get((a, b), 0.0) + 0.5 for b in names if b != a) for a in names}
    for _ in range(iterations):
        updated = {}
        for a in names:
            denom = 0.0
            for b in names:
                if a == b:
                    continue
                games = wins.get((a, b), 0.0) + wins.get((b, a), 0.0) + 1.0
                denom += games / (strength[a] + strength[b])
            updated[a] = won[a] / denom if denom else strength[a]
        scale = math.exp(sum(math.log(v) for v in updated.values()) / len(updated))
        strength = {a: v / scale for a, v in updated.items()}
    return {a: 400.0 * math.log10(v) for a, v in strength.items()}


@dataclass(slots=True)
class BotStats:
    name: str
    seats: int
    """Seats this bot holds in each game."""
    expected_share: float
    """The share of wins an equal bot would get with those seats."""
    games: int = 0
    wins: int = 0
    deal_points: list[float] = field(default_factory=list)
    """Per deal, the mean score of this bot's seats."""
    times: list[float] = field(default_factory=list)

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        mean, lo, hi = mean_ci(self.deal_points)
        return {
            "seats": self.seats,
            "expected_share": round(self.expected_share, 4),
            "games": self.games,
            "wins": self.wins,
            "win_share": round(self.win_share, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "points_per_deal": {"mean": round(mean, 2), "ci95": [round(lo, 2), round(hi, 2)],
                                "deals": len(self.deal_points)},
            "decision_ms": {
                "mean": round(sum(self.times) / len(self.times), 3) if self.times else 0.0,
                "p95": round(percentile(self.times, 0.95), 3),
                "max": round(max(self.times), 3) if self.times else 0.0,
                "decisions": len(self.times),
            },
        }


@dataclass(slots=True)
class TournamentResult:
    spec: TournamentSpec
    bots: dict[str, BotStats]
    games: int
    draws: int
    deals: int
    seconds: float
    difference: tuple[str, str, list[float]] | None = None
    """With two bots: (a, b, per game index the mean per-deal points of a minus b)."""
    ratings: dict[str, float] | None = None
    sprt: SprtRun | None = None

    def as_dict(self) -> dict[str, Any]:
        spec = self.spec
        data: dict[str, Any] = {
            "rules": spec.rules.to_record(),
            "players": spec.players,
            "lineup": spec.lineup(),
            "rotations": len(spec.rotations()),
            "mode": "deals" if spec.deals else "games",
            "count": spec.count,
            "seed": spec.seed,
            "budget": spec.budget,
            "worlds": spec.worlds,
            **({"bot_options": {name: dict(options) for name, options in spec.bot_options.items()}}
               if spec.bot_options else {}),
            "games": self.games,
            "draws": self.draws,
            "deals": self.deals,
            "seconds": round(self.seconds, 2),
            "bots": {name: stats.as_dict() for name, stats in self.bots.items()},
        }
        if self.difference is not None:
            a, b, values = self.difference
            mean, lo, hi = mean_ci(values)
            data["difference"] = {"bot": a, "against": b, "points_per_deal": round(mean, 2),
                                  "ci95": [round(lo, 2), round(hi, 2)], "pairs": len(values)}
        if self.ratings is not None:
            data["ratings"] = {name: round(r, 1) for name, r in self.ratings.items()}
        if self.sprt is not None:
            data["sprt"] = {**self.sprt.as_dict(), "bot": self.spec.lineup()[0],
                            "stopped_early": self.sprt.sets < spec.count}
        return data


def summarize(spec: TournamentSpec, outcomes: Sequence[GameOutcome], seconds: float
              ) -> TournamentResult:
    lineup = spec.lineup()
    names = list(dict.fromkeys(lineup))
    rules = spec.rules
    sides = rules.sides(spec.players)
    stats: dict[str, BotStats] = {}
    for name in names:
        seats = lineup.count(name)
        if rules.partnership:
            held = {rules.side_of(s) for s in range(spec.players) if lineup[s] == name}
            expected = len(held) / sides
        else:
            expected = seats / spec.players
        stats[name] = BotStats(name, seats, expected)
    pair_wins: dict[tuple[str, str], float] = {}
    by_index: dict[int, list[float]] = {}
    draws = 0
    deals = 0
    for outcome in outcomes:
        present = set(outcome.seating)
        for name in present:
            stats[name].games += 1
        if not outcome.winners:
            draws += 1
        for name in outcome.winners:
            stats[name].wins += 1
            for other in present - set(outcome.winners):
                pair_wins[(name, other)] = pair_wins.get((name, other), 0.0) + 1.0
        for scores in outcome.deal_scores:
            deals += 1
            for name in present:
                seat_scores = [scores[s] for s in range(spec.players)
                               if outcome.seating[s] == name]
                stats[name].deal_points.append(sum(seat_scores) / len(seat_scores))
        for name, times in outcome.times.items():
            stats[name].times.extend(times)
        if len(names) == 2:
            a, b = names
            diffs = []
            for scores in outcome.deal_scores:
                pa = [scores[s] for s in range(spec.players) if outcome.seating[s] == a]
                pb = [scores[s] for s in range(spec.players) if outcome.seating[s] == b]
                diffs.append(sum(pa) / len(pa) - sum(pb) / len(pb))
            by_index.setdefault(outcome.index, []).extend(diffs)
    result = TournamentResult(spec, stats, len(outcomes), draws, deals, seconds)
    if len(names) == 2:
        values = [sum(v) / len(v) for _, v in sorted(by_index.items()) if v]
        result.difference = (names[0], names[1], values)
    if len(names) > 2:
        result.ratings = bradley_terry(names, pair_wins)
    return result


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int, int], None]

Player = Callable[[TournamentSpec, Iterator[Batch]], Generator[list[GameOutcome], None, None]]
"""Plays batches somewhere (:func:`play_here`, or a cluster: rummy500.commands.cluster),
yielding each batch's outcomes as it finishes; closed early, it gives up the rest."""

IN_FLIGHT = 4
"""Batches handed to each worker ahead of time, so that none waits for work."""


def usable_workers(asked: int) -> int:
    """The worker processes to start for ``asked``: never more than the machine's cores."""
    return max(1, min(asked, os.cpu_count() or 1))


def play_here(spec: TournamentSpec, batches: Iterator[Batch]
              ) -> Generator[list[GameOutcome], None, None]:
    """Play on this machine: in this process, or in a pool of ``spec.workers`` processes."""
    workers = usable_workers(spec.workers)
    if workers == 1 or spec.count == 1:
        for batch in batches:
            yield play_batch(spec, batch)
        return
    pool = ProcessPoolExecutor(max_workers=workers)
    pending: set[Future[list[GameOutcome]]] = set()
    try:
        for batch in batches:
            pending.add(pool.submit(play_batch, spec, batch))
            while len(pending) >= IN_FLIGHT * workers:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_tournament(spec: TournamentSpec, progress: Progress | None = None,
                   player: Player = play_here) -> TournamentResult:
    """Play the whole tournament; ``progress(done, total)`` after every batch of games.

    ``player`` plays the batches (one game index, every rotation, each); the result is the
    same whoever plays them, as each game depends on the spec and its index only.
    """
    spec.check()
    rotations = len(spec.rotations())
    total = spec.count * rotations
    batches = ([(index, rotation) for rotation in range(rotations)]
               for index in range(spec.count))
    watch = (SetWatch(spec.sprt, spec.lineup()[0], rotations) if spec.sprt is not None
             else None)
    outcomes: list[GameOutcome] = []
    start = time.perf_counter()
    if progress is not None:
        progress(0, total)
    games = player(spec, batches)
    try:
        for finished in games:
            outcomes.extend(finished)
            if progress is not None:
                progress(len(outcomes), total)
            if watch is not None and watch.add(finished):
                break
    finally:
        games.close()
    if watch is not None:
        outcomes = [o for o in outcomes if o.index < watch.run.sets]
    outcomes.sort(key=lambda o: (o.index, o.rotation))
    result = summarize(spec, outcomes, time.perf_counter() - start)
    result.sprt = watch.run if watch is not None else None
    return result
