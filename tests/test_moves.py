"""Move notation: parse and print round trips, the canonical form, and fuzzed text."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzkit import read_or_refused
from rummy500 import Game, make_rules
from rummy500.cards import JOKER, SUIT_SYMBOLS, SUITS, make_face, rank_of, suit_of
from rummy500.melds import DECLARED, MeldError, classify, find_melds, piece_face
from rummy500.moves import (
    DISCARD,
    DRAW,
    END,
    KINDS,
    LAYOFF,
    MELD,
    PASS,
    RUMMY_LAYOFF,
    RUMMY_MELD,
    TAKE,
    InvalidMoveError,
    Move,
    canonical_meld,
    parse_move,
)
from rummy500.rules import PRESETS, Rules

NATURAL_FACES = [make_face(suit, rank) for suit in range(4) for rank in range(1, 14)]

natural_faces = st.sampled_from(NATURAL_FACES)
pieces = st.one_of(
    natural_faces,
    st.just(JOKER),
    natural_faces.map(lambda face: DECLARED + face),
)
meld_numbers = st.integers(1, 10**6)


@st.composite
def generated_moves(draw: st.DrawFn) -> Move:
    """Any move the notation can express, in canonical form."""
    kind = draw(st.sampled_from(KINDS))
    if kind in (DRAW, END, PASS):
        return Move(kind)
    if kind in (TAKE, DISCARD):
        return Move(kind, (draw(st.one_of(natural_faces, st.just(JOKER))),))
    if kind in (LAYOFF, RUMMY_LAYOFF):
        return Move(kind, (draw(pieces),), draw(meld_numbers))
    return Move(kind, canonical_meld(tuple(draw(st.lists(pieces, min_size=3, max_size=14)))))


def shuffled_text(move: Move, rng: random.Random) -> str:
    """The move written the way a careless person might: any case, 10, suit symbols."""
    words = []
    for word in str(move).split():
        is_card = len(word.removeprefix("*=")) == 2
        if is_card and rng.random() < 0.3:
            word = word.replace("T", "10")
        if is_card and rng.random() < 0.3:
            for letter, symbol in zip(SUITS, SUIT_SYMBOLS, strict=True):
                word = word[:-1] + word[-1].replace(letter, symbol)
        word = word.upper() if rng.random() < 0.5 else word.lower()
        words.append(word)
    return rng.choice([" ", "  ", "\t"]).join(words)


@given(generated_moves())
def test_generated_moves_round_trip(move: Move) -> None:
    text = str(move)
    assert parse_move(text) == move
    assert str(parse_move(text)) == text
    assert move.describe()


@given(generated_moves(), st.randoms(use_true_random=False))
def test_every_input_form_gives_the_same_move(move: Move, rng: random.Random) -> None:
    assert parse_move(shuffled_text(move, rng)) == move


@given(st.sampled_from([MELD, RUMMY_MELD]), st.lists(pieces, min_size=3, max_size=14),
       st.randoms(use_true_random=False))
def test_meld_pieces_in_any_order_give_one_canonical_text(
    kind: str, melded: list[int], rng: random.Random
) -> None:
    text = str(Move(kind, tuple(melded)))
    canonical = str(parse_move(text))
    rng.shuffle(melded)
    assert str(parse_move(str(Move(kind, tuple(melded))))) == canonical
    assert str(parse_move(canonical)) == canonical


def _run_key(move: Move) -> list[int]:
    faces = [piece_face(p) for p in move.pieces]
    high = any(rank_of(f) == 13 for f in faces)
    return [14 if rank_of(f) == 1 and high else rank_of(f) for f in faces]


@given(natural_faces.map(suit_of), st.integers(1, 12), st.integers(3, 13),
       st.randoms(use_true_random=False))
def test_runs_read_low_to_high_with_the_ace_after_the_king(
    suit: int, lo: int, length: int, rng: random.Random
) -> None:
    hi = min(lo + length - 1, 14)
    ranks = [1 if p == 14 else p for p in range(lo, hi + 1)]
    cards = [make_face(suit, r) for r in ranks]
    rng.shuffle(cards)
    move = parse_move("meld " + " ".join(str(Move(DISCARD, (c,))).split()[1] for c in cards))
    positions = _run_key(move)
    assert positions == sorted(positions)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("meld Ah Kh Qh", "meld Qh Kh Ah"),
        ("meld 3h Ah 2h", "meld Ah 2h 3h"),
        ("meld 7s 7c 7h", "meld 7c 7h 7s"),
        ("meld 10♥ j♥ Q♥", "meld Th Jh Qh"),
        ("MELD 7S *=7D 7C", "meld 7c *=7d 7s"),
        ("meld 5h 7h *=6h", "meld 5h *=6h 7h"),
        ("meld * * *", "meld * * *"),
        ("Rummy Meld 4s 6s 5s", "rummy meld 4s 5s 6s"),
        ("rummy LAYOFF 9s M2", "rummy layoff 9s m2"),
        ("layoff *=9h m12", "layoff *=9h m12"),
        ("layoff 8h M2", "layoff 8h m2"),
        ("  take   10c ", "take Tc"),
        ("discard *", "discard *"),
        ("DRAW", "draw"),
        ("End", "end"),
        ("pass", "pass"),
        ("meld 7h *=7h 8h", "meld 7h *=7h 8h"),
        ("meld *=7h 7h 8h", "meld 7h *=7h 8h"),
        ("meld 7h 7s 7h", "meld 7h 7h 7s"),
    ],
)
def test_canonical_forms(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("fly", "not a move"),
        ("draw 7h", "nothing after"),
        ("pass now", "nothing after"),
        ("take", "one card"),
        ("take 7h 8h", "one card"),
        ("discard 7x", "not a card"),
        ("meld 7h 8h", "three or more"),
        ("meld 7h 8h 9q", "not a card"),
        ("layoff 8h", "one card and a meld"),
        ("layoff 8h m0", "not a meld"),
        ("layoff 8h 2", "not a meld"),
        ("layoff 8h m", "not a meld"),
        ("layoff 8h m01", "not a meld"),
        ("layoff 8h m2 m3", "one card and a meld"),
        ("layoff *=* m1", "joker cannot stand for a joker"),
        ("meld *=7h *= 9h", "not a card"),
        ("rummy", "rummy call"),
        ("rummy discard 7h", "rummy call"),
        ("take *=6h", "not a card"),
        ("discard 7ſ", "not a card"),
    ],
)
def test_malformed_moves_are_refused_with_a_reason(text: str, words: str) -> None:
    with pytest.raises(InvalidMoveError, match=words):
        parse_move(text)


@pytest.mark.parametrize("value", [None, 7, b"draw", ["draw"], Move(DRAW)])
def test_a_move_must_be_text(value: object) -> None:
    with pytest.raises(InvalidMoveError, match="line of text"):
        parse_move(value)  # type: ignore[arg-type]


def test_invalid_move_error_is_a_value_error() -> None:
    assert issubclass(InvalidMoveError, ValueError)


FUZZ_WORDS = [
    "draw", "take", "meld", "layoff", "discard", "end", "rummy", "pass", "DRAW", "Meld",
    "7h", "Th", "10h", "th", "T♥", "1h", "11h", "ah", "As", "*", "**", "*=6h", "*=", "*=*",
    "*=10♠", "m1", "M2", "m0", "m", "m01", "mx", "3", "-", "=", "ſ", "7ſ", "\u212ah", "é",
    "m99999999999999999999",
]


def _check_fuzzed(text: str) -> None:
    move = read_or_refused(parse_move, text, InvalidMoveError)
    if move is None:
        return
    assert move.kind in KINDS
    assert parse_move(str(move)) == move
    assert str(parse_move(str(move))) == str(move)
    assert move.describe()


@given(st.lists(st.sampled_from(FUZZ_WORDS), max_size=6).map(" ".join))
def test_fuzzed_word_salad(text: str) -> None:
    _check_fuzzed(text)


@given(st.text(max_size=30))
def test_fuzzed_text(text: str) -> None:
    _check_fuzzed(text)


@given(generated_moves(), st.integers(0, 40), st.characters())
def test_fuzzed_mutations_of_good_moves(move: Move, where: int, char: str) -> None:
    text = str(move)
    where %= len(text) + 1
    _check_fuzzed(text[:where] + char + text[where:])
    _check_fuzzed(text[:where] + text[where + 1:])


# ---------------------------------------------------------------------------
# Moves from real games


def _configurations() -> Iterator[tuple[Rules, int]]:
    for rules in PRESETS.values():
        if rules.partnership:
            yield rules, 4
        else:
            yield rules, 2
            yield rules, 3
    yield make_rules("wild", rummy_calls=True, min_run=4), 3
    yield make_rules("classic", decks=2, jokers="wild"), 2


def _real_moves(rules: Rules, players: int, seed: int, positions: int) -> Iterator[Move]:
    """The legal moves of the positions of a random game, and the moves played."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    for _ in range(positions):
        if game.finished:
            break
        moves = game.legal_moves()
        yield from moves
        game.play(rng.choice(moves), check=False)


@pytest.mark.parametrize(("rules", "players"), list(_configurations()))
def test_moves_of_real_games_round_trip(rules: Rules, players: int) -> None:
    rng = random.Random(5)
    kinds = set()
    for move in _real_moves(rules, players, seed=players, positions=400):
        text = str(move)
        assert parse_move(text) == move, text
        assert parse_move(shuffled_text(move, rng)) == move, text
        if move.kind in (MELD, RUMMY_MELD):
            shuffled = list(move.pieces)
            rng.shuffle(shuffled)
            assert parse_move(str(Move(move.kind, tuple(shuffled)))) == move
            assert classify(move.pieces, rules).pieces == move.pieces
        kinds.add(move.kind)
    assert {DRAW, TAKE, DISCARD, MELD} <= kinds


# ---------------------------------------------------------------------------
# The melds a hand can make are listed once each, in canonical order


face_sets = st.sets(natural_faces, max_size=20).map(lambda fs: sum(1 << f for f in fs))
long_suits = st.builds(
    lambda suit, dropped, extra: (0x3FFE << (16 * suit) & ~dropped) | extra,
    natural_faces.map(suit_of),
    st.sets(natural_faces, max_size=2).map(lambda fs: sum(1 << f for f in fs)),
    face_sets,
)
"""Hands holding most of a suit: runs up to thirteen cards long."""


@given(
    st.one_of(face_sets, long_suits),
    st.sampled_from(["none", "wild", "persian"]),
    st.integers(0, 4),
    st.integers(3, 5),
)
def test_found_melds_are_canonical_and_distinct(
    faces: int, jokers: str, count: int, min_run: int
) -> None:
    rules = make_rules("classic", jokers=jokers, min_run=min_run)
    wild = count if jokers == "wild" else 0
    persian = count if jokers == "persian" else 0
    found = find_melds(faces, wild, persian, min_run)
    assert len(set(found)) == len(found)
    assert len({tuple(sorted(p)) for p in found}) == len(found)
    for melded in found:
        assert canonical_meld(melded) == melded
        assert classify(melded, rules).pieces == melded
        assert sum(1 for p in melded if p >= DECLARED) <= wild
        assert sum(1 for p in melded if p == JOKER) <= persian
        assert all(faces >> p & 1 for p in melded if p < DECLARED and p != JOKER)


def test_a_whole_suit_is_one_run_with_the_ace_high() -> None:
    hearts = sum(1 << make_face(2, rank) for rank in range(1, 14))
    runs = [m for m in find_melds(hearts, 0, 0, 3) if len(m) == 13]
    assert [str(Move(MELD, m)) for m in runs] == ["meld 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"]
    with_joker = [m for m in find_melds(hearts & ~(1 << make_face(2, 5)), 1, 0, 3)
                  if len(m) == 13]
    assert [str(Move(MELD, m)) for m in with_joker] == [
        "meld 2h 3h 4h *=5h 6h 7h 8h 9h Th Jh Qh Kh Ah"]


def test_classify_refuses_what_is_not_a_meld() -> None:
    rules = PRESETS["classic"]
    for text in ("meld Kh Ah 2h", "meld 7h 7h 8h", "meld 7h 8h Th", "meld 7h 8d 9h"):
        with pytest.raises(MeldError):
            classify(parse_move(text).pieces, rules)
