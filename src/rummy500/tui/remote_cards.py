"""The online seat's state, read for the local table's widgets (:mod:`.widgets`): cards
reach them as card numbers made up from the faces the server sends (copies of a card look
alike), melds as :class:`~rummy500.melds.Meld` objects, the legal moves as moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import JOKER, parse_face, rank_of
from ..errors import Rummy500Error
from ..melds import ACE_HIGH, DECLARED, JOKER_SET, RUN, SET, Meld, TableCard, piece_face
from ..moves import Move, parse_move, parse_piece


def numbered(faces: Sequence[int]) -> list[int]:
    """A card number for each face, copies told apart (``face_of`` gives the face back)."""
    seen: dict[int, int] = {}
    cards = []
    for face in faces:
        copy = seen.get(face, 0)
        seen[face] = copy + 1
        if face == JOKER:
            cards.append(JOKER + 16 * (copy % 4) + 64 * (copy // 4))
        else:
            cards.append(face + 64 * copy)
    return cards


def faces_of(texts: Sequence[str]) -> list[int]:
    return [parse_face(text) for text in texts]


def meld_of(entry: dict[str, Any]) -> Meld:
    """A meld of the state (``{"id": "m2", "cards": ["*=6h", ...], "by": [...]}``) as the
    table widgets draw it; its cards come in the meld's order."""
    pieces = [parse_piece(text) for text in entry["cards"]]
    faces = [piece_face(piece) for piece in pieces]
    jokers = 0
    cards = []
    for piece, face, seat in zip(pieces, faces, entry["by"], strict=True):
        if piece >= DECLARED or piece == JOKER:
            card = JOKER + 16 * (jokers % 4) + 64 * (jokers // 4)
            jokers += 1
        else:
            card = face
        cards.append(TableCard(card, face, int(seat), 0))
    naturals = [face for face in faces if face != JOKER]
    number = int(str(entry["id"]).lstrip("m"))
    bits = 0
    for face in faces:
        bits |= 1 << face
    if not naturals:
        return Meld(number, JOKER_SET, -1, 0, 0, 0, bits, tuple(cards), 0)
    ranks = {rank_of(face) for face in naturals}
    if len(ranks) == 1 and len(faces) <= 4 and len(set(faces)) == len(faces) and (
            len({face >> 4 for face in naturals}) == len(naturals)):
        return Meld(number, SET, -1, ranks.pop(), 0, 0, bits, tuple(cards), 0)
    high = ACE_HIGH if rank_of(faces[-1]) == 1 and len(faces) > 1 else rank_of(faces[-1])
    return Meld(number, RUN, faces[0] >> 4, rank_of(faces[0]), rank_of(faces[0]), high, bits,
                tuple(cards), 0)


def legal_moves(state: dict[str, Any]) -> list[Move]:
    moves = []
    for text in state.get("legal") or []:
        try:
            moves.append(parse_move(text))
        except Rummy500Error:
            continue
    return moves


__all__ = ["faces_of", "legal_moves", "meld_of", "numbered"]
