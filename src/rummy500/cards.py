"""Cards, card faces and card sets as int bitsets.

A *card* is an int naming one physical card of the pack:
``copy * 64 + suit * 16 + rank`` with suit 0..3 for clubs, diamonds, hearts,
spades, rank 1..13 for ace..king and copy 0 or 1 for the first or second
pack. Jokers sit in the unused rank slot 15: ``copy * 64 + j * 16 + 15`` for the
j-th joker (0..3) of that pack.

A *face* is what a card shows, independent of which pack it came from:
``suit * 16 + rank`` for a natural card and :data:`JOKER` for every joker.
Notation speaks in faces; the engine keeps cards so that every physical card is
in exactly one place.

A set of cards is an int with bit ``card`` set for every card in it; the suits
are 16 bits apart, so a suit's ranks are adjacent bits and runs fall out of
shifts and ands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .errors import CardError as CardError

SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANKS = "A23456789TJQK"
RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")

JOKER = 15
"""The face of every joker (rank slot 15 of the clubs block)."""

SUIT_BITS = 0x3FFE
"""Ranks 1..13 of one suit block."""
NATURAL_MASK = SUIT_BITS * 0x0001_0001_0001_0001
"""Every natural face of one pack."""
JOKER_MASK_ONE = 0x8000_8000_8000_8000
"""The four joker slots of one pack."""
JOKER_MASK = JOKER_MASK_ONE | JOKER_MASK_ONE << 64
NATURAL_MASK_ALL = NATURAL_MASK | NATURAL_MASK << 64


def suit_of(face: int) -> int:
    return face >> 4


def rank_of(face: int) -> int:
    return face & 15


def make_face(suit: int, rank: int) -> int:
    return suit << 4 | rank


def face_of(card: int) -> int:
    """The face a physical card shows."""
    return JOKER if card & 15 == 15 else card & 63


def is_joker(card_or_face: int) -> bool:
    return card_or_face & 15 == 15


def face_str(face: int) -> str:
    """Canonical text of a face: ``Th``, ``As``, ``7c`` or ``*``."""
    if face == JOKER:
        return "*"
    return RANKS[(face & 15) - 1] + SUITS[face >> 4]


def face_pretty(face: int) -> str:
    """A face as a person reads it: ``10♥``, ``A♠``, ``joker``."""
    if face == JOKER:
        return "joker"
    rank = face & 15
    return ("10" if rank == 10 else RANKS[rank - 1]) + SUIT_SYMBOLS[face >> 4]


# ASCII case folding only: with Unicode folding "ſ" would match "s" and "K" (Kelvin) "k".
_CARD_RE = re.compile(r"^(10|[a2-9tjqk])([cdhs♣♦♥♠])$", re.IGNORECASE | re.ASCII)


def parse_face(text: str) -> int:
    """Parse a card face: ``Th``, ``10h``, ``th``, ``T♥``, ``*``."""
    token = text.strip()
    if token == "*":
        return JOKER
    match = _CARD_RE.match(token)
    if match is None:
        raise CardError(
            f"{text!r} is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit "
            "(c d h s or ♣ ♦ ♥ ♠), like 7h or Th, or * for a joker"
        )
    rank_text, suit_text = match.group(1).upper(), match.group(2).lower()
    rank = 10 if rank_text == "10" else RANKS.index(rank_text) + 1
    suit = SUITS.index(suit_text) if suit_text in SUITS else SUIT_SYMBOLS.index(suit_text)
    return make_face(suit, rank)


def iter_bits(bits: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def faces_present(cards: int) -> int:
    """The natural faces present in a card set (copies merged, jokers dropped)."""
    return (cards | cards >> 64) & NATURAL_MASK


def faces_twice(cards: int) -> int:
    """The natural faces of which a card set holds both copies (with two packs)."""
    return cards & cards >> 64 & NATURAL_MASK


def joker_count(cards: int) -> int:
    return (cards & JOKER_MASK).bit_count()


def card_for_face(cards: int, face: int) -> int:
    """A card of ``cards`` that shows ``face`` (the first pack's copy first), or -1."""
    if face == JOKER:
        jokers = cards & JOKER_MASK
        return (jokers & -jokers).bit_length() - 1 if jokers else -1
    if cards >> face & 1:
        return face
    if cards >> (face + 64) & 1:
        return face + 64
    return -1


def make_pack(decks: int, jokers_per_deck: int) -> list[int]:
    """Every card of a pack in a fixed order: clubs A..K, diamonds, hearts, spades, jokers."""
    pack: list[int] = []
    for copy in range(decks):
        base = copy * 64
        pack.extend(base + face for face in iter_bits(NATURAL_MASK))
        pack.extend(base + j * 16 + 15 for j in range(jokers_per_deck))
    return pack


def sort_key(card: int) -> tuple[int, int]:
    """Suit-major order, jokers last."""
    face = face_of(card)
    return (4, 0) if face == JOKER else (face >> 4, face & 15)


class Cards:
    """An immutable set of cards (an int bitset) with the set protocol."""

    __slots__ = ("bits",)
    bits: int

    def __init__(self, bits: int | Iterable[int] = 0) -> None:
        if not isinstance(bits, int):
            mask = 0
            for card in bits:
                mask |= 1 << card
            bits = mask
        object.__setattr__(self, "bits", bits)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Cards is immutable")

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Cards from text such as ``"7h Kd *"``; a repeated face takes the second pack's copy."""
        bits = 0
        jokers_used = 0
        for token in text.split():
            face = parse_face(token)
            if face == JOKER:
                if jokers_used >= 8:
                    raise CardError("a pack of two decks has at most eight jokers")
                copy, j = divmod(jokers_used, 4)
                bits |= 1 << (copy * 64 + j * 16 + 15)
                jokers_used += 1
            elif not bits >> face & 1:
                bits |= 1 << face
            elif not bits >> (face + 64) & 1:
                bits |= 1 << (face + 64)
            else:
                raise CardError(f"{face_str(face)} appears more than twice")
        return cls(bits)

    def __iter__(self) -> Iterator[int]:
        return iter_bits(self.bits)

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and card >= 0 and bool(self.bits >> card & 1)

    def __bool__(self) -> bool:
        return bool(self.bits)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and other.bits == self.bits

    def __hash__(self) -> int:
        return hash(self.bits)

    def faces(self) -> list[int]:
        """Faces in suit-major order, jokers last (repeats kept)."""
        return [face_of(card) for card in sorted(self, key=sort_key)]

    def __str__(self) -> str:
        return " ".join(face_str(face) for face in self.faces())

    def __repr__(self) -> str:
        return f"Cards({self.bits:#x})"
