"""``mcts``: Monte Carlo search over the hidden cards, with ``expert`` playing the playouts.

At a decision that matters (which card to take or draw, which card to
discard), the bot asks ``expert`` for its few best candidate moves, then
repeatedly *determinizes*: it deals the cards it has not seen into the other
hands and the stock at random, consistently with everything it knows (see
:mod:`~rummy500.bots.sampling`), and plays each candidate on in that same
sampled deal, every seat played by ``expert`` from its own view of it. After
``horizon`` rounds of turns (two by default) each hand is valued as ``expert``
values it and added to the points on the table; a deal that ends sooner is
scored as it ends, with a bonus when it wins the game. Every candidate is
scored on the same sampled deals (common random numbers), so their differences
are measured, not their luck.

When the time budget is spent (or when ``expert``'s choice is clearly best), it
plays the candidate with the best mean, but leaves ``expert``'s choice only for
a move that beat it by more than ``confidence`` standard errors: with few
samples, noise alone would otherwise pull it off good moves. Moves with no real
choice (melds, lay-offs, rummy claims, the only legal move) are ``expert``'s, at
once.
"""

from __future__ import annotations

import math
import random
import time

from ..deal import Deal
from ..errors import NotYourTurnError
from ..game import winner_after
from ..kinds import Phase
from ..moves import DISCARD, Move
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
HORIZON: int | None = 2
"""Rounds of turns a playout runs before the hands are valued (None: to the deal's end)."""
MARGIN = 25.0
"""Candidates the expert rates more than this many points below its best are not searched."""


class MctsBot(Bot):
    """Determinized search within ``time_budget`` seconds a decision."""

    name = "mcts"

    def __init__(self, seed: int | None = None, time_budget: float = 1.0, *,
                 candidates: int = MAX_CANDIDATES, margin: float = MARGIN,
                 worlds: int | None = None, horizon: int | None = HORIZON,
                 confidence: float = CONFIDENCE) -> None:
        """``worlds`` fixes the most sampled deals a search plays, in place of the time
        budget (it still stops sooner when the expert's choice is clearly best): then the
        same seed gives the same moves on any machine."""
        super().__init__(seed, time_budget)
        self.worlds = worlds
        self.horizon = horizon
        self.confidence = confidence
        self.expert = ExpertBot(self.rng.getrandbits(63), time_budget)
        self.playout = ExpertBot(0, time_budget, light=True)
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
            options = self.expert.draw_options(ctx, moves)
        else:
            decision = self.expert.play_decision(ctx, moves)
            if decision.move.kind != DISCARD:
                return decision
            options = self.expert.discard_options(ctx, moves)
        best_value = options[0][0]
        chosen = [(value, move, why) for value, move, why in options
                  if value >= best_value - self.margin][:self.candidates]
        if len(chosen) == 1:
            return Decision(chosen[0][1], chosen[0][2])
        deadline = start + self.time_budget * 0.95
        means, errors, worlds = self.search(view, ctx, [move for _, move, _ in chosen],
                                            deadline)
        self.last_worlds = worlds
        # leave the expert's choice only for a move that beat it by more than chance
        index = max(range(len(chosen)),
                    key=lambda i: means[i] - (self.confidence * errors[i] if i else 0.0))
        _, move, why = chosen[index]
        if index == 0:
            return Decision(move, f"{why} (best in {worlds} sampled deals)")
        gain = means[index] - means[0]
        return Decision(move, f"it did {gain:.0f} points better than the expert's choice "
                        f"in {worlds} sampled deals")

    def search(self, view: PlayerView, ctx: Context, moves: list[Move], deadline: float
               ) -> tuple[list[float], list[float], int]:
        """Mean playout value of each move over as many sampled deals as time allows, and
        the standard error of each mean's difference from the first move's."""
        know = ctx.know
        sums = [0.0] * len(moves)
        squares = [0.0] * len(moves)
        worlds = 0
        clock = time.perf_counter
        began = clock()
        while True:
            world_seed = self.rng.getrandbits(63)
            base = sample_deal(view, random.Random(world_seed), know)
            results = []
            for move in moves:
                deal = base.copy()
                deal.play(move, check=False)
                results.append(self.playout_value(deal, view))
                if self.worlds is None and worlds and clock() > deadline:
                    break
            if len(results) < len(moves):
                break  # out of time inside a sampled deal: it is left out
            best = results[0]
            for i, value in enumerate(results):
                sums[i] += value
                squares[i] += (value - best) ** 2
            worlds += 1
            if self.worlds is not None:
                if worlds >= self.worlds:
                    break
            else:
                now = clock()
                if now + (now - began) / worlds > deadline:
                    break
            if worlds >= 12 and self._settled(sums, squares, worlds):
                break
        means = [total / worlds for total in sums]
        errors = []
        for i in range(len(moves)):
            diff = means[i] - means[0]
            var = max(0.0, squares[i] / worlds - diff * diff)
            errors.append(math.sqrt(var / max(1, worlds - 1)))
        return means, errors, worlds

    @staticmethod
    def _settled(sums: list[float], squares: list[float], worlds: int) -> bool:
        """Whether the expert's choice (index 0) is clearly not beaten by any other."""
        for i in range(1, len(sums)):
            diff = (sums[i] - sums[0]) / worlds
            var = squares[i] / worlds - diff * diff
            se = math.sqrt(max(var, 1e-9) / worlds)
            if diff > -2.5 * se:
                return False
        return True

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
