"""``mcts``: Monte Carlo search over the hidden cards, with ``expert`` playing the playouts.

At a decision that matters (which card to take or draw, which card to
discard), the bot asks ``expert`` for its few best candidate moves, then
repeatedly *determinizes*: it deals the cards it has not seen into the other
hands and the stock at random, consistently with everything it knows (see
:mod:`~rummy500.bots.sampling`), and plays each candidate on in that same
sampled deal, every seat played by ``expert`` from its own view of it. After
``horizon`` rounds of turns (one by default) each hand is valued as ``expert``
values it and added to the points on the table; a deal that ends sooner is
scored as it ends, with a bonus when it wins the game. Every candidate is
scored on the same sampled deals (common random numbers), so their differences
are measured, not their luck.

The search is one of successive elimination. Every move still searched is
played in each sampled deal; once ``MIN_WORLDS`` deals are played, a move
that trails the best one so far by more than ``DROP`` standard errors (of
their difference, deal by deal) is left out of the deals to come, so the time
goes to the moves still in question. ``expert``'s choice is never left out: it
is what every other move is measured against. The search ends when the deals
or the time budget run out (at most ``ENOUGH_WORLDS`` deals in the time), or when
``expert``'s choice is the only move left.

Then it plays the move that did best against ``expert``'s choice, each move
judged over the deals it was played in (a move left out played the first ones,
and so did ``expert``'s choice), but leaves ``expert``'s choice only for a move
that beat it by more than ``confidence`` standard errors: with few samples,
noise alone would otherwise pull it off good moves.

When ``expert`` would lay a meld down or lay a card off, that move is searched against
the ``holds`` discards ``expert`` rates best (``HOLDS``, 2) with its melds kept in hand:
whether to put cards down now is a real choice, which ``expert`` makes by rule. Moves
with no real choice (rummy claims, the only legal move, using a card just taken from the
pile) are ``expert``'s, at once.
"""

from __future__ import annotations

import math
import random
import time
from typing import NamedTuple

from ..deal import Deal
from ..errors import NotYourTurnError
from ..game import winner_after
from ..kinds import Phase
from ..moves import DISCARD, LAYOFF, MELD, Move
from ..view import PlayerView, view_of
from .base import Bot, Decision
from .context import Context
from .expert import ExpertBot
from .sampling import sample_deal

GAME_BONUS = 100.0
"""What winning the game with this deal is worth, in deal points."""
MAX_CANDIDATES = 4
CONFIDENCE = 0.5
"""Standard errors by which a move must beat the expert's choice to be played instead."""
HORIZON: int | None = 1
"""Rounds of turns a playout runs before the hands are valued (None: to the deal's end).

One round (every seat one turn, the searching seat's next turn included when it moves
first) plays as well as two in ``classic`` and better in ``wild``, in about half the time:
over the 400 duplicate pairs of docs/strength.md's rows at 32 sampled deals, ``mcts``
less ``expert`` +14.4 a deal against +14.0 with two rounds in ``classic``, +15.9 against
+8.2 in ``wild``; three rounds did worse than two. ``expert``'s valuation of a hand
judges it better than ``expert``'s play carried on further does."""
ENOUGH_WORLDS = 32
"""Sampled deals after which a search bounded by time stops before its time is up.

So the default search is the one docs/strength.md measures at ``--worlds 32`` (when its
second does not run out first). More found no better moves that a tournament can tell:
128 sampled deals gave +11.5 a deal against ``expert`` (3.3 to 19.8) against +14.3 for
32 over the same 100 ``classic`` pairs, in four times the time."""
MIN_WORLDS = 8
"""Sampled deals every move is played in before any is left out of the search."""
DROP = 1.5
"""Standard errors by which a move must trail the best one to be left out of the search.

A move left out this way seldom had a chance: to be played it would have to end more
than ``CONFIDENCE`` standard errors above ``expert``'s choice, and the best so far is at
least level with that choice. With 8 deals and 1.5 standard errors a search plays about a
quarter fewer playouts than with none left out, and changes a few moves in a hundred
(measured on the positions of ``benchmarks/bench_bots.py``, their values checked against
400 more sampled deals: no loss that the check could tell from chance)."""
HOLDS = 2
"""Discards searched against putting cards down, when the expert would meld or lay off.

The expert lays down every meld it can (but a Persian set of three it holds for the
fourth) and lays off what fits. Holding cards back can pay: the other side gets no card
to lay off on a meld it has not seen, and a hand kept whole can go out at once later.
So when the expert would put a card down, ``mcts`` searches that move against the two
discards it rates best with every meld kept in hand. Over the first 100 ``classic``
pairs of docs/strength.md at 32 sampled deals this took ``mcts`` from +14.3 a deal
against ``expert`` to +24.6 (the difference pair by pair +10.3, -1.0 to 21.6)."""
MARGIN = 25.0
"""Candidates the expert rates more than this many points below its best are not searched."""


class Paired(NamedTuple):
    """A move's playout values against another move's, over the deals both were played in."""

    gain: float
    """The mean difference (this move's less the other's)."""
    error: float
    """The standard error of ``gain``."""
    worlds: int
    """The sampled deals both were played in."""


def paired(values: list[float], other: list[float]) -> Paired:
    """``values`` against the first as many of ``other`` (the same sampled deals).

    Reckoned in the order and the way the search always has (sums of each move's values,
    the squares of the differences), so that a search leaving no move out gives the very
    figures, and the moves, it gave before moves were left out."""
    worlds = len(values)
    total = 0.0
    other_total = 0.0
    squares = 0.0
    for value, against in zip(values, other[:worlds], strict=True):
        total += value
        other_total += against
        squares += (value - against) ** 2
    gain = total / worlds - other_total / worlds
    var = max(0.0, squares / worlds - gain * gain)
    return Paired(gain, math.sqrt(var / max(1, worlds - 1)), worlds)


class MctsBot(Bot):
    """Determinized search within ``time_budget`` seconds a decision."""

    name = "mcts"

    def __init__(self, seed: int | None = None, time_budget: float = 1.0, *,
                 candidates: int = MAX_CANDIDATES, margin: float = MARGIN,
                 worlds: int | None = None, horizon: int | None = HORIZON,
                 confidence: float = CONFIDENCE, holds: int = HOLDS,
                 light: bool = True, lean: float | None = None) -> None:
        """``lean`` sets how far sampled deals lean on what the other seats' takes, passes and
        discards suggest (see :mod:`~rummy500.bots.sampling`; by default as the rules
        want, :func:`~rummy500.bots.sampling.lean_for`). ``light`` plays the
        playouts with ``expert``'s light reckoning (see :class:`ExpertBot`). ``worlds``
        fixes the most sampled deals a search plays, in place of the time budget (it
        still stops sooner when the expert's choice is the only move left in the
        search): then the same seed gives the same moves on any machine. Without it a
        search plays until the budget or ``ENOUGH_WORLDS`` sampled deals run out."""
        super().__init__(seed, time_budget)
        self.worlds = worlds
        self.horizon = horizon
        self.confidence = confidence
        self.holds = holds
        self.lean = lean
        self.expert = ExpertBot(self.rng.getrandbits(63), time_budget)
        self.playout = ExpertBot(0, time_budget, light=light)
        self.candidates = candidates
        self.margin = margin
        self.last_worlds = 0

    def decide(self, view: PlayerView) -> Decision:
        start = time.perf_counter()
        moves = view.legal_moves()
        if not moves:
            raise NotYourTurnError("there is no legal move: it is not this seat's move")
        if len(moves) == 1 or view.phase == Phase.RUMMY:
            return self.expert.decide(view)
        ctx = Context(view)
        if view.phase == Phase.DRAW:
            chosen = self._best_of(self.expert.draw_options(ctx, moves))
        else:
            decision = self.expert.play_decision(ctx, moves)
            kind = decision.move.kind
            if kind == DISCARD:
                chosen = self._best_of(self.expert.discard_options(ctx, moves))
            elif kind in (MELD, LAYOFF) and view.must_use < 0 and self.holds:
                holds = self.expert.holding_discards(ctx, moves)[:self.holds]
                if not holds:
                    return decision
                chosen = [(0.0, decision.move, decision.reason), *holds]
            else:
                return decision
        if len(chosen) == 1:
            return Decision(chosen[0][1], chosen[0][2])
        deadline = start + self.time_budget * 0.95
        results = self.search(view, ctx, [move for _, move, _ in chosen], deadline)
        self.last_worlds = results[0].worlds
        # leave the expert's choice only for a move that beat it by more than chance
        index = max(range(len(chosen)),
                    key=lambda i: results[i].gain - self.confidence * results[i].error)
        _, move, why = chosen[index]
        if index == 0:
            return Decision(move, f"{why} (best in {results[0].worlds} sampled deals)")
        gain, _, worlds = results[index]
        if chosen[0][1].kind in (MELD, LAYOFF):
            return Decision(move, f"keeps its cards in hand for now: that did {gain:.0f} "
                            f"points better than putting them down in {worlds} sampled deals")
        return Decision(move, f"it did {gain:.0f} points better than the expert's choice "
                        f"in {worlds} sampled deals")

    def _best_of(self, options: list[tuple[float, Move, str]]) -> list[tuple[float, Move, str]]:
        """The expert's best options (best first) within ``margin`` of its best, at most
        ``candidates`` of them."""
        best_value = options[0][0]
        return [(value, move, why) for value, move, why in options
                if value >= best_value - self.margin][:self.candidates]

    def search(self, view: PlayerView, ctx: Context, moves: list[Move], deadline: float
               ) -> list[Paired]:
        """Each move's mean playout value less the first move's, with its standard error,
        over the sampled deals the move was played in, and how many those were.

        Every sampled deal plays every move still searched; from ``MIN_WORLDS`` deals on,
        a move other than the first that trails the best one so far is left out of the
        deals to come (see :meth:`_beaten`). The first move (``expert``'s choice) is never
        left out: every other move is measured against it, deal by deal. A move left out
        played the first deals, so it is compared with the first move over those same
        deals. The search ends when the deals or the time run out, or
        when the first move is the only one left.
        """
        know = ctx.know
        values: list[list[float]] = [[] for _ in moves]
        searched = list(range(len(moves)))
        worlds = 0
        clock = time.perf_counter
        began = clock()
        while True:
            world_seed = self.rng.getrandbits(63)
            base = sample_deal(view, random.Random(world_seed), know, self.lean)
            results = []
            for index in searched:
                deal = base.copy()
                deal.play(moves[index], check=False)
                results.append(self.playout_value(deal, view))
                if self.worlds is None and worlds and clock() > deadline:
                    break
            if len(results) < len(searched):
                break  # out of time inside a sampled deal: it is left out
            for index, value in zip(searched, results, strict=True):
                values[index].append(value)
            worlds += 1
            if self.worlds is not None:
                if worlds >= self.worlds:
                    break
            elif worlds >= ENOUGH_WORLDS:
                break
            else:
                now = clock()
                if now + (now - began) / worlds > deadline:
                    break
            if worlds >= MIN_WORLDS:
                best = max(searched, key=lambda i: sum(values[i]))
                searched = [i for i in searched if not self._beaten(values, best, i)]
                if len(searched) == 1:
                    break
        return [paired(each, values[0]) for each in values]

    @staticmethod
    def _beaten(values: list[list[float]], best: int, index: int) -> bool:
        """Whether move ``index`` (not the first) trails ``best``, the best move still
        searched, by more than ``DROP`` standard errors of their difference, deal by deal
        (the best by its mean: the moves still searched were all played in every deal so
        far)."""
        if index in (0, best):
            return False
        gain, error, _ = paired(values[index], values[best])
        return gain < -DROP * error

    def playout_value(self, deal: Deal, view: PlayerView) -> float:
        """Play ``deal`` on with the expert at every seat; the value for ``view``'s side.

        With a ``horizon``, the playout stops at the start of a turn once that many
        rounds of turns have begun, and each hand is valued as the expert values it.
        """
        policy = self.playout
        totals = view.totals
        number = view.deal_number
        turns = 0
        limit = self.horizon * view.players if self.horizon is not None else -1
        while not deal.over:
            seat = deal.turn
            if deal.phase == Phase.DRAW:
                if turns == limit:
                    return self.leaf_value(deal, view)
                turns += 1
            move = policy.choose(view_of(deal, seat, totals, number))
            deal.play(move, check=False)
        return self.utility(deal, view)

    def leaf_value(self, deal: Deal, view: PlayerView) -> float:
        """Points on the table plus each hand as its holder would value it."""
        rules = view.rules
        sides = rules.sides(view.players)
        worth = [0.0] * sides
        for seat in range(view.players):
            seat_view = view_of(deal, seat, view.totals, view.deal_number)
            ctx = Context(seat_view, light=True)
            worth[rules.side_of(seat)] += deal.credit[seat] + ctx.evaluator.value(deal.hands[seat])
        side = rules.side_of(view.seat)
        others = [w for s, w in enumerate(worth) if s != side]
        return worth[side] - sum(others) / len(others)

    @staticmethod
    def utility(deal: Deal, view: PlayerView) -> float:
        rules = view.rules
        scores = deal.result().scores
        side = rules.side_of(view.seat)
        others = [score for s, score in enumerate(scores) if s != side]
        value = scores[side] - sum(others) / len(others)
        if view.totals and len(view.totals) == len(scores):
            winner = winner_after(rules, view.totals, scores, view.deal_number + 1)
            if winner is not None:
                value += GAME_BONUS if winner == side else -GAME_BONUS
        return value
