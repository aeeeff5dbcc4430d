"""Moves and their text (the notation of NOTATION.md): ``parse_move`` and ``str(move)``."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .cards import JOKER, CardError, face_str, parse_face, rank_of, suit_of
from .errors import InvalidMoveError as InvalidMoveError
from .kinds import MOVE_KINDS, MoveKind
from .melds import DECLARED, piece_face, piece_pretty

DRAW = MoveKind.DRAW
TAKE = MoveKind.TAKE
MELD = MoveKind.MELD
LAYOFF = MoveKind.LAYOFF
DISCARD = MoveKind.DISCARD
END = MoveKind.END
RUMMY_MELD = MoveKind.RUMMY_MELD
RUMMY_LAYOFF = MoveKind.RUMMY_LAYOFF
PASS = MoveKind.PASS

KINDS = tuple(MoveKind)

LOWER = 2
"""The ``meld`` field of a take of the lower copy (``take 7h/2``): with two packs, when the
pile holds both copies of a face, the lower one with every card above it."""

MAX_MOVE_LENGTH = 200
"""The longest move text read (the longest real move is under 100 characters)."""


class _MoveFields(NamedTuple):
    kind: MoveKind
    pieces: tuple[int, ...]
    meld: int


class Move(_MoveFields):
    """A move: its kind, its pieces (faces, declared jokers) and the meld it targets.

    The kind is a :class:`~rummy500.kinds.MoveKind` or its text; any other is refused:

    >>> Move("draw").kind is MoveKind.DRAW
    True
    >>> try:
    ...     Move("drew")
    ... except InvalidMoveError as error:
    ...     print(error.code, "-", str(error)[:40])
    bad_move - 'drew' is not a move: the moves are draw
    """

    __slots__ = ()

    def __new__(cls, kind: MoveKind | str, pieces: tuple[int, ...] = (), meld: int = 0) -> Move:
        try:
            known = MOVE_KINDS[kind]
        except (KeyError, TypeError):
            raise InvalidMoveError(f"{kind!r} is not a move: the moves are {_KIND_LIST}") from None
        return tuple.__new__(cls, (known, pieces, meld))

    def __repr__(self) -> str:
        return f"Move(kind={self.kind.value!r}, pieces={self.pieces!r}, meld={self.meld!r})"

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Move:  # type: ignore[override]  # mypy: NamedTuple
        """Build from fields (``_replace`` comes here), refusing an unknown kind too."""
        return cls(*iterable)

    def __str__(self) -> str:
        kind = self.kind
        if kind in (DRAW, END, PASS):
            return kind.value
        text = " ".join(piece_str(p) for p in self.pieces)
        if kind in (LAYOFF, RUMMY_LAYOFF):
            return f"{kind} {text} m{self.meld}"
        if kind == TAKE and self.meld == LOWER:
            return f"{kind} {text}/2"
        return f"{kind} {text}"

    def describe(self) -> str:
        """The move in plain words (without who made it)."""
        cards = ", ".join(piece_pretty(p) for p in self.pieces)
        if self.kind == TAKE and self.meld == LOWER:
            cards = "the lower " + cards
        return _DESCRIPTIONS[self.kind].format(cards=cards, meld=f"m{self.meld}")


_DESCRIPTIONS: dict[MoveKind, str] = {
    DRAW: "draws from the stock",
    TAKE: "takes {cards} and the cards above it from the pile",
    MELD: "melds {cards}",
    LAYOFF: "lays off {cards} on {meld}",
    DISCARD: "discards {cards}",
    END: "takes nothing from the pile, which ends the deal",
    RUMMY_MELD: "calls rummy and melds {cards} from the pile",
    RUMMY_LAYOFF: "calls rummy and lays off {cards} from the pile on {meld}",
    PASS: "passes",
}
"""Each kind of move in plain words, with the cards and the meld to fill in."""

DRAW_MOVE = Move(DRAW)
END_MOVE = Move(END)
PASS_MOVE = Move(PASS)
"""The moves without pieces, made once (a listing hands them out before every move)."""

_KIND_LIST = ", ".join(list(MOVE_KINDS)[:-1]) + " and " + list(MOVE_KINDS)[-1]


def take_at(pile: Sequence[int], index: int) -> Move:
    """The take of the pile's card at ``index`` (``pile`` in faces, bottom first): ``take 7h``,
    or ``take 7h/2`` for the lower of two copies (a joker is taken as ``take *``).

    >>> str(take_at([39, 2, 39], 0)), str(take_at([39, 2, 39], 2))
    ('take 7h/2', 'take 7h')
    """
    face = pile[index]
    if face != JOKER and face in pile[index + 1:]:
        return Move(TAKE, (face,), LOWER)
    return Move(TAKE, (face,))


def piece_str(piece: int) -> str:
    if piece >= DECLARED:
        return "*=" + face_str(piece - DECLARED)
    return face_str(piece)


def parse_piece(token: str) -> int:
    if token.startswith("*="):
        face = parse_face(token[2:])
        if face == JOKER:
            raise CardError("a joker cannot stand for a joker")
        return DECLARED + face
    return parse_face(token)


def canonical_meld(pieces: tuple[int, ...]) -> tuple[int, ...]:
    """Meld pieces in canonical order: runs low to high, sets by suit c d h s."""
    faces = [piece_face(p) for p in pieces]
    if JOKER in faces:
        return tuple(sorted(pieces))
    ranks = {rank_of(f) for f in faces}
    # Ties (a face twice, in a text that is no meld) go by piece, so any order prints alike.
    if len(ranks) == 1:
        return tuple(sorted(pieces, key=lambda p: (suit_of(piece_face(p)), p)))
    high = 13 in ranks

    def key(piece: int) -> tuple[int, int, int]:
        face = piece_face(piece)
        rank = rank_of(face)
        return (suit_of(face), 14 if rank == 1 and high else rank, piece)

    return tuple(sorted(pieces, key=key))


_MELD_ID = re.compile(r"^m([1-9][0-9]{0,8})$", re.IGNORECASE)


def _parse_meld_id(token: str) -> int:
    match = _MELD_ID.match(token)
    if match is None:
        raise InvalidMoveError(f"{token!r} is not a meld: melds are named m1, m2, …")
    return int(match.group(1))


def parse_move(text: str) -> Move:
    """Parse a move in the notation; raises :class:`InvalidMoveError` saying what is wrong."""
    if not isinstance(text, str):
        raise InvalidMoveError("a move is a line of text, like 'draw' or 'discard Kc'")
    if len(text) > MAX_MOVE_LENGTH:
        raise InvalidMoveError(f"a move is at most {MAX_MOVE_LENGTH} characters long, "
                               f"and this one has {len(text):,}")
    words = text.split()
    if not words:
        raise InvalidMoveError("the move is empty: say draw, take, meld, layoff or discard")
    head = words[0].lower()
    if head == "rummy":
        if len(words) < 2 or words[1].lower() not in (MELD, LAYOFF):
            raise InvalidMoveError("a rummy call is 'rummy meld …' or 'rummy layoff CARD mN'")
        kind = "rummy " + words[1].lower()
        args = words[2:]
    else:
        kind = head
        args = words[1:]
    try:
        return _parse_args(kind, args)
    except CardError as error:
        raise InvalidMoveError(str(error)) from None


def _parse_args(kind: str, args: list[str]) -> Move:
    if kind in (DRAW, END, PASS):
        if args:
            raise InvalidMoveError(f"'{kind}' takes nothing after it")
        return Move(kind)
    if kind in (TAKE, DISCARD):
        if len(args) != 1:
            raise InvalidMoveError(f"'{kind}' names one card, like '{kind} 7h'")
        token, slash, which = args[0].partition("/")
        face = parse_face(token)
        if not slash:
            return Move(kind, (face,))
        if kind != TAKE or which != "2":
            raise InvalidMoveError(
                "'/2' comes only after the card of a take: 'take 7h/2' takes the lower of "
                "two copies of 7h in the pile")
        if face == JOKER:
            raise InvalidMoveError("'take */2' is no move: 'take *' takes the upper joker")
        return Move(kind, (face,), LOWER)
    if kind in (MELD, RUMMY_MELD):
        pieces = tuple(parse_piece(a) for a in args)  # a card that is none is named first
        if len(args) < 3:
            raise InvalidMoveError(f"'{kind}' names the three or more cards of the meld")
        return Move(kind, canonical_meld(pieces))
    if kind in (LAYOFF, RUMMY_LAYOFF):
        if len(args) != 2:
            raise InvalidMoveError(f"'{kind}' names one card and a meld, like '{kind} 8h m2'")
        return Move(kind, (parse_piece(args[0]),), _parse_meld_id(args[1]))
    raise InvalidMoveError(
        f"{kind!r} is not a move: the moves are draw, take, meld, layoff, discard, end, "
        "rummy and pass"
    )
