"""Positions: a deal set up in any position, checked, and written on one line.

:func:`from_position` builds a deal from physical cards (``Deal.from_position``) and refuses
a position that cannot arise; :func:`fen` writes the position string and
:func:`from_fen` reads it back (``Deal.fen``, ``Deal.from_fen``)::

    seat 0 play | dealer 1 | hands 7h 7d … / … | known - / 7s | pile 8d Kc |
    stock Qs 3c … | table m1=0:7c,7d,7s,1:7h | must - | discarder 1 | idle 0 |
    progress no | restocks 0 | passed - / Kc

then ``| ended …`` once the deal is over: the pile bottom first, the stock top first, ``-``
for nothing. A table card is written with the seat that laid it (``0:`` applies until
another seat is named), a meld in the order its cards reached the table, ``x2`` after its
name when the four cards it was laid with count double (a four of a kind, or a run of four
with ``four_card_runs_double``). Which pack a card came from is not part of the position:
every card is written as its face.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, Self, TypeVar

from .cards import (
    JOKER,
    CardError,
    face_of,
    face_str,
    iter_bits,
    make_pack,
    parse_face,
    sort_key,
)
from .errors import PositionError
from .kinds import Phase
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
from .moves import Move, parse_piece
from .rules import Rules
from .scoring import Points, points_for

DRAW_PHASE, PLAY_PHASE, RUMMY_PHASE, OVER = Phase.DRAW, Phase.PLAY, Phase.RUMMY, Phase.OVER
PHASES = {str(phase): phase for phase in (DRAW_PHASE, PLAY_PHASE, RUMMY_PHASE, OVER)}

ENDINGS = ("went out", "stock", "declined", "idle")
"""How a deal can end (:attr:`Deal.ended_by`)."""



class PlacedDeal(Protocol):
    """What this module reads of a deal (:class:`~rummy500.deal.Deal`), and how it makes
    one: it knows a deal by this shape alone, so that ``deal`` may use it."""

    rules: Rules
    players: int
    dealer: int
    points: Points
    hands: list[int]
    pile: list[int]
    stock: list[int]
    melds: list[Meld]
    known: list[int]
    passed: list[int]
    turn: int
    phase: Phase
    must_use: int
    went_out: int | None
    ended_by: str
    idle_turns: int
    progress: bool
    restocks: int
    discarder: int
    moves: list[Move]
    movers: list[int]

    def all_cards(self) -> list[int]: ...

    @classmethod
    def _placed(
        cls, rules: Rules, players: int, dealer: int, *, deck: Sequence[int],
        hands: list[int], pile: list[int], stock: list[int], melds: list[Meld],
        credit: list[int], known: list[int], turn: int, phase: Phase, must_use: int,
        went_out: int | None, ended_by: str, idle_turns: int, progress: bool, restocks: int,
        discarder: int, passed: list[int], moves: list[Move], movers: list[int],
        restock: Sequence[Sequence[int]], rng: random.Random | None,
    ) -> Self: ...


Deal = TypeVar("Deal", bound=PlacedDeal)
"""The deal class that :func:`from_position` and :func:`from_fen` build."""

_FEN_KEYS = ("dealer", "hands", "known", "pile", "stock", "table", "must", "discarder",
             "idle", "progress", "restocks", "passed", "ended")


def from_position(
    cls: type[Deal],
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
    counted: Sequence[int | None] = (),
) -> Deal:
    """A deal in any position, from physical cards (see :mod:`rummy500.cards`).

    ``hands`` are bitsets per seat; ``pile`` is bottom first and ``stock`` as
    :attr:`Deal.stock` keeps it, top *last*; ``melds`` are numbered m1, m2, … in order,
    each card credited to the seat that laid it (the credit follows from them).
    ``known`` gives per seat the cards it took from the pile and still holds,
    ``passed`` per seat the faces (bits) it left on top of the pile to draw from the
    stock. ``turn`` is the seat to move (the dealer's left by default); ``discarder``
    the seat that discarded last, which a rummy call may not come from.
    ``moves`` and ``movers`` are the history that led here, if any, and who made each
    move; ``deck`` the pack order that dealt it, if it was dealt (a record needs it).
    ``restock`` and ``rng`` order the stock when the pile is reshuffled (see
    :meth:`Deal.set_restocks`). ``counted`` gives, per seat, the points it has on the
    table when they were counted by hand (a score pad's player who gave a number): None
    where they follow from the melds. A position that cannot arise raises
    :class:`~rummy500.errors.PositionError`.
    """
    rules.check_players(players)
    credit = [0] * players
    for meld in melds:
        for table_card in meld.cards:
            if 0 <= table_card.seat < players:
                credit[table_card.seat] += table_card.points
    for seat, points in enumerate(counted):
        if points is not None:
            credit[seat] = points
    if phase not in PHASES:
        raise PositionError(f"the phase is draw, play, rummy or over, not {phase!r}")
    deal = cls._placed(
        rules, players, dealer, deck=deck, hands=list(hands), pile=list(pile),
        stock=list(stock), melds=list(melds), credit=credit,
        known=list(known) if known is not None else [0] * players,
        turn=(dealer + 1) % players if turn is None else turn, phase=PHASES[phase],
        must_use=must_use, went_out=went_out, ended_by=ended_by, idle_turns=idle_turns,
        progress=progress, restocks=restocks, discarder=discarder,
        passed=list(passed) if passed is not None else [0] * players, moves=list(moves),
        movers=list(movers), restock=restock, rng=rng)
    check_position(deal)
    return deal


def check_position(deal: PlacedDeal) -> None:
    """Raise PositionError unless the deal's position can arise in a deal."""
    players = deal.players
    seats = range(players)

    def need(ok: bool, why: str) -> None:
        if not ok:
            raise PositionError(f"not a position of a deal: {why}")

    need(deal.dealer in seats, f"the dealer must be a seat from 0 to {players - 1}")
    need(deal.turn in seats, f"the seat to move must be a seat from 0 to {players - 1}")
    need(len(deal.hands) == players and len(deal.known) == players
         and len(deal.passed) == players, f"hands, known and passed are per seat: {players}")
    pack = sorted(make_pack(deal.rules.deck_count(players), deal.rules.jokers_in_each_deck))
    need(sorted(deal.all_cards()) == pack,
         "the hands, pile, stock and table must hold every card of the pack once")
    for seat in seats:
        need(deal.known[seat] & ~deal.hands[seat] == 0,
             f"seat {seat} is known to hold a card it does not hold")
    for number, meld in enumerate(deal.melds, 1):
        need(meld.number == number, f"the melds are numbered m1, m2, … in order ({meld.name})")
        need(all(c.seat in seats for c in meld.cards), f"{meld.name} was laid by no seat")
    if deal.must_use >= 0:
        need(deal.phase == PLAY_PHASE and deal.known[deal.turn] >> deal.must_use & 1 == 1,
             "a card to be used must be one the player to move took from the pile")
    need(deal.discarder == -1 or deal.discarder in seats, "the discarder is not a seat")
    if deal.phase == RUMMY_PHASE:
        need(deal.discarder >= 0 and deal.turn != deal.discarder,
             "a rummy call comes from a player other than the discarder")
    if deal.phase == OVER:
        need(deal.ended_by in ENDINGS, f"a deal ends by one of {', '.join(ENDINGS)}")
        need((deal.went_out is not None) == (deal.ended_by == "went out")
             and (deal.went_out is None or deal.went_out in seats),
             "a deal ended by going out names the seat that went out")
    else:
        need(deal.ended_by == "" and deal.went_out is None, "a deal in play has not ended")
    need(deal.idle_turns >= 0 and deal.restocks >= 0, "counts cannot be negative")
    need(len(deal.movers) == len(deal.moves), "the history names who made each move")


# -- the position string --------------------------------------------------------------


def fen(deal: PlacedDeal) -> str:
    """The position on one line, in notation faces (the format: this module's docstring)."""
    def faces(cards: Sequence[int]) -> str:
        return " ".join(face_str(face_of(card)) for card in cards) or "-"

    def per_seat(bitsets: Sequence[int]) -> str:
        return " / ".join(faces(sorted(iter_bits(bits), key=sort_key)) for bits in bitsets)

    passed = [sum(1 << face_of(face) for face in iter_bits(bits)) for bits in deal.passed]
    parts = [
        f"seat {deal.turn} {deal.phase}",
        f"dealer {deal.dealer}",
        f"hands {per_seat(deal.hands)}",
        f"known {per_seat(deal.known)}",
        f"pile {faces(deal.pile)}",
        f"stock {faces(deal.stock[::-1])}",
        "table " + (" ".join(_meld_text(meld, deal.points) for meld in deal.melds) or "-"),
        "must " + (face_str(face_of(deal.must_use)) if deal.must_use >= 0 else "-"),
        "discarder " + (str(deal.discarder) if deal.discarder >= 0 else "-"),
        f"idle {deal.idle_turns}",
        "progress " + ("yes" if deal.progress else "no"),
        f"restocks {deal.restocks}",
        f"passed {per_seat(passed)}",
    ]
    if deal.phase == OVER:
        parts.append(f"ended went out by {deal.went_out}" if deal.went_out is not None
                     else f"ended {deal.ended_by}")
    return " | ".join(parts)


def from_fen(cls: type[Deal], text: str, rules: Rules, *,
             rng: random.Random | None = None) -> Deal:
    """The deal in the position :func:`fen` writes (``from_fen(d.fen()).fen() ==
    d.fen()``), with no history behind it.

    Written by hand, only ``seat``, ``hands`` and ``stock`` are needed (the dealer is
    then on the right of the seat to move, nothing is known or passed, no meld is on
    the table and the pile is empty), and a stock that ends in ``...`` goes on with
    every card not named anywhere, in pack order. The copies of a face are handed out
    first pack first. A text that is no position raises
    :class:`~rummy500.errors.PositionError`.
    """
    try:
        return _read_fen(cls, text, rules, rng)
    except (CardError, MeldError, ValueError) as error:
        if isinstance(error, PositionError):
            raise
        raise PositionError(f"not a position: {error}") from None


def _meld_text(meld: Meld, points: Points) -> str:
    """A meld as :func:`fen` writes it: ``m2=0:5h,*=6h,7h,1:8h``."""
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
    """What a card standing for ``face`` is worth in ``meld`` (doubled: one of the four
    cards of a meld that counts double), as :mod:`rummy500.table` credits it."""
    run_ace = meld.kind == RUN and face != JOKER and face & 15 == 1
    low_ace = run_ace and meld.lo == 1
    value = points.on_table(face, low_ace, joker=card & 15 == 15,
                            high_ace=run_ace and not low_ace)
    return value * 2 if doubled else value


def _read_fen(cls: type[Deal], text: str, rules: Rules, rng: random.Random | None) -> Deal:
    head, *rest = (part.strip() for part in text.strip().split("|"))
    words = head.split()
    if len(words) != 3 or words[0] != "seat" or words[2] not in PHASES:
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
    return from_position(
        cls, rules, players, dealer=(turn - 1) % players if dealer is None else int(dealer),
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
    if doubled and not _laid_doubled(pieces, seats, rules, points):
        raise PositionError(f"{token}: only a meld of four laid at once counts double: a four "
                            "of a kind with four_of_a_kind_doubles, a run of four with "
                            "four_card_runs_double too")
    cards = []
    faces = 0
    for index, (piece, seat) in enumerate(zip(pieces, seats, strict=True)):
        face = piece_face(piece)
        card = take(JOKER if is_joker_piece(piece) else face)
        cards.append(TableCard(card, face, seat, _table_points(points, shape, face, card,
                                                                doubled and index < 4)))
        if face != JOKER:
            faces |= 1 << face
    fits = compute_fits(shape.kind, shape.suit, shape.rank, shape.lo, shape.hi, faces,
                        len(cards), points.any_suit)
    return Meld(number, shape.kind, shape.suit, shape.rank, shape.lo, shape.hi, faces,
                tuple(cards), fits)


def _laid_doubled(pieces: list[int], seats: list[int], rules: Rules, points: Points) -> bool:
    """Whether the first four cards of a meld (in the order they reached the table) can
    be a meld laid at once that counts double; the cards after them were laid off."""
    if not points.doubles or len(pieces) < 4 or len(set(seats[:4])) != 1:
        return False
    try:
        laid = classify(tuple(pieces[:4]), rules)
    except MeldError:
        return False
    return laid.kind != RUN or points.doubles_runs
