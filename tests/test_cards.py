"""Cards and card sets: every text form of NOTATION.md, round trips, the bitset helpers."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzkit import read_or_refused
from rummy500.cards import (
    JOKER,
    JOKER_MASK,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    CardError,
    Cards,
    card_for_face,
    face_of,
    face_pretty,
    face_str,
    faces_present,
    is_joker,
    iter_bits,
    joker_count,
    make_face,
    make_pack,
    parse_face,
    rank_of,
    suit_of,
)

NATURAL_FACES = [make_face(suit, rank) for suit in range(4) for rank in range(1, 14)]
ALL_FACES = [*NATURAL_FACES, JOKER]
ALL_CARDS = make_pack(2, 4)
"""Every physical card there can be: two packs, four jokers each."""

natural_faces = st.sampled_from(NATURAL_FACES)
faces = st.sampled_from(ALL_FACES)


@st.composite
def face_texts(draw: st.DrawFn) -> tuple[int, str]:
    """A natural face and one of the ways a person may write it."""
    face = draw(natural_faces)
    rank, suit = rank_of(face), suit_of(face)
    rank_forms = [RANKS[rank - 1], RANKS[rank - 1].lower()]
    if rank == 10:
        rank_forms.append("10")
    suit_forms = [SUITS[suit], SUITS[suit].upper(), SUIT_SYMBOLS[suit]]
    text = draw(st.sampled_from(rank_forms)) + draw(st.sampled_from(suit_forms))
    pad = st.sampled_from(["", " ", "\t", "  "])
    return face, draw(pad) + text + draw(pad)


def test_every_face_round_trips() -> None:
    for face in ALL_FACES:
        assert parse_face(face_str(face)) == face
    assert len({face_str(face) for face in ALL_FACES}) == 53


def test_canonical_text() -> None:
    assert face_str(make_face(2, 10)) == "Th"
    assert face_str(make_face(3, 1)) == "As"
    assert face_str(make_face(0, 7)) == "7c"
    assert face_str(JOKER) == "*"
    assert face_pretty(make_face(2, 10)) == "10♥"
    assert face_pretty(JOKER) == "joker"


@given(face_texts())
def test_every_input_form_parses(case: tuple[int, str]) -> None:
    face, text = case
    assert parse_face(text) == face


@given(natural_faces)
def test_pretty_form_parses_back(face: int) -> None:
    assert parse_face(face_pretty(face)) == face


@given(st.text(max_size=6))
def test_fuzzed_face_text_is_refused_with_a_card_error(text: str) -> None:
    face = read_or_refused(parse_face, text, CardError)
    if face is None:
        return
    assert face in ALL_FACES
    # Whatever parsed is one of the documented spellings of that face.
    token = text.strip().replace("10", "T").upper()
    expected = face_str(face).upper()
    if face != JOKER:
        symbol = SUIT_SYMBOLS[suit_of(face)]
        assert token in (expected, expected[0] + symbol)
    else:
        assert token == "*"


@pytest.mark.parametrize(
    "text",
    ["", "*=6h", "1h", "11h", "0c", "7x", "h7", "7hh", "Ks s", "jo", "**", "7ſ", "K\u212a",
     "\u212ah", "7\u017f", "ⅹh"],
)
def test_malformed_faces(text: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_face(text)


def test_face_and_card_helpers() -> None:
    for card in ALL_CARDS:
        face = face_of(card)
        assert face in ALL_FACES
        assert is_joker(card) == (face == JOKER)
        if face != JOKER:
            assert card % 64 == face
            assert suit_of(face) in range(4) and rank_of(face) in range(1, 14)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("jokers", [0, 2, 4])
def test_make_pack(decks: int, jokers: int) -> None:
    pack = make_pack(decks, jokers)
    assert len(pack) == len(set(pack)) == decks * (52 + jokers)
    counts = Counter(face_of(card) for card in pack)
    assert all(counts[face] == decks for face in NATURAL_FACES)
    assert counts[JOKER] == decks * jokers


card_sets = st.sets(st.sampled_from(ALL_CARDS), max_size=40).map(
    lambda cards: sum(1 << card for card in cards)
)


@given(card_sets)
def test_iter_bits_and_counts(bits: int) -> None:
    cards = list(iter_bits(bits))
    assert cards == sorted(cards)
    assert sum(1 << card for card in cards) == bits
    assert joker_count(bits) == sum(1 for card in cards if is_joker(card))
    assert faces_present(bits) == sum(
        {1 << face_of(card) for card in cards if not is_joker(card)}
    )
    assert (bits & JOKER_MASK).bit_count() == joker_count(bits)


@given(card_sets, faces)
def test_card_for_face(bits: int, face: int) -> None:
    card = card_for_face(bits, face)
    holders = [c for c in iter_bits(bits) if face_of(c) == face]
    if not holders:
        assert card == -1
    else:
        assert card == min(holders)


@given(card_sets)
def test_cards_text_round_trip_keeps_the_faces(bits: int) -> None:
    cards = Cards(bits)
    again = Cards.parse(str(cards))
    assert sorted(again.faces()) == sorted(cards.faces())
    assert str(again) == str(cards)


@st.composite
def canonical_card_sets(draw: st.DrawFn) -> int:
    """A card set as ``Cards.parse`` builds it: first copies before second ones, jokers in order."""
    bits = 0
    for face in NATURAL_FACES:
        copies = draw(st.integers(0, 2))
        for copy in range(copies):
            bits |= 1 << (copy * 64 + face)
    for index in range(draw(st.integers(0, 8))):
        copy, slot = divmod(index, 4)
        bits |= 1 << (copy * 64 + slot * 16 + 15)
    return bits


@given(canonical_card_sets())
def test_cards_parse_str_round_trip(bits: int) -> None:
    cards = Cards(bits)
    assert Cards.parse(str(cards)) == cards


@given(card_sets)
def test_cards_set_protocol(bits: int) -> None:
    cards = Cards(bits)
    members = list(iter_bits(bits))
    assert list(cards) == members
    assert len(cards) == len(members)
    assert bool(cards) == bool(members)
    for card in ALL_CARDS:
        assert (card in cards) == (card in members)
    assert -1 not in cards and "7h" not in cards
    assert eval(repr(cards), {"Cards": Cards}) == cards
    assert hash(Cards(members)) == hash(cards) and Cards(members) == cards
    assert cards.faces() == sorted(
        cards.faces(), key=lambda f: (4, 0) if f == JOKER else (f >> 4, f & 15))


def test_cards_is_immutable() -> None:
    cards = Cards.parse("7h Kd")
    with pytest.raises(AttributeError):
        cards.bits = 0


def test_cards_parse_copies_and_limits() -> None:
    assert list(Cards.parse("7h 7h")) == [make_face(2, 7), 64 + make_face(2, 7)]
    with pytest.raises(CardError, match="more than twice"):
        Cards.parse("7h 7h 7♥")
    with pytest.raises(CardError, match="eight jokers"):
        Cards.parse("* " * 9)
    assert str(Cards.parse("10♥ kd *  ac")) == "Ac Kd Th *"


@given(st.lists(st.sampled_from(["7h", "7H", "10♥", "*", "Kd", "ks", "x", "1c", "**", "7ſ", "Th"])
                | st.text(max_size=12), max_size=20).map(" ".join))
def test_fuzzed_card_lists_are_read_or_refused(text: str) -> None:
    try:
        cards = Cards.parse(text)
    except CardError as error:
        assert str(error)
        return
    assert len(cards) == len(text.split())
    assert Cards.parse(str(cards)) == cards
