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

from ..cards import JOKER, faces_present
from ..game import winner_after
from ..melds import find_melds
from ..scoring import Points, points_for
from ..view import PlayerView
from .face_pairs import PARTNERS
from .handeval import Evaluator
from .knowledge import Knowledge
from .simple import meld_points
from .table_facts import RULE_SETS_KEPT

HAZARD = (1.0, 0.38, 0.2, 0.11, 0.02, 0.006, 0.003)
"""The chance that a player holding this many cards goes out before the next round
(measured in games between experts)."""
AVERAGE_EXTRA_CARD = 2.0
"""What a card taken along with a deep take is worth to whoever takes it, on average."""
RACE = 100.0
"""What ending the deal with the game won (or lost) is worth, in points of the deal."""
MELDS_KEPT = 50_000
"""The most face sets whose best meld one rule set keeps (then it starts afresh)."""

_MELDS_WITH: dict[tuple[int, Points], dict[int, int]] = {}
"""Per rule set (its shortest run and its points), the points of the best meld of a set of
faces holding a given face: the same pile and known cards come back decision after
decision."""
_SIDES: dict[tuple[bool, int, int], tuple[list[int], list[int]]] = {}
"""The opponents and partners of a seat, by partnership, players and seat (read only)."""


class Context:
    """Everything one decision needs: knowledge, the evaluator, what discards feed."""

    def __init__(self, view: PlayerView, light: bool = False) -> None:
        self.view = view
        self.light = light
        self.rules = rules = view.rules
        self.points = points_for(rules)
        self.know = know = Knowledge(view)
        sides = _SIDES.get((rules.partnership, view.players, view.seat))
        if sides is None:
            sides = _SIDES[(rules.partnership, view.players, view.seat)] = (
                know.opponents(), know.partners())
        self.opponents, self.partners = sides
        self.draws = self._draws()
        self.stuck = 0.35 + 0.65 * math.exp(-self.draws / 4.0)
        if view.stock_count == 0 and rules.stock_exhausted != "reshuffle":
            self.stuck = 1.0
        self.evaluator = Evaluator(rules, self.points, view.melds, know.live, know.pool,
                                   know.pile_count, self.draws, self.stuck, know.unseen,
                                   know.table, know.pile_cards)
        self.table_fits = know.table.fit_faces
        self.joker_room = know.table.joker_set_open
        self.pile_faces = know.pile_faces & ~(1 << JOKER)
        self._feed: dict[int, float] = {}
        self._rivals: list[tuple[float, int, float, int]] | None = None
        self._partner_faces = [faces_present(view.known[seat]) for seat in self.partners]
        melds_with = _MELDS_WITH.get((rules.min_run, self.points))
        if melds_with is None:
            if len(_MELDS_WITH) >= RULE_SETS_KEPT:
                _MELDS_WITH.clear()
            melds_with = _MELDS_WITH[(rules.min_run, self.points)] = {}
        self._melds_with = melds_with

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
        fewest = -1
        for seat, size in enumerate(view.hand_sizes):
            if seat != view.seat and (fewest < 0 or size < fewest):
                fewest = size
        # the fewest cards need the fewest turns (going_out_turns grows with the cards)
        out_turns = 99.0 if fewest < 0 else self.going_out_turns(fewest)
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
        live = self.know.live
        same, same_mask, run_pairs = NEIGHBOURS[face]
        meld_with = self._meld_with
        bit = 1 << face
        rivals = self._rivals
        if rivals is None:
            rivals = self._rivals = self._gather_rivals()
        partners = PARTNERS[face]
        for weight, seen, q, discarded in rivals:
            # a meld with the pile and the opponent's known cards, at once (a meld holding
            # the face needs two of its partners)
            best = meld_with(seen | bit, face) if (seen & partners).bit_count() >= 2 else 0
            if best:
                feed += weight * (best * 0.8 + AVERAGE_EXTRA_CARD)
                continue
            # melds with the opponent's unseen cards (and the pile)
            chance = 0.0
            f0, f1, f2 = same
            h0 = live[f0] * q + (1.0 if seen >> f0 & 1 else 0.0)
            h1 = live[f1] * q + (1.0 if seen >> f1 & 1 else 0.0)
            h2 = live[f2] * q + (1.0 if seen >> f2 & 1 else 0.0)
            set_chance = h0 * h1 + h0 * h2 + h1 * h2
            if discarded & same_mask:
                set_chance *= 0.3
            chance += set_chance
            for fa, fb, mask in run_pairs:
                ha = live[fa] * q + (1.0 if seen >> fa & 1 else 0.0)
                hb = live[fb] * q + (1.0 if seen >> fb & 1 else 0.0)
                # min(1.0, ha) * min(1.0, hb), without the calls
                run_chance = (ha if ha < 1.0 else 1.0) * (hb if hb < 1.0 else 1.0)
                if discarded & mask:
                    run_chance *= 0.4
                chance += run_chance
            feed += weight * (chance if chance < 1.0 else 1.0) * (value * 2.2 + 4.0)
        for known in self._partner_faces:
            if (known & partners).bit_count() >= 2 and meld_with(known | bit, face):
                feed -= 0.3 * value
        return feed

    def _gather_rivals(self) -> list[tuple[float, int, float, int]]:
        """Per opponent (the next first): the weight of what it is fed, the faces it is
        known to hold with the pile's, its share of the unseen cards and the faces it
        discarded (not counted in a light reckoning)."""
        view = self.view
        know = self.know
        rivals = []
        for index, seat in enumerate(self.opponents):
            known = faces_present(view.known[seat])
            discarded = 0 if self.light else know.records[seat].discarded
            rivals.append((1.0 if index == 0 else 0.45, known | self.pile_faces,
                           know.share(seat), discarded))
        return rivals

    def _meld_with(self, faces: int, face: int) -> int:
        """The points of the best meld of ``faces`` holding ``face`` (0 if none)."""
        key = faces << 6 | face
        found = self._melds_with.get(key)
        if found is None:
            if len(self._melds_with) >= MELDS_KEPT:
                self._melds_with.clear()
            found = 0
            for pieces in find_melds(faces, 0, 0, self.rules.min_run):
                if face in pieces:
                    found = max(found, meld_points(pieces, self.points))
            self._melds_with[key] = found
        return found


def suited(suit: int, rank: int) -> int:
    if rank == 14:
        rank = 1
    if not 1 <= rank <= 13:
        return -1
    return suit << 4 | rank


def _neighbours(face: int) -> tuple[tuple[int, int, int], int, list[tuple[int, int, int]]]:
    """The other faces of ``face``'s rank (and their bits), and the pairs of faces in its
    suit that make a run of three with it (each with the bits of the pair)."""
    rank, suit = face & 15, face >> 4
    same = [s << 4 | rank for s in range(4) if s != suit]
    pairs = []
    for a, b in ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2)):
        fa, fb = suited(suit, a), suited(suit, b)
        if fa >= 0 and fb >= 0:
            pairs.append((fa, fb, 1 << fa | 1 << fb))
    return (same[0], same[1], same[2]), sum(1 << f for f in same), pairs


NEIGHBOURS = [_neighbours(face) if 1 <= face & 15 <= 13 else ((0, 0, 0), 0, [])
              for face in range(64)]
"""Per natural face, what :meth:`Context.feed` looks at around it."""
