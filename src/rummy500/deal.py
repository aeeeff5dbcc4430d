"""One deal of 500 Rum: the state machine from the deal to its end, with push/pop undo."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from . import position as _position
from .cards import JOKER, JOKER_MASK, Cards, iter_bits
from .dealing import deal_out, restock_cards
from .errors import IllegalMoveError as IllegalMoveError
from .errors import NotNowError, PositionError
from .errors import RecordError as RecordError
from .kinds import DealEnd, Phase
from .legal import why_illegal
from .listing import claims, legal_moves
from .melds import Meld, classify
from .moves import (
    DISCARD,
    DRAW,
    END,
    LAYOFF,
    LOWER,
    MELD,
    PASS,
    RUMMY_LAYOFF,
    RUMMY_MELD,
    TAKE,
    Move,
    parse_move,
)
from .position import ENDINGS as ENDINGS
from .results import DealResult as DealResult
from .results import score_deal
from .rules import Rules
from .scoring import points_for
from .table import lay_off, new_meld, pick_cards, pick_from_pile, take_index
from .turn_rules import (
    DRAW_PHASE,
    OVER,
    PLAY_PHASE,
    RUMMY_PHASE,
    Position,
    take_must_be_used,
    taken_face,
)

_new_tuple = tuple.__new__

IDLE_TURNS_PER_PLAYER = 10
"""A deal ends when this many rounds of turns pass with no card drawn from the stock
and none put on the table (a project decision: see docs/rules-decisions.md)."""


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
        self._begin(rules, players, dealer, deck, restock, rng)
        self.hands, self.pile, self.stock = deal_out(rules, players, dealer, deck)
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

    # -- setting up a position (checked and written by :mod:`rummy500.position`) ------

    from_position: classmethod[Deal, ..., Deal] = classmethod(_position.from_position)

    @classmethod
    def from_fen(cls, text: str, rules: Rules, *, rng: random.Random | None = None) -> Deal:
        """The deal in the position :meth:`fen` writes (see :func:`rummy500.position.from_fen`)."""
        return _position.from_fen(cls, text, rules, rng=rng)

    @classmethod
    def _placed(
        cls, rules: Rules, players: int, dealer: int, *, deck: Sequence[int],
        hands: list[int], pile: list[int], stock: list[int], melds: list[Meld],
        credit: list[int], known: list[int], turn: int, phase: Phase, must_use: int,
        went_out: int | None, ended_by: str, idle_turns: int, progress: bool, restocks: int,
        discarder: int, passed: list[int], moves: list[Move], movers: list[int],
        restock: Sequence[Sequence[int]], rng: random.Random | None,
    ) -> Deal:
        """A deal with every field given and nothing checked: the one constructor of
        :func:`rummy500.position.from_position`, which checks the position it builds."""
        deal = object.__new__(cls)
        deal._begin(rules, players, dealer, deck, restock, rng)
        deal.hands = hands
        deal.pile = pile
        deal.stock = stock
        deal.melds = melds
        deal.credit = credit
        deal.known = known
        deal.turn = turn
        deal.phase = phase
        deal.must_use = must_use
        deal.went_out = went_out
        deal.ended_by = ended_by
        deal.idle_turns = idle_turns
        deal.progress = progress
        deal.restocks = restocks
        deal.discarder = discarder
        deal.passed = passed
        deal.moves = moves
        deal.movers = movers
        deal._stack = []
        return deal

    def _begin(self, rules: Rules, players: int, dealer: int, deck: Sequence[int],
               restock: Sequence[Sequence[int]], rng: random.Random | None) -> None:
        """What a deal holds from its start however it is made: the rules and seats, the
        pack order that dealt it, and how the stock is made again."""
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.deck = tuple(deck)
        self.points = points_for(rules)
        self.rng = rng
        self.restock_orders: list[list[int]] = [list(order) for order in restock]

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
        rules = self.rules
        no_discard = -1
        if not rules.discard_taken_card and self.phase == PLAY_PHASE:
            no_discard = taken_face(rules, self.moves, self.known[seat], self.hands[seat])
        # Position(...) without its __new__ in Python (asked before every move of a play-out)
        return _new_tuple(Position, (rules, self.phase, self.hands[seat], self.pile, self.melds,
                                     len(self.stock), self.must_use, no_discard))

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def hand_cards(self, seat: int) -> Cards:
        """``seat``'s hand as :class:`Cards` (any seat's: a player sees only its own view)."""
        return Cards(self.hands[seat])

    def pile_cards(self) -> Cards:
        """The discard pile as :class:`Cards` (its order: :attr:`pile`, bottom first)."""
        return Cards(self.pile)

    def stock_cards(self) -> Cards:
        """The stock as :class:`Cards` (its order: :attr:`stock`, top first)."""
        return Cards(self.stock)

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
            face = move.pieces[0]
            hand = self.hands[seat]
            if face & 15 != 15 and hand >> face & 1:  # pick_cards' first answer, at once
                card = face
            else:
                chosen = pick_cards(hand, move.pieces)
                assert chosen is not None
                card = chosen[0]
            self._remove(seat, card)
            self.pile.append(card)
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
            self._take(seat, move.pieces[0], move.meld == LOWER)
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

    def _take(self, seat: int, face: int, lower: bool) -> None:
        pile = self.pile
        index = take_index(pile, face, lower)
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
            order = restock_cards(self.restock_orders[self.restocks], cards)
        else:
            if self.rng is None:
                raise RecordError("the stock ran out and the record gives no restock order")
            order = list(cards)
            self.rng.shuffle(order)
            self.restock_orders.append(order)
        self.pile = self.pile[-1:]
        self.stock = list(reversed(order))
        self.restocks += 1

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
        return score_deal(self.rules, self.points, self.hands, self.credit, self.went_out,
                          self.ended_by)

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
        """The position on one line (see :mod:`rummy500.position`); :meth:`from_fen` reads
        it back."""
        return _position.fen(self)

    def __repr__(self) -> str:
        return f"<Deal {self.fen()}>"

