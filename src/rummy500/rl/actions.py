"""A fixed numbering of every move of 500 Rum, for learning agents (``docs/rl.md``).

For one rule set and player count, :class:`ActionSpace` numbers every move the
engine can ever list, in blocks:

========================  ====================================================
block                     one action for
========================  ====================================================
``draw``, ``end``         the move
``pass``                  the move (with ``rummy_calls`` only)
``take``                  each face of the pile (the upper copy with two packs)
``discard``               each face
``meld``                  each meld shape: sets by rank and missing suit (then
                          the set of four), with ``set_suits = "any"`` and two
                          packs the sets holding a card twice, runs by suit,
                          start and length,
                          sets of Persian jokers; times each choice of the
                          cards wild jokers stand for
``layoff``                each piece (face, Persian joker, wild joker declared
                          as a face) onto each meld slot m1 … m(pack/3)
``rummy meld``            as ``meld`` (with ``rummy_calls`` only)
``rummy layoff``          as ``layoff`` (with ``rummy_calls`` only)
``take/2``                each natural face: ``take 7h/2``, the lower of two
                          copies in the pile (with two packs only; last, so
                          the numbers before it are those of one pack)
========================  ====================================================

A meld holds at least three cards, so a deal never has more than ``pack // 3``
melds: every layoff the engine can list has a slot. Conversions go both ways:
:meth:`ActionSpace.encode` / :meth:`~ActionSpace.decode` between numbers and
:class:`~rummy500.moves.Move` values (exactly the values the engine lists), and
:meth:`~ActionSpace.to_text` / :meth:`~ActionSpace.from_text` with the notation.

>>> from rummy500.rules import find_preset
>>> space = ActionSpace(find_preset("classic"), 2)
>>> space.size
1359
>>> space.from_text("meld 7h 7d 7s")
136
>>> space.to_text(136)
'meld 7d 7h 7s'
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..cards import JOKER
from ..errors import InvalidMoveError, MeldError
from ..kinds import MoveKind
from ..melds import ACE_HIGH, DECLARED, position_face
from ..moves import LOWER, Move, parse_move
from ..rules import Rules

NATURAL_FACES = 52
"""Natural faces, indexed ``suit * 13 + rank - 1`` (clubs A..K, diamonds, hearts, spades)."""
JOKER_INDEX = 52
"""The index of the joker face (in games with jokers)."""
TAKE_LOWER = "take/2"
"""The name of the block of ``take 7h/2`` moves (with two packs)."""

_NO_PIECES = (MoveKind.DRAW, MoveKind.END, MoveKind.PASS)
"""The kinds of move with one number each."""
_ONE_FACE = (MoveKind.TAKE, MoveKind.DISCARD)
"""The kinds of move that name one face, numbered by it."""
_MELDS = (MoveKind.MELD, MoveKind.RUMMY_MELD)
"""The kinds of move that put a meld's pieces down, numbered by its shape."""

Mask = npt.NDArray[np.int8]


def face_index(face: int) -> int:
    """The index 0..52 of a face (52 for the joker)."""
    if face == JOKER:
        return JOKER_INDEX
    return (face >> 4) * 13 + (face & 15) - 1


def index_face(index: int) -> int:
    """The face of an index 0..52."""
    if index == JOKER_INDEX:
        return JOKER
    suit, rank = divmod(index, 13)
    return suit << 4 | (rank + 1)


CARD_FACE_INDEX: tuple[int, ...] = tuple(
    JOKER_INDEX if card & 15 == 15 else (face_index(card & 63) if card & 15 else -1)
    for card in range(128)
)
"""The face index of each card id (-1 for the unused slots)."""


class Block(NamedTuple):
    """A run of action numbers of one kind of move."""

    name: str
    start: int
    size: int
    what: str

    @property
    def stop(self) -> int:
        return self.start + self.size


class MeldShape(NamedTuple):
    """The faces of a meld at its places, before any wild joker stands in."""

    faces: tuple[int, ...]
    base: int
    """The first action offset (within a meld block) of this shape."""


def _popcount_order(n: int, most: int) -> tuple[int, ...]:
    """Masks of ``n`` places with at most ``most`` places set: fewest first, then by value."""
    masks: list[int] = []
    for k in range(most + 1):
        masks.extend(sorted(sum(1 << i for i in c) for c in combinations(range(n), k)))
    return tuple(masks)


class ActionSpace:
    """Every move of one rule set and player count, numbered ``0 .. size - 1``."""

    def __init__(self, rules: Rules, players: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.players = players
        decks = rules.deck_count(players)
        self.decks = decks
        self.pack_size = rules.pack_size(players)
        per_deck = rules.jokers_in_each_deck
        self.joker_count = decks * per_deck
        self.wild = rules.jokers == "wild" and per_deck > 0
        self.persian = rules.jokers == "persian" and per_deck > 0
        self.faces = NATURAL_FACES + (1 if self.joker_count else 0)
        """Face indices in use: 52, or 53 with the joker."""
        self.meld_slots = self.pack_size // 3
        self.repeated_sets = rules.set_suits == "any" and decks > 1
        """Sets may hold both copies of a card (``set_suits = "any"`` with two packs)."""
        pieces = [index_face(i) for i in range(NATURAL_FACES)]
        if self.persian:
            pieces.append(JOKER)
        if self.wild:
            pieces.extend(DECLARED + index_face(i) for i in range(NATURAL_FACES))
        self.layoff_pieces: tuple[int, ...] = tuple(pieces)
        self._piece_index = {piece: i for i, piece in enumerate(pieces)}
        self._build_melds(rules.min_run)
        blocks: list[Block] = []

        def add(name: str, size: int, what: str) -> None:
            start = blocks[-1].stop if blocks else 0
            blocks.append(Block(name, start, size, what))

        add(MoveKind.DRAW, 1, "draw the top card of the stock")
        add(MoveKind.END, 1, "take nothing with the stock empty, which ends the deal")
        if rules.rummy_calls:
            add(MoveKind.PASS, 1, "make no (further) rummy claim")
        add(MoveKind.TAKE, self.faces, "take a face from the pile, with every card above it")
        add(MoveKind.DISCARD, self.faces, "discard a face")
        layoffs = len(self.layoff_pieces) * self.meld_slots
        meld_what = "a meld shape with a choice of the places wild jokers fill"
        layoff_what = f"a piece onto meld slot m1..m{self.meld_slots} (piece-major)"
        add(MoveKind.MELD, self.meld_count, meld_what)
        add(MoveKind.LAYOFF, layoffs, layoff_what)
        if rules.rummy_calls:
            add(MoveKind.RUMMY_MELD, self.meld_count, "claim pile cards that form " + meld_what)
            add(MoveKind.RUMMY_LAYOFF, layoffs, "claim a pile card and lay it off: " + layoff_what)
        if decks > 1:
            add(TAKE_LOWER, NATURAL_FACES, "take the lower of two copies of a face in the pile, "
                "with every card above it (take 7h/2)")
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self._block = {block.name: block for block in blocks}
        self._starts = [block.start for block in blocks]
        self.size = blocks[-1].stop
        self._encoded: dict[Move, int] = {}
        self._decoded: dict[int, Move] = {}

    # -- melds --------------------------------------------------------------------------

    def _build_melds(self, min_run: int) -> None:
        most_jokers = self.joker_count if self.wild else 0
        patterns: dict[int, tuple[int, ...]] = {}
        shapes: list[MeldShape] = []
        offset = 0

        def add(faces: tuple[int, ...]) -> None:
            nonlocal offset
            n = len(faces)
            if n not in patterns:
                patterns[n] = _popcount_order(n, min(most_jokers, n - 1))
            shapes.append(MeldShape(faces, offset))
            offset += len(patterns[n])

        for rank in range(1, 14):
            for missing in range(4):
                add(tuple(s << 4 | rank for s in range(4) if s != missing))
            add(tuple(s << 4 | rank for s in range(4)))
        if self.repeated_sets:
            # set_suits = "any" with two packs: sets that hold a card more than once (both
            # copies, or wild jokers standing for a card the set holds), after every set
            # of distinct suits so that those keep their numbers
            for rank in range(1, 14):
                for size in (3, 4):
                    for suits in combinations_with_replacement(range(4), size):
                        if len(set(suits)) < size:
                            add(tuple(s << 4 | rank for s in suits))
        for suit in range(4):
            for lo in range(1, ACE_HIGH + 1):
                for hi in range(lo + min_run - 1, ACE_HIGH + 1):
                    if lo == 1 and hi >= 13:
                        continue  # A..K is the run 2..A; no run holds both aces
                    add(tuple(position_face(suit, p) for p in range(lo, hi + 1)))
        if self.persian:
            patterns.setdefault(3, (0,))
            patterns.setdefault(4, (0,))
            shapes.append(MeldShape((JOKER,) * 3, offset))
            shapes.append(MeldShape((JOKER,) * 4, offset + 1))
            offset += 2
        self.meld_shapes: tuple[MeldShape, ...] = tuple(shapes)
        self.meld_count = offset
        self._shape_bases = [shape.base for shape in shapes]
        self._shape_of = {shape.faces: i for i, shape in enumerate(shapes)}
        self._patterns = patterns
        self._pattern_rank = {n: {m: i for i, m in enumerate(ms)} for n, ms in patterns.items()}

    def _meld_offset(self, pieces: tuple[int, ...]) -> int:
        faces = tuple(p - DECLARED if p >= DECLARED else p for p in pieces)
        shape = self._shape_of.get(faces)
        if shape is None:
            raise MeldError("no meld has these cards in this order")
        mask = 0
        for i, piece in enumerate(pieces):
            if piece >= DECLARED:
                mask |= 1 << i
        rank = self._pattern_rank[len(pieces)].get(mask)
        if rank is None:
            raise MeldError("more wild jokers than the pack holds, or no natural card")
        return self.meld_shapes[shape].base + rank

    def _meld_pieces(self, offset: int) -> tuple[int, ...]:
        shape = self.meld_shapes[bisect_right(self._shape_bases, offset) - 1]
        mask = self._patterns[len(shape.faces)][offset - shape.base]
        return tuple(f + DECLARED if mask >> i & 1 else f for i, f in enumerate(shape.faces))

    # -- numbers and moves ----------------------------------------------------------------

    def block(self, name: str) -> Block:
        """The block of a move kind (``"take"``, ``"meld"``, …); KeyError if not in this game."""
        return self._block[name]

    def block_of(self, action: int) -> Block:
        if not 0 <= action < self.size:
            raise InvalidMoveError(f"action {action} is outside 0..{self.size - 1}")
        return self.blocks[bisect_right(self._starts, action) - 1]

    def decode(self, action: int) -> Move:
        """The move numbered ``action``."""
        move = self._decoded.get(action)
        if move is None:
            action = int(action)
            move = self._decode(action)
            self._decoded[action] = move
        return move

    def _decode(self, action: int) -> Move:
        block = self.block_of(action)
        offset = action - block.start
        kind = block.name
        if kind in _NO_PIECES:
            return Move(kind)
        if kind == TAKE_LOWER:
            return Move(MoveKind.TAKE, (index_face(offset),), LOWER)
        if kind in _ONE_FACE:
            return Move(kind, (index_face(offset),))
        if kind in _MELDS:
            return Move(kind, self._meld_pieces(offset))
        piece, slot = divmod(offset, self.meld_slots)
        return Move(kind, (self.layoff_pieces[piece],), slot + 1)

    def encode(self, move: Move) -> int:
        """The number of ``move`` (as the engine lists it, or as :func:`parse_move` reads it).

        Raises ValueError for a move that no position of this game can have.
        """
        action = self._encoded.get(move)
        if action is None:
            action = self._encode(move)
            if self.decode(action) != move:
                raise InvalidMoveError(f"{_text(move)} is not written the way the engine lists it")
            self._encoded[move] = action
        return action

    def _has_face(self, face: int) -> bool:
        if face == JOKER:
            return self.joker_count > 0
        return 0 <= face < 64 and 1 <= face & 15 <= 13

    def _encode(self, move: Move) -> int:
        kind = move.kind
        if kind == MoveKind.TAKE and move.meld:
            block = self._block.get(TAKE_LOWER)
            if block is None or move.meld != LOWER:
                raise InvalidMoveError("a take of the lower copy (take 7h/2) is played with two "
                                       "packs only")
            face = move.pieces[0] if len(move.pieces) == 1 else -1
            if face == JOKER or not self._has_face(face):
                raise InvalidMoveError("take …/2 names one natural face")
            return block.start + face_index(face)
        block = self._block.get(kind)
        if block is None:
            raise InvalidMoveError(f"'{kind}' moves are not played with these rules")
        pieces = move.pieces
        if kind in _NO_PIECES:
            return block.start
        try:
            if kind in _ONE_FACE:
                if len(pieces) != 1 or not self._has_face(pieces[0]):
                    raise InvalidMoveError("a take or discard names one face this pack has")
                return block.start + face_index(pieces[0])
            if kind in _MELDS:
                return block.start + self._meld_offset(pieces)
            if len(pieces) != 1 or pieces[0] not in self._piece_index:
                raise InvalidMoveError("a layoff names one card this pack has")
            if not 1 <= move.meld <= self.meld_slots:
                raise InvalidMoveError(f"meld slots go from m1 to m{self.meld_slots}")
            return block.start + self._piece_index[pieces[0]] * self.meld_slots + move.meld - 1
        except ValueError as error:
            raise InvalidMoveError(f"{_text(move)} has no action number: {error}") from None

    def to_text(self, action: int) -> str:
        """The notation of the move numbered ``action``."""
        return str(self.decode(action))

    def from_text(self, text: str) -> int:
        """The number of a move written in the notation."""
        return self.encode(parse_move(text))

    # -- legal moves ----------------------------------------------------------------------

    def mask(self, moves: Iterable[Move]) -> Mask:
        """A 0/1 vector over the actions, 1 exactly for ``moves`` (say ``view.legal_moves()``)."""
        mask = np.zeros(self.size, dtype=np.int8)
        known = self._encoded
        mask[[known[m] if m in known else self.encode(m) for m in moves]] = 1
        return mask

    def actions(self, moves: Iterable[Move]) -> list[int]:
        """The numbers of ``moves``, ascending."""
        return sorted(self.encode(move) for move in moves)

    def moves(self, actions: Sequence[int] | Mask) -> list[Move]:
        """The moves of a list of numbers or of a 0/1 mask."""
        if isinstance(actions, np.ndarray):
            actions = np.flatnonzero(actions).tolist()
        return [self.decode(int(a)) for a in actions]

    def __repr__(self) -> str:
        return f"<ActionSpace {self.rules.preset} players={self.players} size={self.size}>"


def _text(move: Move) -> str:
    try:
        return f"'{move}'"
    except (IndexError, ValueError):  # pieces that are no faces
        return repr(move)


@lru_cache(maxsize=32)
def action_space(rules: Rules, players: int) -> ActionSpace:
    """The (shared) :class:`ActionSpace` of a rule set and player count."""
    return ActionSpace(rules, players)
