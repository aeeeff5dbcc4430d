"""Physical copies of a card do not leak (issue 9, item 1): with two packs, or two or more
jokers, the two copies of a face are one card to every player. Two games whose packs
differ only in which copy of a face lies where are the same game to every seat: every
move is legal in both, and every view is the same once cards are read as faces."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500 import Game, make_rules
from rummy500.cards import face_of, iter_bits, make_pack
from rummy500.view import PlayerView

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {"decks": 2}, 2),
    ("classic", {"decks": 2, "stock_exhausted": "reshuffle"}, 3),
    ("simplified", {"decks": 2, "top_discard_must_be_used": False}, 2),
    ("wild", {}, 2),
    ("wild", {"decks": 2, "stock_exhausted": "reshuffle"}, 2),
    ("wild", {"decks": 2, "rummy_calls": True}, 3),
    ("persian", {}, 4),
    ("persian", {"decks": 2}, 4),
]


def faces(cards: int) -> list[int]:
    return sorted(face_of(card) for card in iter_bits(cards))


def public(view: PlayerView) -> tuple[Any, ...]:
    """Everything a view says, with every card read as its face."""
    return (view.seat, faces(view.hand), view.hand_sizes, view.stock_count,
            [face_of(card) for card in view.pile],
            [(m.number, m.kind, m.lo, m.hi, [(c.face, c.seat, c.points) for c in m.cards])
             for m in view.melds],
            [faces(known) for known in view.known], faces(view.unseen()), view.credit,
            [str(move) for move in view.history], view.turn, view.phase,
            face_of(view.must_use) if view.must_use >= 0 else None,
            view.totals, sorted(str(move) for move in view.legal_moves()))


def relabel(pack: list[int], rng: random.Random) -> dict[int, int]:
    """A random exchange of cards of the same face (copies of one card, or jokers)."""
    by_face: dict[int, list[int]] = {}
    for card in pack:
        by_face.setdefault(face_of(card), []).append(card)
    mapping: dict[int, int] = {}
    for copies in by_face.values():
        shuffled = copies[:]
        rng.shuffle(shuffled)
        mapping.update(zip(copies, shuffled, strict=True))
    return mapping


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31), swap=st.integers(0, 2**31),
       moves=st.integers(1, 160))
def test_which_copy_lies_where_is_invisible(config: tuple[str, dict[str, Any], int], seed: int,
                                            swap: int, moves: int) -> None:
    preset, options, players = config
    rules = make_rules(preset, **options)
    pack = make_pack(rules.deck_count(players), rules.jokers_in_each_deck)
    assert len(pack) > len({face_of(card) for card in pack})  # some face has two copies
    rng = random.Random(seed)
    deck = pack[:]
    rng.shuffle(deck)
    mapping = relabel(pack, random.Random(swap))
    one = Game(rules, players, seed=seed, dealer=0, auto_deal=False)
    two = Game(rules, players, seed=seed, dealer=0, auto_deal=False)
    one.start_deal(deck)
    two.start_deal([mapping[card] for card in deck])
    chooser = random.Random(swap ^ seed)
    for _ in range(moves):
        if one.deal.over:
            break
        for seat in range(players):
            assert public(one.view(seat)) == public(two.view(seat)), seat
        move = chooser.choice(one.legal_moves())
        assert two.why_illegal(str(move)) is None, str(move)
        one.play(str(move))
        two.play(str(move))
    for seat in range(players):
        assert public(one.view(seat)) == public(two.view(seat)), seat
