"""One decision's reckoning: the hand evaluator, how long the deal may last, what feeds whom.

:class:`Context` is built afresh from a seat's view for every decision of
``expert`` (and of the expert playing inside ``mcts``'s playouts). It holds the
card count (:class:`~rummy500.bots.knowledge.Knowledge`), the
:class:`~rummy500.bots.handeval.Evaluator` tuned to the position (how many
cards the seat may still draw, how likely a dead card is to be caught in hand),
and prices every discard by what it would hand the other side.
"""

from __future__ import annotations

import math

from ..cards import JOKER, face_of, faces_present
from ..game import winner_after
from ..melds import JOKER_SET, find_melds
from ..scoring import points_for
from ..view import PlayerView
from .handeval import Evaluator
from .knowledge import Knowledge
from .simple import meld_points

HAZARD = (1.0, 0.38, 0.2, 0.11, 0.02, 0.006, 0.003)
"""The chance that a player holding this many cards goes out before the next round
(measured in games between experts)."""
AVERAGE_EXTRA_CARD = 2.0
"""What a card taken along with a deep take is worth to whoever takes it, on average."""
RACE = 100.0
"""What ending the deal with the game won (or lost) is worth, in points of the deal."""


class Context:
    """Everything one decision needs: knowledge, the evaluator, what discards feed."""

    def __init__(self, view: PlayerView, light: bool = False) -> None:
        self.view = view
        self.light = light
        self.rules = rules = view.rules
        self.points = points_for(rules)
        self.know = know = Knowledge(view)
        self.opponents = know.opponents()
        self.partners = know.partners()
        self.draws = self._draws()
        self.stuck = 0.35 + 0.65 * math.exp(-self.draws / 4.0)
        if view.stock_count == 0 and rules.stock_exhausted != "reshuffle":
            self.stuck = 1.0
        self.evaluator = Evaluator(rules, self.points, view.melds, know.live, know.pool,
                                   know.pile_count, self.draws, self.stuck)
        fits = 0
        for meld in view.melds:
            if meld.kind != JOKER_SET:
                fits |= meld.fits
        self.table_fits = fits
        self.joker_room = any(m.kind == JOKER_SET and m.fits for m in view.melds)
        pile_faces = 0
        for card in view.pile:
            pile_faces |= 1 << face_of(card)
        self.pile_faces = pile_faces & ~(1 << JOKER)
        self._feed: dict[int, float] = {}

    # -- how long the deal may last ------------------------------------------------------

    def _draws(self) -> float:
        """How many more cards this seat may expect to draw before the deal ends."""
        view = self.view
        players = view.players
        stock_turns = view.stock_count / players
        if view.rules.stock_exhausted == "reshuffle":
            stock_turns += len(view.pile) / players
        elif view.rules.stock_exhausted == "discard_pile":
            stock_turns += 0.5
        out_turns = min(
            (self.going_out_turns(size) for seat, size in enumerate(view.hand_sizes)
             if seat != view.seat),
            default=99.0,
        )
        return max(0.0, min(stock_turns, out_turns))

    def hazard(self) -> float:
        """The chance that the deal ends before this seat's next turn."""
        view = self.view
        if view.stock_count <= view.players and view.rules.stock_exhausted == "end":
            return 1.0
        chance = 0.0
        for seat, size in enumerate(view.hand_sizes):
            if seat != view.seat:
                chance += HAZARD[size] if size < len(HAZARD) else HAZARD[-1]
        return min(1.0, chance)

    @staticmethod
    def going_out_turns(cards: int) -> float:
        """Roughly how many turns a player holding ``cards`` needs to go out."""
        return 0.6 + 0.75 * max(0, cards - 1)

    def hand_estimate(self, seat: int) -> float:
        """The points ``seat`` may expect to hold if the deal ended now."""
        view = self.view
        points = self.points
        known = view.known[seat]
        total = float(points.in_hand(known))
        unknown = self.know.unknown[seat]
        if unknown:
            pool = self.know.unseen
            average = points.in_hand(pool) / max(1, pool.bit_count())
            total += unknown * average * 0.8
        return total

    def going_out_value(self) -> float:
        """What ending the deal now by going out is worth to this seat's side.

        The other sides keep their hands (each side's loss counts once, averaged over
        the other sides), a partner's hand counts against this side, and if the deal's
        end decides the game (the race to the target, or the last deal), that counts
        too.
        """
        rules = self.rules
        view = self.view
        hands = [0.0 if seat == view.seat else self.hand_estimate(seat)
                 for seat in range(view.players)]
        mine = rules.side_of(view.seat)
        sides = rules.sides(view.players)
        credit = [0.0] * sides
        held = [0.0] * sides
        for seat in range(view.players):
            credit[rules.side_of(seat)] += view.credit[seat]
            held[rules.side_of(seat)] += hands[seat]
        others = [side for side in range(sides) if side != mine]
        value = float(self.points.going_out_bonus)
        if rules.add_hand_to_winner:
            value += sum(held[side] for side in others)
            scores = [credit[side] + (sum(held[o] for o in others) if side == mine else 0.0)
                      for side in range(sides)]
        else:
            value += sum(held[side] for side in others) / len(others) - held[mine]
            scores = [credit[side] - held[side] for side in range(sides)]
        scores[mine] += self.points.going_out_bonus
        return value + self.race(scores)

    def race(self, scores: list[float]) -> float:
        """+RACE if these deal scores would win the game for this side, -RACE if another."""
        view = self.view
        if len(view.totals) != len(scores):
            return 0.0
        winner = winner_after(self.rules, view.totals, scores, view.deal_number + 1)
        if winner is None:
            return 0.0
        return RACE if winner == self.rules.side_of(view.seat) else -RACE

    # -- what a discard hands to the others ----------------------------------------------

    def feed(self, face: int) -> float:
        found = self._feed.get(face)
        if found is None:
            found = self._feed[face] = self._compute_feed(face)
        return found

    def _compute_feed(self, face: int) -> float:
        view = self.view
        rules = self.rules
        points = self.points
        if face == JOKER:
            if rules.jokers == "wild":
                return 3.0 * points.joker
            return 2.0 * points.joker if self.joker_room else 1.0 * points.joker
        value = self.evaluator.rank_value[face & 15]
        if self.table_fits >> face & 1:
            return value * (1.6 if rules.rummy_calls else 1.3)
        feed = 0.0
        rank, suit = face & 15, face >> 4
        live = self.know.live
        weights = [1.0] + [0.45] * (len(self.opponents) - 1)
        for weight, seat in zip(weights, self.opponents, strict=False):
            known = faces_present(view.known[seat])
            discarded = 0 if self.light else self.know.records[seat].discarded
            q = self.know.share(seat)
            # a meld with the pile and the opponent's known cards, at once
            pool = self.pile_faces | known | 1 << face
            best = 0
            for pieces in find_melds(pool, 0, 0, rules.min_run):
                if face in pieces:
                    best = max(best, meld_points(pieces, points))
            if best:
                feed += weight * (best * 0.8 + AVERAGE_EXTRA_CARD)
                continue
            # melds with the opponent's unseen cards (and the pile)
            chance = 0.0
            same = [s << 4 | rank for s in range(4) if s != suit]
            held = [live[f] * q + (1.0 if (known | self.pile_faces) >> f & 1 else 0.0)
                    for f in same]
            set_chance = held[0] * held[1] + held[0] * held[2] + held[1] * held[2]
            if discarded & sum(1 << f for f in same):
                set_chance *= 0.3
            chance += set_chance
            for a, b in ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2)):
                fa, fb = suited(suit, a), suited(suit, b)
                if fa < 0 or fb < 0:
                    continue
                ha = live[fa] * q + (1.0 if (known | self.pile_faces) >> fa & 1 else 0.0)
                hb = live[fb] * q + (1.0 if (known | self.pile_faces) >> fb & 1 else 0.0)
                run_chance = min(1.0, ha) * min(1.0, hb)
                if discarded & (1 << fa | 1 << fb):
                    run_chance *= 0.4
                chance += run_chance
            feed += weight * min(1.0, chance) * (value * 2.2 + 4.0)
        for seat in self.partners:
            known = faces_present(view.known[seat])
            if known and any(face in p for p in find_melds(known | 1 << face, 0, 0,
                                                            rules.min_run)):
                feed -= 0.3 * value
        return feed


def suited(suit: int, rank: int) -> int:
    if rank == 14:
        rank = 1
    if not 1 <= rank <= 13:
        return -1
    return suit << 4 | rank
