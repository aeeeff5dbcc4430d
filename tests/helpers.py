"""Positions for rule tests, written as text: hands, up-card, stock, pile and table.

:func:`deal_from_hands` composes the pack order that deals the given hands (one
card at a time from the dealer's left, then the up-card, then the stock from its
top) and fills the rest of the pack in pack order, below the named stock cards.
A pile deeper than the up-card and melds already on the table are set up after
the deal, with cards taken from the bottom of the stock, like a position string
(such a position is for checking rules, not for writing as a record).

Faces are written as in NOTATION.md; a face named twice takes the second pack's
copy the second time, ``*`` is the next joker, and a meld on the table may hold
``*=6h``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from rummy500.cards import JOKER, face_of, face_str, iter_bits, make_pack, parse_face
from rummy500.deal import Deal
from rummy500.game import Game
from rummy500.melds import Meld, classify
from rummy500.moves import parse_piece
from rummy500.rules import Rules
from rummy500.scoring import points_for
from rummy500.table import new_meld
from rummy500.view import view_of

FILL = "..."
"""Ends a hand that the rest of the pack fills up (in pack order)."""


class Pack:
    """The cards of one game's pack not yet placed, handed out by face."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.left = make_pack(rules.deck_count(players), rules.jokers_in_each_deck)

    def take_face(self, face: int) -> int:
        for index, card in enumerate(self.left):
            if face_of(card) == face:
                return self.left.pop(index)
        raise ValueError(f"no {face_str(face)} is left in the pack")

    def take(self, text: str) -> list[int]:
        """The cards for ``text`` (faces, ``*``, or ``*=6h`` for a joker), in order."""
        return [self.take_face(_token_face(token)) for token in text.split()]


def _token_face(token: str) -> int:
    return JOKER if token.startswith("*") else parse_face(token)


def cards(rules: Rules, players: int, text: str) -> list[int]:
    """The physical cards a fresh pack gives for ``text``."""
    return Pack(rules, players).take(text)


def setup_deal(
    game: Game,
    hands: Sequence[str],
    *,
    up: str | None = None,
    stock: str = "",
    pile: str = "",
    table: Sequence[tuple[int, str]] = (),
    restock: Sequence[str] = (),
    known: Sequence[tuple[int, str]] = (),
) -> Deal:
    """Start the game's next deal with these hands (the dealer is the game's next dealer).

    ``hands`` are per seat; a hand ending in ``...`` is filled up from the rest of
    the pack. ``stock`` names the top of the stock, first card first. ``pile``
    names cards laid on the pile above the up-card, bottom first; ``table`` holds
    ``(seat, "7h 7d 7s")`` melds credited to that seat; ``known`` holds
    ``(seat, "9h 9d")``: cards of that seat's hand that it took from the pile. ``restock``
    gives the order of each new stock (``stock_exhausted = "reshuffle"``), top first.
    """
    rules, players = game.rules, game.players
    if len(hands) != players:
        raise ValueError(f"{len(hands)} hands for {players} players")
    dealt = rules.cards_dealt(players)
    dealer = game.next_dealer()
    pack = Pack(rules, players)
    hand_cards: list[list[int]] = []
    fill: list[bool] = []
    for text in hands:
        tokens = text.split()
        fill.append(bool(tokens) and tokens[-1] == FILL)
        hand_cards.append(pack.take(" ".join(t for t in tokens if t != FILL)))
    up_cards = pack.take(up) if up is not None else []
    stock_cards = pack.take(stock)
    pile_cards = pack.take(pile)
    table_cards = [(seat, _table_pieces(text), pack.take(text)) for seat, text in table]
    for seat, held in enumerate(hand_cards):
        if fill[seat]:
            while len(held) < dealt:
                held.append(pack.left.pop(0))
        if len(held) != dealt:
            raise ValueError(f"seat {seat} is dealt {dealt} cards, not {len(held)}")
    if not up_cards:
        up_cards = [pack.left.pop(0)]
    deck = [0] * (dealt * players)
    for seat, held in enumerate(hand_cards):
        offset = (seat - dealer - 1) % players
        for k, card in enumerate(held):
            deck[k * players + offset] = card
    deck += up_cards + stock_cards + pack.left + pile_cards
    for _seat, _pieces, melded in table_cards:
        deck += melded
    orders = [Pack(rules, players).take(order) for order in restock]
    if not pile_cards and not table_cards and not known:
        return game.start_deal(deck, orders, dealer)
    points = points_for(rules)
    melds: list[Meld] = []
    for seat, pieces, melded in table_cards:
        shape = classify(pieces, rules)
        ordered = _cards_in_order(shape.pieces, pieces, melded)
        melds.append(new_meld(len(melds) + 1, shape, ordered, seat, points)[0])
    held = [sum(1 << card for card in cards_held) for cards_held in hand_cards]
    known_cards = [0] * players
    for seat, text in known:
        for face in (_token_face(token) for token in text.split()):
            free = held[seat] & ~known_cards[seat]
            known_cards[seat] |= 1 << next(c for c in iter_bits(free) if face_of(c) == face)
    deal = Deal.from_position(
        rules, players, dealer=dealer, hands=held, pile=up_cards + pile_cards,
        stock=list(reversed(stock_cards + pack.left)), melds=melds, known=known_cards,
        deck=deck, restock=orders, rng=game.rng)
    return game.add_deal(deal)


def _table_pieces(text: str) -> tuple[int, ...]:
    """The pieces of a meld written in text, in the order written."""
    return tuple(parse_piece(token) for token in text.split())


def _cards_in_order(
    ordered: tuple[int, ...], pieces: tuple[int, ...], melded: list[int]
) -> list[int]:
    """The meld's cards (named in the order of ``pieces``) in the canonical ``ordered``."""
    left = list(zip(pieces, melded, strict=True))
    result = []
    for piece in ordered:
        index = next(i for i, (p, _card) in enumerate(left) if p == piece)
        result.append(left.pop(index)[1])
    return result


def deal_from_hands(
    rules: Rules,
    hands: Sequence[str],
    *,
    up: str | None = None,
    stock: str = "",
    pile: str = "",
    table: Sequence[tuple[int, str]] = (),
    restock: Sequence[str] = (),
    dealer: int | None = None,
    auto_deal: bool = False,
    seed: int = 0,
) -> Game:
    """A game whose first deal gives these hands (by default seat 0 plays first)."""
    players = len(hands)
    game = Game(rules, players, dealer=players - 1 if dealer is None else dealer,
                auto_deal=False, rng=random.Random(seed))
    setup_deal(game, hands, up=up, stock=stock, pile=pile, table=table, restock=restock)
    game.auto_deal = auto_deal
    return game


def legal(game: Game | Deal) -> list[str]:
    """The legal moves as sorted text.

    Each is listed once, each is accepted by ``why_illegal``, and the view of the
    player to move lists the same moves.
    """
    deal = game.deal if isinstance(game, Game) else game
    listed = game.legal_moves()
    moves = sorted(str(move) for move in listed)
    assert len(moves) == len(set(moves)), f"a move is listed twice: {moves}"
    for move in listed:
        assert deal.why_illegal(move) is None, f"{move} is listed but refused"
    if not deal.over:
        seen = view_of(deal, deal.turn).legal_moves()
        assert sorted(str(move) for move in seen) == moves
    return moves


def play(game: Game, *moves: str) -> None:
    """Play moves, each checked."""
    for text in moves:
        game.play(text)


def faces(cards_held: int | Iterable[int]) -> list[str]:
    """Card faces as sorted text (cards given as a bitset or a list of cards)."""
    listed = iter_bits(cards_held) if isinstance(cards_held, int) else cards_held
    return sorted(face_str(face_of(card)) for card in listed)


def face_text(text: str) -> list[str]:
    """Faces written in text, sorted, canonical (to compare with :func:`faces`)."""
    return sorted(face_str(_token_face(token)) for token in text.split())
