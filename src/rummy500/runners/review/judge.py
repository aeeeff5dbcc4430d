"""One decision judged by ``mcts``'s own search, from what its seat could see.

The position is turned into the seat's :class:`~rummy500.view.PlayerView` first and the
search works from that view alone: it samples the hidden cards again and again,
consistently with what the seat saw (:mod:`~rummy500.bots.sampling`), and plays the
move played and the search's own candidates (the ones ``mcts`` weighs at that decision)
on in every sampled deal, ``expert`` playing every seat. The played move goes first, so
that every other move is measured against it deal by deal (common random numbers) and
is never left out of the search; a candidate that trails the best one clearly is left
out as ``mcts`` leaves it out.

A value is the deal's points for the seat's side less the other sides' mean (at the end of
the deal, or one round of turns on with each hand valued as ``expert`` values it), with
``mcts``'s bonus for a deal that wins the game: the "expected deal points" of a review.

With ``all_cards`` (a second opinion, never the review itself) every hand is shown: the
view is given every seat's cards as known, so the sampled deals differ in the stock's order
only, and the playouts see every hand too (as a double-dummy analysis in bridge does).
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from dataclasses import dataclass

from ...bots.context import Context
from ...bots.mcts import MctsBot
from ...deal import Deal
from ...kinds import Phase
from ...moves import DISCARD, LAYOFF, MELD, Move
from ...view import PlayerView, view_of

WORLDS = 32
"""Sampled deals a decision is judged over by default (the most ``mcts`` plays)."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """The search's verdict on one decision."""

    played: Move
    best: Move
    """The move that did best in the sampled deals (the played one when none beat it)."""
    played_points: float
    """The played move's mean value over the sampled deals (expected deal points)."""
    best_points: float
    loss: float
    """``best_points`` less ``played_points``: 0 when the played move did best."""
    error: float
    """The standard error of ``loss`` (of the difference, sampled deal by sampled deal)."""
    worlds: int
    """The sampled deals the played move was played in."""
    compared: int
    """The sampled deals ``loss`` is measured over (both moves played in them)."""
    searched: int
    """How many moves were searched (the played one and the search's candidates)."""


class ReviewSearch(MctsBot):
    """``mcts``'s search, keeping every playout's value by the move it followed."""

    def __init__(self, seed: int, worlds: int | None, time_budget: float = 1.0) -> None:
        super().__init__(seed, time_budget, worlds=worlds)
        self.values: dict[Move, list[float]] = {}

    def playout_value(self, deal: Deal, view: PlayerView) -> float:
        searched = deal.moves[-1]  # the search has just played the move it is weighing
        value = super().playout_value(deal, view)
        self.values.setdefault(searched, []).append(value)
        return value

    def weighed(self, view: PlayerView) -> list[Move]:
        """The moves ``mcts`` weighs at this decision, its expert's choice first (one move
        when it would not search), or none where the seat has no choice to make."""
        moves = view.legal_moves()
        if len(moves) < 2 or view.phase == Phase.RUMMY:
            return []
        ctx = Context(view)
        if view.phase == Phase.DRAW:
            return [move for _, move, _ in self._best_of(self.expert.draw_options(ctx, moves))]
        decision = self.expert.play_decision(ctx, moves)
        kind = decision.move.kind
        if kind == DISCARD:
            return [move for _, move, _ in
                    self._best_of(self.expert.discard_options(ctx, moves))]
        if kind in (MELD, LAYOFF) and view.must_use < 0 and self.holds:
            holds = self.expert.holding_discards(ctx, moves)[:self.holds]
            return [decision.move, *(move for _, move, _ in holds)]
        return [decision.move]


def same_move(move: Move, legal: list[Move]) -> Move:
    """``move`` as the legal move it is (a record may write a meld's cards in another
    order), so that it is searched once, not again as a candidate."""
    key = (move.kind, move.meld, sorted(move.pieces))
    return next((each for each in legal if (each.kind, each.meld, sorted(each.pieces)) == key),
                move)


def is_decision(deal: Deal) -> bool:
    """Whether the seat to move in ``deal`` has a choice the review judges (more than one
    legal move, and not a call of rummy, which ``mcts`` leaves to its expert)."""
    if deal.over or deal.phase == Phase.RUMMY:
        return False
    return len(view_of(deal, deal.turn).legal_moves()) > 1


def judge(deal: Deal, played: Move, *, totals: tuple[int, ...] = (), deal_number: int = 0,
          seed: int = 0, worlds: int | None = WORLDS, budget: float | None = None,
          all_cards: bool = False) -> Judgement:
    """The search's verdict on ``played`` by the seat to move in ``deal``, from that seat's
    view alone (``all_cards``: from every hand, a second opinion).

    ``worlds`` sampled deals (the same ones for the same ``seed``), or with ``budget``
    (seconds) as many as fit in it, at most ``worlds`` (32 when None)."""
    seat = deal.turn
    view = view_of(deal, seat, totals, deal_number)
    if all_cards:
        view = dataclasses.replace(view, known=tuple(deal.hands))
    search = ReviewSearch(seed, worlds if budget is None else None,
                          budget if budget is not None else 1.0)
    played = same_move(played, view.legal_moves())
    moves = [played, *(move for move in search.weighed(view) if move != played)]
    deadline = math.inf if budget is None else time.perf_counter() + budget
    results = search.search(view, Context(view), moves, deadline)
    best = max(range(len(moves)), key=lambda index: (results[index].gain, -index))
    own = search.values[played][:results[0].worlds]
    played_points = sum(own) / len(own)
    loss = results[best].gain if best else 0.0
    return Judgement(played, moves[best], played_points, played_points + loss, loss,
                     results[best].error if best else 0.0, results[0].worlds,
                     results[best].worlds, len(moves))


def decision_seed(seed: int, deal_index: int, move_index: int) -> int:
    """The seed of one decision's search: from the review's seed and where the decision is,
    so that a review gives the same figures however its decisions are shared out."""
    return random.Random(f"review {seed} {deal_index} {move_index}").getrandbits(63)
