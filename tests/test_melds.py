"""Unit tests of :mod:`rummy500.melds`: what a meld is, what it accepts, and the meld search.

The search (:func:`find_melds`) is checked against a brute force over every subset of a
hand (:func:`classify` on each), so a meld it forgets or one it invents fails here.
"""

from __future__ import annotations

from contextlib import suppress
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500 import make_rules
from rummy500.cards import JOKER, face_str, iter_bits, parse_face
from rummy500.melds import (
    ACE_HIGH,
    DECLARED,
    IMPOSSIBLE,
    JOKER_SET,
    RUN,
    SET,
    MeldError,
    cards_needed_to_use,
    classify,
    compute_fits,
    find_melds,
    layoff_position,
)
from rummy500.rules import Rules

CLASSIC = make_rules("classic")
WILD = make_rules("wild")
PERSIAN = make_rules("persian")
NATURAL_FACES = [suit << 4 | rank for suit in range(4) for rank in range(1, 14)]


def pieces(text: str) -> tuple[int, ...]:
    """Faces of ``text``; ``*`` is an undeclared joker, ``*=6h`` a joker declared as 6h."""
    out = []
    for token in text.split():
        if token == "*":
            out.append(JOKER)
        elif token.startswith("*="):
            out.append(DECLARED + parse_face(token[2:]))
        else:
            out.append(parse_face(token))
    return tuple(out)


def words(shape_pieces: tuple[int, ...]) -> str:
    return " ".join(
        "*" if p == JOKER else ("*=" + face_str(p - DECLARED) if p >= DECLARED else face_str(p))
        for p in shape_pieces
    )


# -- classify ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "canonical", "lo", "hi"),
    [
        ("9h 7h 8h", RUN, "7h 8h 9h", 7, 9),
        ("Ah 2h 3h", RUN, "Ah 2h 3h", 1, 3),
        ("Ah Kh Qh", RUN, "Qh Kh Ah", 12, ACE_HIGH),
        ("7s 7c 7h", SET, "7c 7h 7s", 0, 0),
        ("Kd Kc Ks Kh", SET, "Kc Kd Kh Ks", 0, 0),
    ],
)
def test_classify_gives_the_canonical_shape(
    text: str, kind: int, canonical: str, lo: int, hi: int
) -> None:
    shape = classify(pieces(text), CLASSIC)
    assert shape.kind == kind
    assert words(shape.pieces) == canonical
    assert (shape.lo, shape.hi) == (lo, hi)


@pytest.mark.parametrize(
    ("rules", "text", "reason"),
    [
        (CLASSIC, "7h 8h", "a meld needs at least three cards"),
        (CLASSIC, "Kh Ah 2h", "K♥ A♥ 2♥ is not a run: runs do not go round the corner (K-A-2)"),
        (CLASSIC, "7h 8h Th", "7♥ 8♥ 10♥ is not a run: the cards of a run follow one another"),
        (CLASSIC, "7h 8d 9h", "7♥ 8♦ 9♥ is not a meld: a set is three or four cards of one "
                              "rank, a run three or more cards of one suit in sequence"),
        (CLASSIC, "7h 7h 7d", "7♥ 7♥ 7♦ is not a meld: a set holds one card of each suit, "
                              "even with two packs (set_suits = distinct)"),
        (CLASSIC, "7h 7h 8h 9h", "a meld cannot hold the same card twice"),
        (CLASSIC, "* 7h 7d", "there are no jokers in this game"),
        (WILD, "* 7h 7d", "say which card each joker stands for, like *=6h"),
        (WILD, "*=7h *=7d *=7s", "a meld needs at least one natural card besides its jokers"),
        (PERSIAN, "* * 7d", "jokers are not wild in this game: they meld only with each other"),
        (PERSIAN, "*=7h 7d 7s", "jokers are not wild in this game and cannot stand for a card"),
        (PERSIAN, "* * * * *", "a set of jokers holds at most four"),
    ],
)
def test_classify_refuses_with_the_reason(rules: Rules, text: str, reason: str) -> None:
    with pytest.raises(MeldError) as refused:
        classify(pieces(text), rules)
    assert str(refused.value) == reason


def test_a_run_needs_min_run_cards() -> None:
    four = make_rules("classic", min_run=4)
    assert classify(pieces("7h 8h 9h Th"), four).kind == RUN
    with pytest.raises(MeldError, match="a run needs at least 4 cards"):
        classify(pieces("7h 8h 9h"), four)
    # a set is not a run: three of a kind stays a meld whatever min_run is
    assert classify(pieces("7h 7d 7s"), four).kind == SET


def test_a_declared_joker_stands_in_the_run() -> None:
    shape = classify(pieces("7h *=8h 9h"), WILD)
    assert (shape.kind, shape.lo, shape.hi) == (RUN, 7, 9)
    assert words(shape.pieces) == "7h *=8h 9h"


def test_persian_jokers_meld_only_with_each_other() -> None:
    assert classify(pieces("* * *"), PERSIAN).kind == JOKER_SET
    assert classify(pieces("* * * *"), PERSIAN).kind == JOKER_SET


# -- what a meld accepts --------------------------------------------------------------------


def fits_of(text: str) -> list[str]:
    shape = classify(pieces(text), CLASSIC)
    faces = 0
    for piece in shape.pieces:
        faces |= 1 << piece
    fits = compute_fits(shape.kind, shape.suit, shape.rank, shape.lo, shape.hi, faces,
                        len(shape.pieces))
    return sorted(face_str(face) for face in iter_bits(fits))


@pytest.mark.parametrize(
    ("meld", "accepted"),
    [
        ("5h 6h 7h", ["4h", "8h"]),
        ("Ah 2h 3h", ["4h"]),           # the ace is low: nothing goes below it
        ("Qh Kh Ah", ["Jh"]),           # the ace is high: nothing goes above it
        ("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", ["Ah"]),
        ("7c 7d 7h", ["7s"]),
        ("7c 7d 7h 7s", []),            # four of a rank is closed
    ],
)
def test_compute_fits(meld: str, accepted: list[str]) -> None:
    assert fits_of(meld) == accepted


def test_an_ace_fitting_both_ends_goes_high() -> None:
    shape = classify(pieces("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"), CLASSIC)
    from rummy500.melds import Meld

    meld = Meld(1, shape.kind, shape.suit, 0, shape.lo, shape.hi, 0, (), 0)
    assert layoff_position(meld, parse_face("Ah")) == ACE_HIGH
    low = Meld(1, RUN, 2, 0, 2, 4, 0, (), 0)
    assert layoff_position(low, parse_face("Ah")) == 1


# -- the meld search against a brute force ----------------------------------------------------


def brute_force(faces: list[int], rules: Rules) -> set[tuple[int, ...]]:
    found = set()
    for size in range(3, len(faces) + 1):
        for combo in combinations(faces, size):
            with suppress(MeldError):
                found.add(classify(tuple(combo), rules).pieces)
    return found


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(NATURAL_FACES), min_size=3, max_size=9, unique=True),
       st.sampled_from([3, 4]))
def test_find_melds_finds_every_meld_and_nothing_else(faces: list[int], min_run: int) -> None:
    rules = make_rules("classic", min_run=min_run)
    bits = sum(1 << face for face in faces)
    found = find_melds(bits, 0, 0, min_run)
    assert len(found) == len(set(found)), "a meld listed twice"
    assert set(found) == brute_force(faces, rules)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(NATURAL_FACES), min_size=1, max_size=5, unique=True),
       st.integers(min_value=1, max_value=2))
def test_find_melds_with_wild_jokers_gives_only_real_melds(faces: list[int], wild: int) -> None:
    bits = sum(1 << face for face in faces)
    found = find_melds(bits, wild, 0, 3)
    assert len(found) == len(set(found))
    for meld in found:
        shape = classify(meld, WILD)
        assert shape.pieces == meld, "the search gives canonical pieces"
        naturals = [p for p in meld if p < DECLARED]
        assert all(bits >> p & 1 for p in naturals), "a natural card the hand lacks"
        assert len(meld) - len(naturals) <= wild, "more jokers than held"


def test_find_melds_with_wild_jokers_finds_the_obvious_ones() -> None:
    bits = 1 << parse_face("7h") | 1 << parse_face("8h")
    found = {words(meld) for meld in find_melds(bits, 1, 0, 3)}
    assert {"6h 7h 8h", "7h 8h 9h"} <= {w.replace("*=", "") for w in found}
    assert "7h 8h *=9h" in found and "*=6h 7h 8h" in found


def test_persian_jokers_are_found_as_sets_of_jokers() -> None:
    assert find_melds(0, 0, 2, 3) == []
    assert find_melds(0, 0, 3, 3) == [(JOKER,) * 3]
    assert find_melds(0, 0, 4, 3) == [(JOKER,) * 3, (JOKER,) * 4]


# -- how many cards it takes to use a card at once ----------------------------------------------


def faces_bits(text: str) -> int:
    return sum(1 << parse_face(token) for token in text.split())


@pytest.mark.parametrize(
    ("card", "hand", "needed"),
    [
        ("7h", "7d 7s", 3),          # a set with two of the rank held
        ("7h", "8h 9h", 3),          # a run with two neighbours held
        ("7h", "5h 6h", 3),
        ("7h", "8h Kc", IMPOSSIBLE),
        ("Ah", "Kh Qh", 3),          # the ace high
        ("Ah", "2h 3h", 3),          # the ace low
        ("Ah", "Kh 2h", IMPOSSIBLE),  # not round the corner
    ],
)
def test_cards_needed_to_use(card: str, hand: str, needed: int) -> None:
    assert cards_needed_to_use(parse_face(card), faces_bits(hand), 0, 0, [], 3) == needed


def test_a_card_that_fits_a_meld_on_the_table_is_used_alone() -> None:
    from helpers import deal_from_hands

    game = deal_from_hands(CLASSIC, ["2c 3c 4c 9d ...", "..."], up="Kd", stock="5c")
    game.play("draw")
    game.play("meld 2c 3c 4c")
    melds = game.deal.melds
    assert cards_needed_to_use(parse_face("5c"), 0, 0, 0, melds, 3) == 1
    # reached through a lay-off of 5c first: 6c needs two cards
    assert cards_needed_to_use(parse_face("6c"), faces_bits("5c"), 0, 0, melds, 3) == 2
