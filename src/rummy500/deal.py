"""One deal of 500 Rum: the state machine from the deal to its end, with push/pop undo."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from .cards import (
    JOKER,
    JOKER_MASK,
    CardError,
    face_of,
    face_pretty,
    face_str,
    iter_bits,
    make_pack,
    parse_face,
    sort_key,
)
from .errors import IllegalMoveError as IllegalMoveError
from .errors import NotNowError, PositionError
from .errors import RecordError as RecordError
from .kinds import DealEnd, Phase
from .legal import (
    DRAW_PHASE,
    OVER,
    PLAY_PHASE,
    RUMMY_PHASE,
    Position,
    claims,
    legal_moves,
    take_must_be_used,
    taken_face,
    why_illegal,
)
from .melds import (
    RUN,
    Meld,
    MeldError,
    MeldShape,
    TableCard,
    classify,
    compute_fits,
    is_joker_piece,
    piece_face,
)
from .moves import (
    DISCARD,
    DRAW,
    END,
    LAYOFF,
    MELD,
    PASS,
    RUMMY_LAYOFF,
    RUMMY_MELD,
    TAKE,
    Move,
    parse_move,
    parse_piece,
)
from .rules import Rules
from .scoring import Points, points_for
from .table import lay_off, new_meld, pick_cards, pick_from_pile

_PHASES = {str(phase): phase for phase in (DRAW_PHASE, PLAY_PHASE, RUMMY_PHASE, OVER)}

IDLE_TURNS_PER_PLAYER = 10
"""A deal ends when this many rounds of turns pass with no card drawn from the stock
and none put on the table (a project decision: see docs/rules-decisions.md)."""


class DealResult(NamedTuple):
    went_out: int | None
    """The seat that went out, or None."""
    ended_by: str
    """'went out', 'stock' (the stock ran out), 'declined' (end with an empty stock),
    or 'idle' (no progress for too long)."""
    melded: tuple[int, ...]
    """Points each player has on the table."""
    in_hand: tuple[int, ...]
    """Points each player holds at the end."""
    scores: tuple[int, ...]
    """The deal's score for each side (each player, outside a partnership)."""


class _Snapshot(NamedTuple):
    hands: list[int]
    pile: list[int]
    stock: list[int]
    melds: list[Meld]
    credit: list[int]
    known: list[int]
    turn: int
    phase: Phase
    must_use: int
    went_out: int | None
    ended_by: str
    idle_turns: int
    progress: bool
    restocks: int
    discarder: int
    passed: list[int]
    moves: int
    orders: int
    """How many restock orders there were (a reshuffle adds one)."""
    rng_state: tuple[object, ...] | None
    """The random source's state, kept when the move may reshuffle the pile."""


class Deal:
    """One deal: its cards, whose move it is, and every rule of play."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        deck: Sequence[int],
        restock: Sequence[Sequence[int]] = (),
        rng: random.Random | None = None,
    ) -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.deck = tuple(deck)
        self.points = points_for(rules)
        self.rng = rng
        self.restock_orders: list[list[int]] = [list(order) for order in restock]
        dealt = rules.cards_dealt(players)
        hands = [0] * players
        for i in range(dealt * players):
            hands[(dealer + 1 + i) % players] |= 1 << deck[i]
        self.hands = hands
        self.pile = [deck[dealt * players]]
        self.stock = list(reversed(deck[dealt * players + 1:]))
        self.melds: list[Meld] = []
        self.credit = [0] * players
        self.known = [0] * players
        self.turn = (dealer + 1) % players
        self.phase = DRAW_PHASE
        self.must_use = -1
        self.went_out: int | None = None
        self.ended_by = ""
        self.idle_turns = 0
        self.progress = False
        self.restocks = 0
        self.discarder = -1
        self.passed = [0] * players
        self.moves: list[Move] = []
        self.movers: list[int] = []
        self._stack: list[_Snapshot] = []

    # -- setting up a position ------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        players: int,
        *,
        dealer: int,
        hands: Sequence[int],
        pile: Sequence[int],
        stock: Sequence[int],
        melds: Sequence[Meld] = (),
        known: Sequence[int] | None = None,
        turn: int | None = None,
        phase: str = DRAW_PHASE,
        must_use: int = -1,
        discarder: int = -1,
        idle_turns: int = 0,
        progress: bool = False,
        restocks: int = 0,
        passed: Sequence[int] | None = None,
        moves: Sequence[Move] = (),
        movers: Sequence[int] = (),
        went_out: int | None = None,
        ended_by: str = "",
        deck: Sequence[int] = (),
        restock: Sequence[Sequence[int]] = (),
        rng: random.Random | None = None,
    ) -> Deal:
        """A deal in any position, from physical cards (see :mod:`rummy500.cards`).

        ``hands`` are bitsets per seat; ``pile`` is bottom first and ``stock`` as
        :attr:`stock` keeps it, top *last*; ``melds`` are numbered m1, m2, … in order,
        each card credited to the seat that laid it (the credit follows from them).
        ``known`` gives per seat the cards it took from the pile and still holds,
        ``passed`` per seat the faces (bits) it left on top of the pile to draw from the
        stock. ``turn`` is the seat to move (the dealer's left by default); ``discarder``
        the seat that discarded last, which a rummy call may not come from.
        ``moves`` and ``movers`` are the history that led here, if any, and who made each
        move; ``deck`` the pack order that dealt it, if it was dealt (a record needs it).
        ``restock`` and ``rng`` order the stock when the pile is reshuffled (see
        :meth:`set_restocks`). A position that cannot arise raises
        :class:`~rummy500.errors.PositionError`.
        """
        rules.check_players(players)
        deal = object.__new__(cls)
        deal.rules = rules
        deal.players = players
        deal.dealer = dealer
        deal.deck = tuple(deck)
        deal.points = points_for(rules)
        deal.rng = rng
        deal.restock_orders = [list(order) for order in restock]
        deal.hands = list(hands)
        deal.pile = list(pile)
        deal.stock = list(stock)
        deal.melds = list(melds)
        credit = [0] * players
        for meld in deal.melds:
            for table_card in meld.cards:
                if 0 <= table_card.seat < players:
                    credit[table_card.seat] += table_card.points
        deal.credit = credit
        deal.known = list(known) if known is not None else [0] * players
        deal.turn = (dealer + 1) % players if turn is None else turn
        if phase not in _PHASES:
            raise PositionError(f"the phase is draw, play, rummy or over, not {phase!r}")
        deal.phase = _PHASES[phase]
        deal.must_use = must_use
        deal.went_out = went_out
        deal.ended_by = ended_by
        deal.idle_turns = idle_turns
        deal.progress = progress
        deal.restocks = restocks
        deal.discarder = discarder
        deal.passed = list(passed) if passed is not None else [0] * players
        deal.moves = list(moves)
        deal.movers = list(movers)
        deal._stack = []
        deal._check_position()
        return deal

    def _check_position(self) -> None:
        """Raise PositionError unless this position can arise in a deal."""
        players = self.players
        seats = range(players)

        def need(ok: bool, why: str) -> None:
            if not ok:
                raise PositionError(f"not a position of a deal: {why}")

        need(self.dealer in seats, f"the dealer must be a seat from 0 to {players - 1}")
        need(self.turn in seats, f"the seat to move must be a seat from 0 to {players - 1}")
        need(len(self.hands) == players and len(self.known) == players
             and len(self.passed) == players, f"hands, known and passed are per seat: {players}")
        pack = sorted(make_pack(self.rules.deck_count(players), self.rules.jokers_in_each_deck))
        need(sorted(self.all_cards()) == pack,
             "the hands, pile, stock and table must hold every card of the pack once")
        for seat in seats:
            need(self.known[seat] & ~self.hands[seat] == 0,
                 f"seat {seat} is known to hold a card it does not hold")
        for number, meld in enumerate(self.melds, 1):
            need(meld.number == number, f"the melds are numbered m1, m2, … in order ({meld.name})")
            need(all(c.seat in seats for c in meld.cards), f"{meld.name} was laid by no seat")
        if self.must_use >= 0:
            need(self.phase == PLAY_PHASE and self.known[self.turn] >> self.must_use & 1 == 1,
                 "a card to be used must be one the player to move took from the pile")
        need(self.discarder == -1 or self.discarder in seats, "the discarder is not a seat")
        if self.phase == RUMMY_PHASE:
            need(self.discarder >= 0 and self.turn != self.discarder,
                 "a rummy call comes from a player other than the discarder")
        if self.phase == OVER:
            need(self.ended_by in ENDINGS, f"a deal ends by one of {', '.join(ENDINGS)}")
            need((self.went_out is not None) == (self.ended_by == "went out")
                 and (self.went_out is None or self.went_out in seats),
                 "a deal ended by going out names the seat that went out")
        else:
            need(self.ended_by == "" and self.went_out is None, "a deal in play has not ended")
        need(self.idle_turns >= 0 and self.restocks >= 0, "counts cannot be negative")
        need(len(self.movers) == len(self.moves), "the history names who made each move")

    def rearranged(self, hands: Sequence[int], stock: Sequence[int]) -> Deal:
        """This position with the same cards laid out otherwise in the hands and the stock
        (top last): every public fact stays, and each seat still holds its known cards."""
        return Deal.from_position(
            self.rules, self.players, dealer=self.dealer, hands=hands, pile=self.pile,
            stock=stock, melds=self.melds, known=self.known, turn=self.turn, phase=self.phase,
            must_use=self.must_use, discarder=self.discarder, idle_turns=self.idle_turns,
            progress=self.progress, restocks=self.restocks, passed=self.passed,
            moves=self.moves, movers=self.movers, went_out=self.went_out,
            ended_by=self.ended_by, restock=self.restock_orders, rng=self.rng)

    def bring_to_top(self, card: int) -> None:
        """Put ``card``, which must be in the stock, on top of it, in the place of the card
        there (for a chance node that chooses the card drawn)."""
        stock = self.stock
        try:
            index = stock.index(card)
        except ValueError:
            raise PositionError("that card is not in the stock") from None
        stock[index], stock[-1] = stock[-1], stock[index]

    def set_restocks(
        self, orders: Sequence[Sequence[int]] = (), rng: random.Random | None = None
    ) -> None:
        """How the stock is made again from now on (``stock_exhausted = "reshuffle"``): the
        next reshuffles take ``orders`` (cards or faces, top first), and any after them
        shuffle with ``rng``; with no ``rng`` a reshuffle past the orders is a
        :class:`RecordError` (a replay must never invent one)."""
        pending = [list(order) for order in orders]
        del self.restock_orders[self.restocks:]
        self.restock_orders.extend(pending)
        self.rng = rng

    # -- what a player sees -------------------------------------------------

    def position(self) -> Position:
        """What the player to move sees that decides what it may do."""
        seat = self.turn
        no_discard = -1
        if not self.rules.discard_taken_card and self.phase == PLAY_PHASE:
            no_discard = taken_face(self.rules, self.moves, self.known[seat], self.hands[seat])
        return Position(self.rules, self.phase, self.hands[seat], self.pile, self.melds,
                        len(self.stock), self.must_use, no_discard)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def legal_moves(self) -> list[Move]:
        return legal_moves(self.position())

    def why_illegal(self, move: Move | str) -> str | None:
        """None if the move is legal now, else the reason in a player's words."""
        if isinstance(move, str):
            move = parse_move(move)
        return why_illegal(self.position(), move)

    def is_legal(self, move: Move | str) -> bool:
        return self.why_illegal(move) is None

    def verify(self, move: Move | str) -> Move:
        """The move, parsed; raises :class:`IllegalMoveError` with the reason if illegal."""
        if isinstance(move, str):
            move = parse_move(move)
        reason = why_illegal(self.position(), move)
        if reason is not None:
            raise IllegalMoveError(reason)
        return move

    # -- making moves ----------------------------------------------------------

    def play(self, move: Move | str, *, check: bool = True) -> None:
        """Make a move (checked unless ``check`` is false: for moves from :meth:`legal_moves`)."""
        if check or isinstance(move, str):
            move = self.verify(move)
        self._apply(move)

    def push(self, move: Move | str, *, check: bool = True) -> None:
        """Make a move that :meth:`pop` can take back."""
        if check or isinstance(move, str):
            move = self.verify(move)
        self._stack.append(self._snapshot())
        self._apply(move)

    def pop(self) -> Move:
        """Go back to the state before the last :meth:`push` and return the move it made."""
        snap = self._stack.pop()
        move = self.moves[snap.moves]
        self._restore(snap)
        return move

    def copy(self) -> Deal:
        """An independent copy of the position (no undo stack), cheap enough for search."""
        twin = object.__new__(Deal)
        twin.__dict__.update(self.__dict__)
        twin._restore(self._snapshot())
        twin.moves = list(self.moves)
        twin.movers = list(self.movers)
        twin.restock_orders = [list(order) for order in self.restock_orders]
        twin._stack = []
        if self.rng is not None and self.rules.stock_exhausted == "reshuffle":
            twin.rng = random.Random()
            twin.rng.setstate(self.rng.getstate())  # a search must not move the game's shuffles
        return twin

    def _snapshot(self) -> _Snapshot:
        may_reshuffle = (not self.stock and self.rng is not None
                         and self.rules.stock_exhausted == "reshuffle")
        return _Snapshot(list(self.hands), list(self.pile), list(self.stock), list(self.melds),
                         list(self.credit), list(self.known), self.turn, self.phase,
                         self.must_use, self.went_out, self.ended_by, self.idle_turns,
                         self.progress, self.restocks, self.discarder, list(self.passed),
                         len(self.moves),
                         len(self.restock_orders),
                         self.rng.getstate() if may_reshuffle and self.rng else None)

    def _restore(self, snap: _Snapshot) -> None:
        (self.hands, self.pile, self.stock, self.melds, self.credit, self.known, self.turn,
         self.phase, self.must_use, self.went_out, self.ended_by, self.idle_turns,
         self.progress, self.restocks, self.discarder, self.passed, count, orders,
         rng_state) = snap
        del self.moves[count:]
        del self.movers[count:]
        del self.restock_orders[orders:]
        if rng_state is not None and self.rng is not None:
            self.rng.setstate(rng_state)

    def _apply(self, move: Move) -> None:
        self.moves.append(move)
        seat = self.turn
        self.movers.append(seat)
        kind = move.kind
        if kind == DISCARD:
            chosen = pick_cards(self.hands[seat], move.pieces)
            assert chosen is not None
            self._remove(seat, chosen[0])
            self.pile.append(chosen[0])
            if not self.hands[seat]:
                self._finish(DealEnd.WENT_OUT, seat)
            else:
                self._end_turn()
        elif kind == DRAW:
            if self.pile:  # the top card is left there, in view of everyone
                top = self.pile[-1]
                self.passed[seat] |= 1 << (JOKER if top & 15 == 15 else top & 63)
            card = self.stock.pop()
            self.hands[seat] |= 1 << card
            self.progress = True
            self.phase = PLAY_PHASE
        elif kind in (MELD, LAYOFF):
            self._lay(seat, move)
            if not self.hands[seat]:
                self._finish(DealEnd.WENT_OUT, seat)
        elif kind == TAKE:
            self._take(seat, move.pieces[0])
        elif kind in (RUMMY_MELD, RUMMY_LAYOFF):
            self._claim(seat, move)
        elif kind == PASS:
            self._ask_claims(seat + 1)
        elif kind == END:
            self._finish(DealEnd.DECLINED, None)
        else:  # pragma: no cover - parse_move admits no other kind
            raise IllegalMoveError(f"unknown move {move}")

    def _remove(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        if card == self.must_use:
            self.must_use = -1
        known = self.known[seat]
        if known:
            # Nobody sees which copy of a face leaves a hand: a known copy goes first, so
            # that ``known`` never tells of a second copy drawn unseen from the stock.
            if not known >> card & 1:
                twins = known & (JOKER_MASK if card & 15 == 15 else 1 << (card ^ 64))
                if twins:
                    card = (twins & -twins).bit_length() - 1
            self.known[seat] = known & ~(1 << card)

    def _take(self, seat: int, face: int) -> None:
        pile = self.pile
        index = len(pile) - 1
        while face_of(pile[index]) != face:
            index -= 1
        if take_must_be_used(self.rules, len(pile), index, len(self.stock)):
            self.must_use = pile[index]
        taken = 0
        for card in pile[index:]:
            taken |= 1 << card
        del pile[index:]
        self.hands[seat] |= taken
        self.known[seat] |= taken
        self.phase = PLAY_PHASE

    def _lay(self, seat: int, move: Move) -> None:
        cards = pick_cards(self.hands[seat], move.pieces, self.must_use)
        assert cards is not None
        for card in cards:
            self._remove(seat, card)
        self._put_on_table(seat, move, cards)

    def _put_on_table(self, seat: int, move: Move, cards: list[int]) -> None:
        if move.kind in (MELD, RUMMY_MELD):
            shape = classify(move.pieces, self.rules)
            meld, credit = new_meld(len(self.melds) + 1, shape, cards, seat, self.points)
            self.melds.append(meld)
        else:
            index = move.meld - 1
            meld, credit = lay_off(self.melds[index], move.pieces[0], cards[0], seat,
                                   self.points)
            self.melds[index] = meld
        self.credit[seat] += credit
        self.progress = True

    def _claim(self, seat: int, move: Move) -> None:
        indices = pick_from_pile(self.pile, move.pieces)
        assert indices is not None
        cards = [self.pile[i] for i in indices]
        for index in sorted(indices, reverse=True):
            del self.pile[index]
        self._put_on_table(seat, move, cards)
        self._ask_claims(seat)

    def _end_turn(self) -> None:
        if self.progress:
            self.idle_turns = 0
        else:
            self.idle_turns += 1
        self.progress = False
        policy = self.rules.stock_exhausted
        if not self.stock and (policy == "end" or (policy == "reshuffle" and self.restocks)):
            self._finish(DealEnd.STOCK, None)
            return
        if self.idle_turns >= IDLE_TURNS_PER_PLAYER * self.players:
            self._finish(DealEnd.IDLE, None)
            return
        self.discarder = self.turn
        if self.rules.rummy_calls:
            self._ask_claims(self.turn + 1)
        else:
            self._begin_turn((self.turn + 1) % self.players)

    def _ask_claims(self, seat: int) -> None:
        """Ask the next player from ``seat`` on (not the discarder) who has a claim."""
        seat %= self.players
        if seat != self.discarder and claims(self.rules, self.pile, self.melds):
            self.turn = seat
            self.phase = RUMMY_PHASE
            return
        self._begin_turn((self.discarder + 1) % self.players)

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = DRAW_PHASE
        if not self.stock and self.rules.stock_exhausted == "reshuffle":
            if len(self.pile) < 2:
                self._finish(DealEnd.STOCK, None)
            else:
                self._reshuffle()

    def _reshuffle(self) -> None:
        cards = self.pile[:-1]
        if self.restocks < len(self.restock_orders):
            order = self._cards_for_faces(self.restock_orders[self.restocks], cards)
        else:
            if self.rng is None:
                raise RecordError("the stock ran out and the record gives no restock order")
            order = list(cards)
            self.rng.shuffle(order)
            self.restock_orders.append(order)
        self.pile = self.pile[-1:]
        self.stock = list(reversed(order))
        self.restocks += 1

    @staticmethod
    def _cards_for_faces(order: list[int], cards: list[int]) -> list[int]:
        """The given restock order (cards or faces) matched to the pile's physical cards."""
        left = list(cards)
        matched = []
        for wanted in order:
            for i, card in enumerate(left):
                if card == wanted:
                    matched.append(left.pop(i))
                    break
            else:
                for i, card in enumerate(left):
                    if face_of(card) == face_of(wanted):
                        matched.append(left.pop(i))
                        break
                else:
                    raise RecordError(
                        f"the restock order names {face_pretty(face_of(wanted))}, which is "
                        "not in the pile being reshuffled"
                    )
        if left:
            raise RecordError(
                f"the restock order leaves out {len(left)} card(s) of the pile being reshuffled"
            )
        return matched

    def _finish(self, ended_by: DealEnd, went_out: int | None) -> None:
        self.phase = OVER
        self.ended_by = ended_by
        self.went_out = went_out
        self.must_use = -1

    # -- the end ---------------------------------------------------------------

    def result(self) -> DealResult:
        """Points on the table, in hand, and each side's score for the deal."""
        if self.phase != OVER:
            raise NotNowError("the deal is not over")
        rules = self.rules
        players = self.players
        in_hand = tuple(self.points.in_hand(hand) for hand in self.hands)
        melded = tuple(self.credit)
        sides = rules.sides(players)
        scores = [0] * sides
        for seat in range(players):
            side = rules.side_of(seat)
            scores[side] += melded[seat]
            if not rules.add_hand_to_winner:
                scores[side] -= in_hand[seat]
        if rules.add_hand_to_winner:
            if self.went_out is not None:
                winner = rules.side_of(self.went_out)
                scores[winner] += sum(
                    in_hand[s] for s in range(players) if rules.side_of(s) != winner
                )
            elif sides == 2:
                for seat in range(players):
                    scores[1 - rules.side_of(seat)] += in_hand[seat]
        if self.went_out is not None:
            scores[rules.side_of(self.went_out)] += self.points.going_out_bonus
        return DealResult(self.went_out, self.ended_by, melded, in_hand, tuple(scores))

    # -- checks and text -----------------------------------------------------------

    def all_cards(self) -> list[int]:
        """Every card of the deal, wherever it lies (each exactly once if all is well)."""
        cards = list(self.pile) + list(self.stock)
        for hand in self.hands:
            cards.extend(iter_bits(hand))
        for meld in self.melds:
            cards.extend(c.card for c in meld.cards)
        return cards

    def fen(self) -> str:
        """The position on one line, in notation faces; :meth:`from_fen` reads it back.

        ``seat 0 play | dealer 1 | hands 7h 7d … / … | known - / 7s | pile 8d Kc |
        stock Qs 3c … | table m1=0:7c,7d,7s,1:7h | must - | discarder 1 | idle 0 |
        progress no | restocks 0 | passed - / Kc``, then ``| ended …`` once the deal is
        over: the pile bottom first, the stock top first, ``-`` for nothing. A table card
        is written with the seat that laid it (``0:`` applies until another seat is
        named), a meld in the order its cards reached the table, ``x2`` after its name
        when its four of a kind counts double. Which pack a card came from is not part
        of the position: every card is written as its face.
        """
        def faces(cards: Sequence[int]) -> str:
            return " ".join(face_str(face_of(card)) for card in cards) or "-"

        def per_seat(bitsets: Sequence[int]) -> str:
            return " / ".join(faces(sorted(iter_bits(bits), key=sort_key)) for bits in bitsets)

        passed = [sum(1 << face_of(face) for face in iter_bits(bits)) for bits in self.passed]
        parts = [
            f"seat {self.turn} {self.phase}",
            f"dealer {self.dealer}",
            f"hands {per_seat(self.hands)}",
            f"known {per_seat(self.known)}",
            f"pile {faces(self.pile)}",
            f"stock {faces(self.stock[::-1])}",
            "table " + (" ".join(_meld_text(meld, self.points) for meld in self.melds) or "-"),
            "must " + (face_str(face_of(self.must_use)) if self.must_use >= 0 else "-"),
            "discarder " + (str(self.discarder) if self.discarder >= 0 else "-"),
            f"idle {self.idle_turns}",
            "progress " + ("yes" if self.progress else "no"),
            f"restocks {self.restocks}",
            f"passed {per_seat(passed)}",
        ]
        if self.phase == OVER:
            parts.append(f"ended went out by {self.went_out}" if self.went_out is not None
                         else f"ended {self.ended_by}")
        return " | ".join(parts)

    @classmethod
    def from_fen(cls, text: str, rules: Rules, *, rng: random.Random | None = None) -> Deal:
        """The deal in the position :meth:`fen` writes (``from_fen(d.fen()).fen() ==
        d.fen()``), with no history behind it.

        Written by hand, only ``seat``, ``hands`` and ``stock`` are needed (the dealer is
        then on the right of the seat to move, nothing is known or passed, no meld is on
        the table and the pile is empty), and a stock that ends in ``...`` goes on with
        every card not named anywhere, in pack order. The copies of a face are handed out
        first pack first. A text that is no position raises
        :class:`~rummy500.errors.PositionError`.
        """
        try:
            return _read_fen(text, rules, rng)
        except (CardError, MeldError, ValueError) as error:
            if isinstance(error, PositionError):
                raise
            raise PositionError(f"not a position: {error}") from None

    def __repr__(self) -> str:
        return f"<Deal {self.fen()}>"



ENDINGS = ("went out", "stock", "declined", "idle")
"""How a deal can end (:attr:`Deal.ended_by`)."""

_FEN_KEYS = ("dealer", "hands", "known", "pile", "stock", "table", "must", "discarder",
             "idle", "progress", "restocks", "passed", "ended")


def _meld_text(meld: Meld, points: Points) -> str:
    """A meld as :meth:`Deal.fen` writes it: ``m2=0:5h,*=6h,7h,1:8h``."""
    doubled = any(c.points != _table_points(points, meld, c.face, c.card, False)
                  for c in meld.cards)
    items = []
    seat = -1
    for table_card in meld.cards:
        face = table_card.face
        if face == JOKER:
            piece = "*"
        elif table_card.card & 15 == 15:
            piece = "*=" + face_str(face)
        else:
            piece = face_str(face)
        if table_card.seat != seat:
            seat = table_card.seat
            piece = f"{seat}:{piece}"
        items.append(piece)
    return f"{meld.name}{'x2' if doubled else ''}={','.join(items)}"


def _table_points(points: Points, meld: Meld | MeldShape, face: int, card: int,
                  doubled: bool) -> int:
    """What a card standing for ``face`` is worth in ``meld`` (doubled: a four of a kind)."""
    low_ace = meld.kind == RUN and face != JOKER and face & 15 == 1 and meld.lo == 1
    value = points.on_table(face, low_ace, joker=card & 15 == 15)
    return value * 2 if doubled else value


def _read_fen(text: str, rules: Rules, rng: random.Random | None) -> Deal:
    head, *rest = (part.strip() for part in text.strip().split("|"))
    words = head.split()
    if len(words) != 3 or words[0] != "seat" or words[2] not in _PHASES:
        raise PositionError("a position begins with the seat to move and the phase, "
                            "like 'seat 0 draw'")
    turn, phase = int(words[1]), words[2]
    sections: dict[str, str] = {}
    for part in rest:
        key, _, value = part.partition(" ")
        if key not in _FEN_KEYS or key in sections:
            raise PositionError(f"{key!r} is not a part of a position, or is there twice")
        sections[key] = value.strip()
    if "hands" not in sections:
        raise PositionError("a position needs the hands")
    hand_texts = [part.split() for part in sections["hands"].split("/")]
    players = len(hand_texts)
    rules.check_players(players)
    left = make_pack(rules.deck_count(players), rules.jokers_in_each_deck)

    def take(face: int) -> int:
        for index, card in enumerate(left):
            if face_of(card) == face:
                return left.pop(index)
        raise PositionError(f"the position holds more {face_str(face)} than the pack")

    def face_list(value: str) -> list[int]:
        return [] if value in ("", "-") else [parse_face(token) for token in value.split()]

    def seat_of(value: str) -> int:
        return -1 if value == "-" else int(value)

    def per_seat(key: str) -> list[list[int]]:
        value = sections.get(key)
        if value is None:
            return [[] for _ in range(players)]
        groups = [face_list(part.strip()) for part in value.split("/")]
        if len(groups) != players:
            raise PositionError(f"{key} names {len(groups)} seats, and {players} are playing")
        return groups

    hands = []
    for tokens in hand_texts:
        hand = 0
        for face in face_list(" ".join(tokens)):
            hand |= 1 << take(face)
        hands.append(hand)
    pile = [take(face) for face in face_list(sections.get("pile", "-"))]
    points = points_for(rules)
    melds = [_read_meld(token, number, rules, points, take)
             for number, token in enumerate(face_tokens(sections.get("table", "-")), 1)]
    stock_tokens = sections.get("stock", "...").split()
    fill = bool(stock_tokens) and stock_tokens[-1] == "..."
    stock = [take(face) for face in face_list(" ".join(t for t in stock_tokens if t != "..."))]
    if fill:
        stock += left
    known = []
    for seat, group in enumerate(per_seat("known")):
        bits = 0
        for face in group:
            free = [c for c in iter_bits(hands[seat] & ~bits) if face_of(c) == face]
            if not free:
                raise PositionError(f"seat {seat} is known to hold {face_str(face)}, "
                                    "which it does not hold")
            bits |= 1 << free[0]
        known.append(bits)
    must_use = -1
    must = sections.get("must", "-")
    if must != "-":
        face = parse_face(must)
        held = [c for c in iter_bits(known[turn] if 0 <= turn < players else 0)
                if face_of(c) == face]
        if not held:
            raise PositionError(f"the card to be used, {must}, is not one the player to move "
                                "took from the pile")
        must_use = held[0]
    progress = sections.get("progress", "no")
    if progress not in ("yes", "no"):
        raise PositionError("progress is yes or no")
    ended = sections.get("ended", "")
    went_out = None
    if ended.startswith("went out by "):
        went_out = int(ended.removeprefix("went out by "))
        ended = "went out"
    dealer = sections.get("dealer")
    return Deal.from_position(
        rules, players, dealer=(turn - 1) % players if dealer is None else int(dealer),
        hands=hands, pile=pile, stock=stock[::-1], melds=melds, known=known, turn=turn,
        phase=phase, must_use=must_use, discarder=seat_of(sections.get("discarder", "-")),
        idle_turns=int(sections.get("idle", "0")), progress=progress == "yes",
        restocks=int(sections.get("restocks", "0")),
        passed=[sum(1 << face for face in set(group)) for group in per_seat("passed")],
        went_out=went_out, ended_by=ended, rng=rng)


def face_tokens(value: str) -> list[str]:
    return [] if value in ("", "-") else value.split()


def _read_meld(token: str, number: int, rules: Rules, points: Points,
               take: Callable[[int], int]) -> Meld:
    name, _, body = token.partition("=")
    doubled = name.endswith("x2")
    if name.removesuffix("x2") != f"m{number}" or not body:
        raise PositionError(f"the table's melds are written m1=…, m2=…, in order, not {token!r}")
    seat = -1
    seats, pieces = [], []
    for item in body.split(","):
        if ":" in item:
            seat_text, _, item = item.partition(":")
            seat = int(seat_text)
        if seat < 0:
            raise PositionError(f"{token}: say which seat laid it, like m1=0:7h,7d,7s")
        seats.append(seat)
        pieces.append(parse_piece(item))
    shape = classify(tuple(pieces), rules)
    if doubled and (not points.doubles or shape.kind == RUN or len(pieces) != 4):
        raise PositionError(f"{token}: only a four of a kind counts double, with "
                            "four_of_a_kind_doubles")
    cards = []
    faces = 0
    for piece, seat in zip(pieces, seats, strict=True):
        face = piece_face(piece)
        card = take(JOKER if is_joker_piece(piece) else face)
        cards.append(TableCard(card, face, seat, _table_points(points, shape, face, card,
                                                                doubled)))
        if face != JOKER:
            faces |= 1 << face
    fits = compute_fits(shape.kind, shape.suit, shape.rank, shape.lo, shape.hi, faces,
                        len(cards))
    return Meld(number, shape.kind, shape.suit, shape.rank, shape.lo, shape.hi, faces,
                tuple(cards), fits)
