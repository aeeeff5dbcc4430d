"""Pairs of faces one card short of a meld, and the faces around a face, as tables.

Faces are numbered as in :mod:`rummy500.cards` (``suit << 4 | rank``); sets of faces are
bits. Everything here depends on the faces alone, so it is worked out once (or once per
set of faces, and kept) for every evaluator.
"""

from __future__ import annotations

from functools import cache

from ..melds import ACE_HIGH

PAIRS_KEPT = 50_000
"""The most face sets whose pairs are kept (then they start afresh)."""


@cache
def completions(a: int, b: int) -> tuple[int, ...]:
    """The faces that would make a meld of ``a``, ``b`` and one more card."""
    if a == b:
        return ()
    ra, rb = a & 15, b & 15
    if ra == rb:
        sa, sb = a >> 4, b >> 4
        return tuple(s << 4 | ra for s in range(4) if s != sa and s != sb)
    if a >> 4 != b >> 4:
        return ()
    suit = a >> 4
    outs: list[int] = []
    for pa in ((1, ACE_HIGH) if ra == 1 else (ra,)):
        for pb in ((1, ACE_HIGH) if rb == 1 else (rb,)):
            lo, hi = min(pa, pb), max(pa, pb)
            if hi - lo == 1:
                if lo > 1:
                    outs.append(lo - 1)
                if hi < ACE_HIGH:
                    outs.append(hi + 1)
            elif hi - lo == 2:
                outs.append(lo + 1)
    return tuple(dict.fromkeys(suit << 4 | (1 if p == ACE_HIGH else p) for p in outs))


def _partners(face: int) -> int:
    """Faces that can make a meld with ``face`` and one more card."""
    suit, rank = face >> 4, face & 15
    bits = 0
    for s in range(4):
        if s != suit:
            bits |= 1 << (s << 4 | rank)
    ranks = [rank - 2, rank - 1, rank + 1, rank + 2]
    if rank == 1:
        ranks += [12, 13]
    if rank in (12, 13):
        ranks.append(1)
    for r in ranks:
        if 1 <= r <= 13:
            bits |= 1 << (suit << 4 | r)
    return bits


PARTNERS = [_partners(face) if 1 <= face & 15 <= 13 else 0 for face in range(64)]
"""Per natural face, the faces that can make a meld with it and one more card."""
OUTS = [completions(key >> 6, key & 63) if PARTNERS[key >> 6] >> (key & 63) & 1 else ()
        for key in range(64 * 64)]
""":func:`completions` of the pair ``a << 6 | b`` (``a`` below ``b``), for partners."""
PAIRS_OF: dict[int, tuple[tuple[int, int, int, int], ...]] = {}
""":func:`pairs_of` by faces, for those met lately."""


def pairs_of(faces: int) -> tuple[tuple[int, int, int, int], ...]:
    """The pairs of ``faces`` that may make a meld with one more card, as ``(a << 6 | b, a,
    b, 1 << a | 1 << b)`` with ``a`` below ``b``, lowest first (kept for the next time)."""
    found = []
    above = faces
    while above:
        low = above & -above
        a = low.bit_length() - 1
        above ^= low
        partners = PARTNERS[a] & above
        while partners:
            low = partners & -partners
            b = low.bit_length() - 1
            partners ^= low
            found.append((a << 6 | b, a, b, low | 1 << a))
    if len(PAIRS_OF) >= PAIRS_KEPT:
        PAIRS_OF.clear()
    pairs = PAIRS_OF[faces] = tuple(found)
    return pairs


def _near(face: int) -> tuple[int, ...]:
    """The faces within two ranks of ``face`` in its suit (the ace above the king too)."""
    suit, rank = face >> 4, face & 15
    near = []
    for r in (rank - 2, rank - 1, rank + 1, rank + 2):
        if 1 <= r <= 13:
            near.append(suit << 4 | r)
        elif r == 14:
            near.append(suit << 4 | 1)
    return tuple(near)


SAME_RANK = [tuple(s << 4 | face & 15 for s in range(4) if s != face >> 4) for face in range(64)]
"""Per face, the faces of its rank in the other suits."""
NEAR = [_near(face) for face in range(64)]
"""Per face, the faces within two ranks of it in its suit."""
SAME_RANK_BITS = [sum(1 << other for other in faces) for faces in SAME_RANK]
NEAR_BITS = [sum(1 << other for other in set(faces)) for faces in NEAR]
