"""Shapes of face sets that a bot weighs: the faces near some, the faces that would
complete a meld or make one of three (faces as bits, see
:mod:`rummy500.cards`)."""

from __future__ import annotations

from ..cards import iter_bits
from .context import suited
from .face_pairs import PARTNERS, completions


def neighbourhood(faces: int) -> int:
    """Faces of the same rank as, or within two ranks in suit of, any of ``faces``."""
    near = 0
    for face in iter_bits(faces):
        suit, rank = face >> 4, face & 15
        for s in range(4):
            near |= 1 << (s << 4 | rank)
        for r in (rank - 2, rank - 1, rank + 1, rank + 2):
            f = suited(suit, r)
            if f >= 0:
                near |= 1 << f
        if rank in (1, 2, 12, 13):
            for r in (1, 2, 3, 12, 13):
                near |= 1 << (suit << 4 | r)
    return near


def outs(faces: int) -> int:
    """Faces that would complete a meld with two of ``faces``."""
    found = _OUTS.get(faces)
    if found is not None:
        return found
    found = 0
    for a in iter_bits(faces):
        partners = PARTNERS[a] & faces & ~((2 << a) - 1)
        for b in iter_bits(partners):
            for face in completions(a, b):
                found |= 1 << face
    if len(_OUTS) >= OUTS_KEPT:
        _OUTS.clear()
    _OUTS[faces] = found
    return found


OUTS_KEPT = 50_000
"""The most face sets whose :func:`outs` are kept (then they start afresh)."""
_OUTS: dict[int, int] = {}


def makes_meld(face: int, faces: int) -> bool:
    """Whether ``face`` makes a meld of three with two of ``faces`` (runs of three)."""
    suit, rank = face >> 4, face & 15
    same = 0
    for s in range(4):
        if s != suit and faces >> (s << 4 | rank) & 1:
            same += 1
    if same >= 2:
        return True
    bits = faces >> (suit << 4) & 0x3FFE
    ext = bits | (bits & 2) << 13
    for pos in ((1, 14) if rank == 1 else (rank,)):
        below2 = pos >= 3 and ext >> (pos - 2) & 1
        below1 = pos >= 2 and ext >> (pos - 1) & 1
        above1 = pos <= 13 and ext >> (pos + 1) & 1
        above2 = pos <= 12 and ext >> (pos + 2) & 1
        if (below2 and below1) or (below1 and above1) or (above1 and above2):
            return True
    return False
