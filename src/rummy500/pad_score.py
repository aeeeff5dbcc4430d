"""A score pad scored by the engine: each deal of a :class:`~rummy500.pad.Pad` set up as a
finished :class:`~rummy500.deal.Deal` (its melds built and laid off onto exactly as in
play, by :mod:`rummy500.table`), and the deals played into a :class:`~rummy500.game.Game`,
whose results, totals, end and winner are the engine's own. Nothing here counts a point.

>>> from rummy500.pad import load_pad
>>> pad = load_pad('''{"format": "rummy500-pad", "version": 1,
...   "rules": {"preset": "classic"}, "players": ["Ann", "Bob"],
...   "deals": [{"dealer": 0, "went_out": 1,
...              "melds": [{"seat": 1, "cards": "7h 7d 7s"}],
...              "layoffs": [{"seat": 0, "cards": "7c", "on": 1}],
...              "hands": ["Kd As", ""]}]}''')
>>> game = score_pad(pad)
>>> game.results[0].scores, game.totals
((-18, 21), [-18, 21])
"""

from __future__ import annotations

from collections import defaultdict

from .cards import JOKER, face_str, make_pack
from .deal import Deal
from .errors import MeldError, PadError
from .game import Game
from .melds import DECLARED, JOKER_SET, Meld, classify, piece_face
from .pad import Pad, PadDeal, PadLayoff
from .rules import Rules
from .scoring import points_for
from .table import lay_off, new_meld


def score_pad(pad: Pad) -> Game:
    """The game of ``pad``, every deal scored by the engine (refused with
    :class:`~rummy500.errors.PadError` where a deal cannot be right)."""
    players = len(pad.players)
    first = pad.deals[0].dealer if pad.deals else 0
    game = Game(pad.rules, players, dealer=first, auto_deal=False)
    for pad_deal in pad.deals:
        where = f"deal {pad_deal.number}"
        if game.finished:
            raise PadError(f"{where}: the game was over after deal {pad_deal.number - 1}")
        if pad_deal.dealer != game.next_dealer():
            raise PadError(f"{where}: the deal passes to the left, so "
                           f"{pad.seat_name(game.next_dealer())} deals it, not "
                           f"{pad.seat_name(pad_deal.dealer)}")
        game.add_deal(finished_deal(pad, pad_deal))
        game._finish_deal()  # the engine's scoring of a deal that is over, as from_deal does
    return game


def finished_deal(pad: Pad, pad_deal: PadDeal) -> Deal:
    """The deal ``pad_deal`` of ``pad`` as the engine's finished deal: its table, its hands,
    who went out, the cards no one holds in the stock; a seat given as points is credited
    with them (as its points on the table, holding nothing)."""
    rules, players = pad.rules, len(pad.players)
    cards = _Cards(pad, pad_deal)
    hands = [0] * players
    for seat, faces in enumerate(pad_deal.hands):
        for face in faces:
            hands[seat] |= 1 << cards.take(face, f"{pad.seat_name(seat)}'s hand")
    melds = _table(pad, pad_deal, cards)
    went_out = pad_deal.went_out
    deal = Deal.from_position(
        rules, players, dealer=pad_deal.dealer, hands=hands, pile=[], stock=cards.rest(),
        melds=melds, phase="over", went_out=went_out,
        ended_by="went out" if went_out is not None else "stock", counted=pad_deal.points)
    return deal


class _Cards:
    """The physical cards of the pack handed out face by face, refused beyond the copies the
    packs hold."""

    def __init__(self, pad: Pad, pad_deal: PadDeal) -> None:
        rules, players = pad.rules, len(pad.players)
        self.where = f"deal {pad_deal.number}"
        self.decks = rules.deck_count(players)
        self.jokers_per_deck = rules.jokers_in_each_deck
        self.left: dict[int, list[int]] = defaultdict(list)
        for card in make_pack(self.decks, self.jokers_per_deck):
            self.left[JOKER if card & 15 == 15 else card & 63].append(card)
        self.places: dict[int, list[str]] = defaultdict(list)

    def take(self, face: int, place: str) -> int:
        self.places[face].append(place)
        if self.left[face]:
            return self.left[face].pop(0)
        seen = self.places[face]
        if face == JOKER:
            if not self.jokers_per_deck:
                raise PadError(f"{self.where}, {place}: there are no jokers in this game")
            held = f"{self.decks * self.jokers_per_deck} jokers"
        else:
            held = "it once" if self.decks == 1 else f"it {self.decks} times"
        card = "a joker" if face == JOKER else face_str(face)
        raise PadError(f"{self.where}: {card} appears {len(seen)} times ("
                       f"{'; '.join(seen)}), and the pack{'s' if self.decks > 1 else ''} "
                       f"hold{'' if self.decks > 1 else 's'} {held}")

    def rest(self) -> list[int]:
        return [card for cards in self.left.values() for card in cards]


def _table(pad: Pad, pad_deal: PadDeal, cards: _Cards) -> list[Meld]:
    """The deal's melds with their lay-offs, built by the engine's own table code."""
    rules = pad.rules
    points = points_for(rules)
    where = f"deal {pad_deal.number}"
    melds: list[Meld] = []
    for number, pad_meld in enumerate(pad_deal.melds, 1):
        place = f"meld {number} by {pad.seat_name(pad_meld.seat)} ({pad_meld.text})"
        try:
            shape = classify(pad_meld.pieces, rules)
        except MeldError as error:
            raise PadError(f"{where}, {place}: {error}") from None
        laid = [cards.take(_card_face(piece), place) for piece in shape.pieces]
        meld, _ = new_meld(number, shape, laid, pad_meld.seat, points)
        melds.append(meld)
    by_meld: dict[int, list[tuple[PadLayoff, int]]] = defaultdict(list)
    for layoff in pad_deal.layoffs:
        for piece in layoff.pieces:
            by_meld[layoff.on].append((layoff, piece))
    for number, pending in sorted(by_meld.items()):
        melds[number - 1] = _lay_off_all(pad, where, melds[number - 1], pending, cards, rules)
    return melds


def _lay_off_all(pad: Pad, where: str, meld: Meld, pending: list[tuple[PadLayoff, int]],
                 cards: _Cards, rules: Rules) -> Meld:
    """``meld`` with every card of ``pending`` laid off, in the first order (from the pad's)
    in which each fits when laid: the cards came in an order the pad does not keep."""
    points = points_for(rules)
    def place(layoff: PadLayoff) -> str:
        return f"lay-off by {pad.seat_name(layoff.seat)} on meld {layoff.on} ({layoff.text})"

    for layoff, piece in pending:
        _check_joker(piece, meld, rules, f"{where}, {place(layoff)}")
    while pending:
        for index, (layoff, piece) in enumerate(pending):
            if meld.fits >> piece_face(piece) & 1:
                card = cards.take(_card_face(piece), place(layoff))
                meld, _ = lay_off(meld, piece, card, layoff.seat, points)
                del pending[index]
                break
        else:
            layoff, piece = pending[0]
            raise PadError(f"{where}, lay-off by {pad.seat_name(layoff.seat)} on meld "
                           f"{layoff.on}: {_piece_text(piece)} does not fit meld {layoff.on} "
                           f"({meld.describe()}) with its other lay-offs")
    return meld


def _check_joker(piece: int, meld: Meld, rules: Rules, place: str) -> None:
    if piece == JOKER and rules.jokers == "wild":
        raise PadError(f"{place}: a wild joker says which card it stands for, like *=6h")
    if piece == JOKER and rules.jokers == "none":
        raise PadError(f"{place}: there are no jokers in this game")
    if piece >= DECLARED and rules.jokers != "wild":
        raise PadError(f"{place}: jokers are not wild in this game and cannot stand for a "
                       "card")
    if piece != JOKER and meld.kind == JOKER_SET:
        raise PadError(f"{place}: a set of jokers takes only jokers")


def _card_face(piece: int) -> int:
    """The face of the physical card a piece is laid with (a joker for a declared one)."""
    return JOKER if piece >= DECLARED else piece


def _piece_text(piece: int) -> str:
    return "*=" + face_str(piece - DECLARED) if piece >= DECLARED else face_str(piece)


__all__ = ["finished_deal", "score_pad"]
