"""``expert``: a careful player's judgement, from its view alone.

Each decision weighs what every option leaves in hand (see
:mod:`~rummy500.bots.handeval`) against what it hands the other side:

- it counts every card seen (the fanned pile, the table, the cards others took
  from the pile) to know which cards are still live;
- it takes from the pile when the cards taken are worth more than a stock card,
  however deep, counting the cards it would have to carry;
- it lays down what it can, except a set of three whose fourth card it may still
  get when four at once score double (Persian), and it goes out only when that
  pays for its side;
- it discards the card whose loss costs it least and feeds the others least: not
  a card that lays off on the table, completes a meld with the pile or with what
  an opponent is known to hold, or likely fits an opponent's unknown cards;
- the closer an opponent is to going out (few cards, little stock), the more a
  card left in hand costs, and the more it sheds high cards.
"""

from __future__ import annotations

from ..cards import JOKER, JOKER_MASK, face_of, faces_present
from ..errors import NotYourTurnError
from ..kinds import Phase
from ..melds import DECLARED, RUN, find_melds
from ..moves import DISCARD, DRAW, END, LAYOFF, MELD, PASS, TAKE, Move
from ..scoring import points_for
from ..table import pick_cards
from ..turn_rules import can_still_use, take_must_be_used
from ..view import PlayerView
from .base import Bot, Decision
from .context import Context
from .face_shapes import makes_meld, neighbourhood, outs
from .simple import best_claim, layoff_points, meld_points, taken_cards

DECISIONS_KEPT = 1_024
"""The most views whose decision a light expert keeps, the latest: more than the playouts
of one search of 32 sampled deals decide (about 500)."""


class ExpertBot(Bot):
    """The expert; ``light`` skips the costlier reckoning (for playouts in search)."""

    name = "expert"

    def __init__(self, seed: int | None = None, time_budget: float = 1.0, *,
                 light: bool = False) -> None:
        super().__init__(seed, time_budget)
        self.light = light
        self._decided: dict[tuple[int, int, int, tuple[int, ...], tuple[int, ...],
                                  tuple[int, ...]], tuple[PlayerView, Decision]] = {}
        """A light expert's latest decisions, by a few facts of the view (the view itself
        is compared): a search meets the same view again (the searching seat's turn after
        a take from the pile is the same in every sampled deal), and a decision depends
        on the view alone."""

    def decide(self, view: PlayerView) -> Decision:
        if not self.light:
            return self._decide(view)
        decided = self._decided
        key = (view.hand, view.seat, len(view.history), view.pile, view.known, view.credit)
        found = decided.get(key)
        if found is not None and found[0] == view:
            return found[1]
        decision = self._decide(view)
        if len(decided) >= DECISIONS_KEPT:
            del decided[next(iter(decided))]
        decided[key] = (view, decision)
        return decision

    def _decide(self, view: PlayerView) -> Decision:
        moves = view.legal_moves()
        if not moves:
            raise NotYourTurnError("there is no legal move: it is not this seat's move")
        if len(moves) == 1:
            return Decision(moves[0], "the only legal move")
        if view.phase == Phase.RUMMY:
            return self._claim(view, moves)
        ctx = Context(view, self.light)
        if view.phase == Phase.DRAW:
            return self.draw_decision(ctx, moves)
        return self.play_decision(ctx, moves)

    # -- rummy calls ---------------------------------------------------------------------------

    def _claim(self, view: PlayerView, moves: list[Move]) -> Decision:
        best = best_claim(view, moves, points_for(view.rules))
        if best is None:
            return Decision(Move(PASS), "no claim is worth making")
        return Decision(best[1], f"claims {best[0]} free points from the pile")

    # -- drawing -------------------------------------------------------------------------------

    def draw_options(self, ctx: Context, moves: list[Move]) -> list[tuple[float, Move, str]]:
        """Each draw-phase move with its value to this seat, best first."""
        view = ctx.view
        hand = view.hand
        scored: list[tuple[float, Move, str]] = []
        for move in moves:
            if move.kind == DRAW:
                scored.append((self.stock_value(ctx), move, "nothing in the pile pays "
                               "better than a card from the stock"))
            elif move.kind == END:
                scored.append((ctx.evaluator.value(hand), move,
                               "nothing in the pile pays for taking it"))
            elif move.kind == TAKE:
                bottom, taken = taken_cards(view.pile, move)
                index = len(view.pile) - taken.bit_count()
                must = take_must_be_used(view.rules, len(view.pile), index, view.stock_count)
                value, laid = self.take_value(ctx, hand | taken, bottom if must else -1)
                count = taken.bit_count()
                why = (f"taking {count} card{'s' if count > 1 else ''} from the pile "
                       f"puts {laid} points down" if laid else
                       "the card on top of the pile fits the hand")
                scored.append((value, move, why))
        scored.sort(key=lambda item: -item[0])
        return scored

    def draw_decision(self, ctx: Context, moves: list[Move]) -> Decision:
        _, move, why = self.draw_options(ctx, moves)[0]
        return Decision(move, why)

    def stock_value(self, ctx: Context) -> float:
        """The expected worth of the hand after a stock card and the best discard."""
        evaluator = ctx.evaluator
        hand = ctx.view.hand
        base, melds = evaluator.plan(hand)
        left = _without(hand, melds)
        left_value = evaluator.leftover(left)
        melded = base - left_value
        gain_now = self._best_discard_gain(ctx, left)
        know = ctx.know
        pool = know.pool
        if not pool:
            return base
        expected = 0.0
        hand_faces = faces_present(hand)
        if ctx.light:
            near = outs(faces_present(left)) | ctx.table_fits
        else:
            near = neighbourhood(faces_present(left)) | ctx.table_fits
        full_search = ctx.rules.min_run != 3
        live = know.live
        rank_value = evaluator.rank_value
        stuck = ctx.stuck
        leftover_with = evaluator.leftover_with
        for face in range(64):
            copies = live[face]
            if not copies:
                continue
            if face == JOKER:
                with_card = evaluator.value(hand | 1 << _free_joker(hand))
            elif full_search or (not ctx.light and makes_meld(face, hand_faces)):
                card = face if not hand >> face & 1 else face + 64
                with_card = evaluator.value(hand | 1 << card)
            elif near >> face & 1:
                card = face if not hand >> face & 1 else face + 64
                with_card = melded + leftover_with(left, card)
            else:
                with_card = base - stuck * rank_value[face & 15]
            gain = with_card - base + gain_now
            if gain > 0.0:  # else it adds nothing: max(0.0, gain) is 0
                expected += copies * gain
        return base + expected / pool

    def _best_discard_gain(self, ctx: Context, left: int) -> float:
        """How much the best discard from ``left`` (cards outside melds) improves it."""
        evaluator = ctx.evaluator
        if not left:
            return 0.0
        feed = ctx.feed
        base = evaluator.leftover(left)
        best = -1e9
        for card, value in evaluator.leftovers_without(left):
            gain = value - base - feed(JOKER if card & 15 == 15 else card & 63)
            if gain > best:
                best = gain
        return best

    def take_value(self, ctx: Context, cards: int, must: int) -> tuple[float, int]:
        """The worth of holding ``cards`` after a take (using ``must``) and the best discard."""
        evaluator = ctx.evaluator
        melds = self.plan_using(ctx, cards, must)
        if melds is None:
            return -1e9, 0
        left = cards
        laid = 0
        for pieces in melds:
            picked = pick_cards(left, pieces, must)
            assert picked is not None
            for card in picked:
                left &= ~(1 << card)
            laid += meld_points(pieces, ctx.points)
        value = laid + evaluator.leftover(left)
        if left:
            base = evaluator.leftover(left)
            best = -1e9
            for card, rest_value in evaluator.leftovers_without(left):
                if card == must:
                    continue
                gain = rest_value - base - ctx.feed(face_of(card))
                if left == 1 << card:
                    gain += ctx.going_out_value()
                if gain > best:
                    best = gain
            if best > -1e9:
                value += best
        elif not ctx.rules.discard_to_go_out:
            value += ctx.going_out_value()
        return value, laid

    def plan_using(self, ctx: Context, cards: int, must: int) -> list[tuple[int, ...]] | None:
        """The best melds of ``cards``, one of them holding ``must`` when it cannot lay off."""
        evaluator = ctx.evaluator
        if must < 0:
            return evaluator.plan(cards)[1]
        face = face_of(must)
        if face != JOKER and ctx.table_fits >> face & 1:
            return evaluator.plan(cards)[1]
        best: tuple[float, list[tuple[int, ...]]] | None = None
        jokers = (cards & JOKER_MASK).bit_count()
        wild = jokers if ctx.rules.jokers == "wild" else 0
        persian = jokers if ctx.rules.jokers == "persian" else 0
        for pieces in find_melds(faces_present(cards), wild, persian, ctx.rules.min_run):
            if face not in pieces:
                continue
            picked = pick_cards(cards, pieces, must)
            if picked is None or must not in picked:
                continue
            rest = cards
            for card in picked:
                rest &= ~(1 << card)
            score, others = evaluator.plan(rest)
            score += meld_points(pieces, ctx.points)
            if best is None or score > best[0]:
                best = (score, [pieces, *others])
        if best is not None:
            return best[1]
        if can_still_use(ctx.rules, must, cards, list(ctx.view.melds)):
            return evaluator.plan(cards)[1]
        return None

    # -- melding, laying off, discarding --------------------------------------------------------

    def play_decision(self, ctx: Context, moves: list[Move]) -> Decision:
        view = ctx.view
        legal = set(moves)
        melds, holding = self._play_plan(ctx)
        for pieces in melds:
            if pieces in holding:
                continue
            move = Move(MELD, pieces)
            if move in legal:
                pts = meld_points(pieces, ctx.points)
                return Decision(move, f"lays down a meld worth {pts} points")
        joker_meld = self._joker_meld(ctx, moves)
        if joker_meld is not None:
            return joker_meld
        layoff = self._layoff(ctx, moves, holding)
        if layoff is not None:
            return layoff
        if view.must_use >= 0:
            return self._fallback_use(ctx, moves)
        options = self.discard_options(ctx, moves, holding)
        if not options:
            return Decision(moves[0], "the only move left")
        _, move, why = options[0]
        return Decision(move, why)

    def _joker_meld(self, ctx: Context, moves: list[Move]) -> Decision | None:
        """With wild jokers: the meld using a joker that the hand is best without."""
        hand = ctx.view.hand
        if ctx.rules.jokers != "wild" or not hand & JOKER_MASK:
            return None
        evaluator = ctx.evaluator
        base = evaluator.value(hand)
        best: tuple[float, Move] | None = None
        for move in moves:
            if move.kind != MELD or all(p < DECLARED for p in move.pieces):
                continue
            picked = pick_cards(hand, move.pieces)
            if picked is None:
                continue
            rest = hand
            for card in picked:
                rest &= ~(1 << card)
            value = meld_points(move.pieces, ctx.points) + evaluator.value(rest)
            if value > base - 0.5 and (best is None or value > best[0]):
                best = (value, move)
        if best is None:
            return None
        return Decision(best[1], "a joker makes a meld of a pair")

    def _play_plan(self, ctx: Context) -> tuple[list[tuple[int, ...]], set[tuple[int, ...]]]:
        """The melds to lay down this turn, and those to keep back."""
        view = ctx.view
        hand = view.hand
        melds = self.plan_using(ctx, hand, view.must_use) or []
        holding = self._holds(ctx, melds) if view.must_use < 0 else set()
        if melds and self._can_go_out(ctx, hand, melds) and not self._wants_out(ctx):
            holding.add(melds[0])
        return melds, holding

    def _can_go_out(self, ctx: Context, hand: int, melds: list[tuple[int, ...]]) -> bool:
        left = hand
        for pieces in melds:
            picked = pick_cards(left, pieces)
            if picked is not None:
                for card in picked:
                    left &= ~(1 << card)
        laid, _ = ctx.evaluator.layoffs(left & ~JOKER_MASK)
        left &= ~laid
        if ctx.rules.jokers == "wild" and ctx.evaluator.any_fits:
            left &= ~JOKER_MASK
        return left.bit_count() <= 1

    def _wants_out(self, ctx: Context) -> bool:
        """Whether ending the deal now is good for this seat's side (always, alone)."""
        if not ctx.partners:
            return True
        return ctx.going_out_value() > -10.0 or ctx.draws < 2.0

    def _holds(self, ctx: Context, melds: list[tuple[int, ...]]) -> set[tuple[int, ...]]:
        """Sets of three kept back one more turn for a fourth card that would double them.

        Held while the chance of the fourth card by the next turn, times the points the
        doubling adds, beats the chance the deal ends first, times the swing of being
        caught with the three in hand.
        """
        if not ctx.points.doubles:
            return set()
        held: set[tuple[int, ...]] = set()
        live = ctx.know.live
        pool = max(1, ctx.know.pool)
        hazard = ctx.hazard()
        for pieces in melds:
            if len(pieces) != 3 or any(p >= DECLARED for p in pieces):
                continue
            ranks = {p & 15 for p in pieces}
            if len(ranks) != 1:
                continue
            if pieces[0] == JOKER:
                copies = live[JOKER]
                value = ctx.points.joker
            else:
                rank = ranks.pop()
                copies = sum(live[s << 4 | rank] for s in range(4) if (s << 4 | rank) not in pieces)
                value = ctx.evaluator.rank_value[rank]
            chance = min(1.0, 1.3 * copies / pool)
            if chance * 4 * value > hazard * 2 * 3 * value:
                held.add(pieces)
        return held

    def _layoff(self, ctx: Context, moves: list[Move], holding: set[tuple[int, ...]]
                ) -> Decision | None:
        """The most valuable lay-off, keeping back held sets (and, early, wild jokers)."""
        view = ctx.view
        reserved = 0
        for pieces in holding:
            picked = pick_cards(view.hand, pieces)
            if picked is not None:
                for card in picked:
                    reserved |= 1 << card
        best: tuple[float, Move] | None = None
        for move in moves:
            if move.kind != LAYOFF:
                continue
            piece = move.pieces[0]
            meld = view.melds[move.meld - 1]
            if piece >= DECLARED:
                if not self._lay_joker(ctx):
                    continue
            elif piece == JOKER:
                pass
            else:
                picked = pick_cards(view.hand & ~reserved, (piece,))
                if picked is None:
                    continue
            value = float(layoff_points(piece, meld, ctx.points))
            if meld.kind == RUN and piece < DECLARED:
                value += 0.5  # runs first: they may open a chain
            if best is None or value > best[0]:
                best = (value, move)
        if best is None:
            return None
        return Decision(best[1], "lays off a card that fits the table")

    def _lay_joker(self, ctx: Context) -> bool:
        """A wild joker goes on the table when nothing in hand needs it more."""
        view = ctx.view
        natural = view.hand & ~JOKER_MASK
        if not natural or natural.bit_count() <= 1:
            return True
        # keep it while a pair in hand could use it next turn, early in the deal
        return ctx.stuck > 0.6

    def _fallback_use(self, ctx: Context, moves: list[Move]) -> Decision:
        must_face = face_of(ctx.view.must_use)
        for move in moves:
            faces = [JOKER if p >= DECLARED else p for p in move.pieces]
            if must_face in faces:
                return Decision(move, "uses the card it took from the pile")
        return Decision(moves[0], "keeps a way to use the card it took from the pile")

    def holding_discards(self, ctx: Context, moves: list[Move]
                         ) -> list[tuple[float, Move, str]]:
        """Each legal discard with its value, best first, with every meld it would lay
        down this turn kept in hand instead (what a search weighs against melding)."""
        melds, holding = self._play_plan(ctx)
        return self.discard_options(ctx, moves, set(melds) | holding)

    def discard_options(self, ctx: Context, moves: list[Move],
                        holding: set[tuple[int, ...]] | None = None,
                        ) -> list[tuple[float, Move, str]]:
        """Each legal discard with its value to this seat, best first."""
        if holding is None:
            holding = self._play_plan(ctx)[1]
        view = ctx.view
        hand = view.hand
        evaluator = ctx.evaluator
        reserved = 0
        for pieces in holding:
            picked = pick_cards(hand, pieces)
            if picked is not None:
                for card in picked:
                    reserved |= 1 << card
        left = hand & ~reserved
        held_value = sum(meld_points(p, ctx.points) for p in holding)
        scored: list[tuple[float, Move, str]] = []
        # with no meld in hand, no hand after a discard has one: each is valued as leftovers
        without = (dict(evaluator.leftovers_without(hand))
                   if not reserved and not evaluator.has_melds(hand) else None)
        for move in moves:
            if move.kind != DISCARD:
                continue
            face = move.pieces[0]
            if face & 15 != 15 and left >> face & 1:
                card = face  # what pick_cards gives for a natural card held: its first copy
            else:
                picked = pick_cards(left, (face,)) or pick_cards(hand, (face,))
                assert picked is not None
                card = picked[0]
            rest = hand & ~(1 << card)
            if without is not None:
                value = without[card]
            elif reserved and not reserved >> card & 1:
                value = held_value + evaluator.value(rest & ~reserved)
            else:
                value = evaluator.value(rest)
            feed = ctx.feed(face)
            value -= feed
            if not rest:
                value += ctx.going_out_value()
                why = "goes out"
            elif ctx.table_fits >> face & 1:
                why = "every other card is worth more to keep"
            elif feed < 1.0:
                why = "a card nobody seems to collect and that it cannot use"
            else:
                why = "the card it can best spare"
            scored.append((value, move, why))
        scored.sort(key=lambda item: -item[0])
        return scored


def _without(cards: int, melds: list[tuple[int, ...]]) -> int:
    """``cards`` less the cards of ``melds``."""
    for pieces in melds:
        picked = pick_cards(cards, pieces)
        if picked is not None:
            for card in picked:
                cards &= ~(1 << card)
    return cards


def _free_joker(hand: int) -> int:
    for copy in (0, 64):
        for j in range(4):
            card = copy + j * 16 + 15
            if not hand >> card & 1:
                return card
    return 15
