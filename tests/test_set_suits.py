"""Rule-book tests of RULES.md section 3, row "set": the option ``set_suits``.

``"distinct"`` (the default; 000: "one of each card of that value from each of the four
suits"): a set never holds two cards of one suit, even with two packs. ``"any"`` (001:
"suits are irrelevant"): with two packs a set may hold both copies of a card (K♠ K♠ K♥),
and a wild joker may stand for a card the set holds; a set holds at most four cards."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from helpers import deal_from_hands, legal, play
from rummy500 import make_rules
from rummy500.cards import faces_present, faces_twice, make_pack
from rummy500.melds import DECLARED, SET, MeldError, accepts, classify, find_melds
from rummy500.rules import OPTION_DOCS, RulesError
from test_random_play import play_random

ANY_FIVE = make_rules("classic", hand_size=4, set_suits="any")
"""Five players with four cards each: two packs (decks auto), suits irrelevant."""
DISTINCT_FIVE = make_rules("classic", hand_size=4)
KINGS = ["Ks Ks Kh 2c", "...", "...", "...", "..."]
ALL_KINGS = sum(1 << (suit << 4 | 13) for suit in range(4))


def test_s3_set_suits_is_one_declared_option__000_001() -> None:
    """3, set: the option is declared once, with its books and values."""
    _meaning, books, values = OPTION_DOCS["set_suits"]
    assert '001 ("suits are irrelevant")' in books and "000" in books
    assert values == "distinct or any"
    assert make_rules("classic").set_suits == "distinct"
    with pytest.raises(RulesError, match="set_suits must be 'distinct' or 'any'"):
        make_rules("classic", set_suits="mixed")
    assert make_rules("classic", set_suits="any").to_record() == {
        "preset": "classic", "set_suits": "any"}


def test_s3_set_suits_any_a_set_may_hold_both_copies_of_a_card__001_suits_irrelevant() -> None:
    """3, set, ``set_suits = "any"`` (001: "suits are irrelevant"): with two packs, K♠ K♠ K♥
    is a set, listed among the legal moves and laid down."""
    game = deal_from_hands(ANY_FIVE, KINGS, up="9c", stock="9s")
    assert len(game.deal.all_cards()) == 104
    play(game, "draw")
    assert "meld Kh Ks Ks" in legal(game)
    assert game.why_illegal("meld Ks Ks Kh") is None
    play(game, "meld Ks Ks Kh")
    meld = game.deal.melds[0]
    assert (meld.kind, meld.rank, meld.describe()) == (SET, 13, "K♥ K♠ K♠")
    assert game.deal.credit[0] == 30
    # three cards: any king may still be laid off, K♥ and K♠ too
    assert accepts(meld) == ALL_KINGS


def test_s3_set_suits_distinct_refuses_two_of_one_suit_with_the_reason__000_decided() -> None:
    """3, set, ``set_suits = "distinct"`` (the default): K♠ K♠ K♥ is refused because a set
    holds one card of each suit, not as "the same card twice"."""
    game = deal_from_hands(DISTINCT_FIVE, KINGS, up="9c", stock="9s")
    play(game, "draw")
    assert not [move for move in legal(game) if move.startswith("meld")]
    assert game.why_illegal("meld Ks Ks Kh") == (
        "K♥ K♠ K♠ is not a meld: a set holds one card of each suit, even with two packs "
        "(set_suits = distinct)")
    with pytest.raises(MeldError, match="one card of each suit"):
        classify((0x3D, 0x3D, 0x2D), DISTINCT_FIVE)


def test_s3_set_suits_a_set_still_holds_at_most_four__all() -> None:
    """3, set: at most four cards under either value."""
    kings = (0x3D, 0x3D, 0x2D, 0x2D, 0x1D)
    with pytest.raises(MeldError, match=r"a set holds at most four cards$"):
        classify(kings, ANY_FIVE)
    with pytest.raises(MeldError, match=r"a set holds at most four cards, one of each suit$"):
        classify(kings, DISTINCT_FIVE)
    assert classify(kings[:4], ANY_FIVE).pieces == (0x2D, 0x2D, 0x3D, 0x3D)
    # runs are unchanged: a run never holds a card twice
    with pytest.raises(MeldError, match="the same card twice"):
        classify((0x37, 0x37, 0x38, 0x39), ANY_FIVE)


@pytest.mark.parametrize("set_suits", ["any", "distinct"])
def test_s3_set_suits_lay_off_follows_the_same_rule__001(set_suits: str) -> None:
    """3, set: a lay-off onto a set follows ``set_suits``: under "any" the second 7♠ goes on
    7♣ 7♦ 7♠ (and closes it at four); under "distinct" it does not fit."""
    rules = make_rules("classic", hand_size=4, set_suits=set_suits)
    game = deal_from_hands(rules, ["7s 7h 3d 5h", "...", "...", "...", "..."], up="9c",
                           stock="9s", table=[(1, "7c 7s 7d")])
    play(game, "draw")
    if set_suits == "distinct":
        assert "layoff 7s m1" not in legal(game)
        assert game.why_illegal("layoff 7s m1") == "7♠ does not fit m1 (7♣ 7♦ 7♠)"
        return
    assert "layoff 7s m1" in legal(game)
    play(game, "layoff 7s m1")
    meld = game.deal.melds[0]
    assert meld.describe() == "7♣ 7♦ 7♠ 7♠"
    assert accepts(meld) == 0
    assert game.why_illegal("layoff 7h m1") == "7♥ does not fit m1 (7♣ 7♦ 7♠ 7♠)"


def test_s3_set_suits_any_lay_off_onto_a_set_holding_a_card_twice__001() -> None:
    """3, set, "any": a set laid with a card twice takes either copy's suit again."""
    game = deal_from_hands(ANY_FIVE, ["Kh 2c 3d 5h", "...", "...", "...", "..."], up="9c",
                           stock="9s", table=[(1, "Ks Ks Kh")])
    play(game, "draw")
    assert "layoff Kh m1" in legal(game)
    play(game, "layoff Kh m1")
    assert game.deal.melds[0].describe() == "K♥ K♥ K♠ K♠"


@pytest.mark.parametrize("set_suits", ["any", "distinct"])
def test_s3_set_suits_wild_joker_may_stand_for_a_card_the_set_holds__000_001(
    set_suits: str,
) -> None:
    """3, set, wild jokers: under "any" a joker may stand for a card the set holds (K♠ and
    a joker as K♠), and a joker laid off on a set may be any king; under "distinct" the
    real card a joker stands for cannot join it (000)."""
    rules = make_rules("wild", hand_size_two=4, set_suits=set_suits)
    game = deal_from_hands(rules, ["Ks Kh * 2c", "Qc Qd 4s 5s"], up="9c", stock="9s")
    play(game, "draw")
    melds = [move for move in legal(game) if move.startswith("meld")]
    if set_suits == "distinct":
        assert "meld Kh Ks *=Ks" not in melds
        assert game.why_illegal("meld Ks *=Ks Kh") == (
            "K♥ K♠ joker as K♠ is not a meld: a set holds one card of each suit, even with "
            "two packs (set_suits = distinct)")
        return
    assert {"meld Kh Ks *=Ks", "meld Kh *=Kh Ks", "meld *=Kc Kh Ks"} <= set(melds)
    assert len(melds) == len(set(melds))
    play(game, "meld Ks *=Ks Kh")
    meld = game.deal.melds[0]
    assert meld.describe() == "K♥ K♠ *=K♠"
    assert accepts(meld) == ALL_KINGS


def test_s3_set_suits_any_a_second_copy_makes_a_taken_card_usable__001() -> None:
    """3, set, "any": with the top discard to be used at once (001), K♠ may be taken from
    the pile to make K♠ K♠ K♦ with the K♠ and K♦ held; under "distinct" it may not."""
    for set_suits, allowed in (("any", True), ("distinct", False)):
        rules = make_rules("simplified", hand_size=4, set_suits=set_suits)
        game = deal_from_hands(rules, ["Ks Kd 2c 3h", "...", "...", "...", "..."],
                               up="Ks", stock="9s")
        assert ("take Ks" in legal(game)) is allowed
        if allowed:
            play(game, "take Ks")
            assert legal(game) == ["meld Kd Ks Ks"]


# -- the meld search ----------------------------------------------------------------------


def _brute_sets(hand: list[int], wild: int, rules: Any) -> set[tuple[int, ...]]:
    """Every set ``hand`` (faces, a face twice for both copies) and ``wild`` jokers make,
    found by trying every choice of cards and every card each joker may stand for."""
    found: set[tuple[int, ...]] = set()
    for rank in {face & 15 for face in hand}:
        naturals = [face for face in hand if face & 15 == rank]
        choices = naturals + [DECLARED + (s << 4 | rank) for s in range(4)
                              for _ in range(wild)]
        for size in (3, 4):
            for combo in combinations(choices, size):
                if sum(1 for p in combo if p >= DECLARED) > wild:
                    continue
                try:
                    shape = classify(combo, rules)
                except MeldError:
                    continue
                found.add(shape.pieces)
    return found


@pytest.mark.parametrize("set_suits", ["any", "distinct"])
def test_s3_set_suits_the_meld_search_finds_every_set__001(set_suits: str) -> None:
    """3, set: the meld search (legal moves, bots) finds exactly the sets ``classify``
    allows, both copies of a card and jokers standing for a held card included."""
    rng = random.Random(500)
    rules = make_rules("wild", decks=2, set_suits=set_suits)
    pack = [card for card in make_pack(2, 0) if card & 15 in (1, 7, 13)]
    for _ in range(300):
        cards = 0
        for card in rng.sample(pack, rng.randint(3, 9)):
            cards |= 1 << card
        wild = rng.choice([0, 0, 1, 2])
        faces = faces_present(cards)
        twice = faces_twice(cards)
        any_suit = set_suits == "any"
        search = find_melds(faces, wild, 0, 3, twice if any_suit else 0, any_suit)
        sets = [p for p in search if classify(p, rules).kind == SET]
        assert len(sets) == len(set(sets))
        hand = [f for f in range(64) if faces >> f & 1] + [f for f in range(64) if twice >> f & 1]
        assert set(sets) == _brute_sets(hand, wild, rules), (hex(cards), wild)


def test_s3_set_suits_any_search_lists_both_copies_without_jokers__001() -> None:
    """3, set, "any": both copies of K♠ and a K♥ are found; with "distinct" they are not."""
    faces = 1 << 0x3D | 1 << 0x2D
    twice = 1 << 0x3D
    assert find_melds(faces, 0, 0, 3, twice, True) == [(0x2D, 0x3D, 0x3D)]
    assert find_melds(faces, 0, 0, 3) == []
    assert Counter(len(p) for p in find_melds(faces | 1 << 0x1D, 0, 0, 3, twice, True)) == {
        3: 3, 4: 1}


# -- whole deals ------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "options", "players"), [
    ("classic", {}, 5),
    ("classic", {"decks": 2, "rummy_calls": True}, 3),
    ("wild", {"decks": 2}, 2),
    ("wild", {}, 3),
    ("simplified", {}, 6),
    ("persian", {"decks": 2}, 4),
])
def test_s3_set_suits_any_random_deals_keep_every_invariant__001(
    preset: str, options: dict[str, Any], players: int
) -> None:
    """3, set, "any": random whole deals keep every invariant of test_random_play (cards
    in one place, undo, the legal list against the legality check, proper melds, points)."""
    rules = make_rules(preset, set_suits="any", **options)
    seed = sum(map(ord, f"{preset}{options}{players}"))
    repeated = 0
    for deal in play_random(rules, players, 3, seed):
        assert deal.ended_by in ("went out", "stock", "declined", "idle")
        for meld in deal.melds:
            shown = [card.face for card in meld.cards]
            repeated += len(set(shown)) != len(shown)
    assert repeated, "no set held a card twice: the deals did not test the option"


@pytest.mark.parametrize("set_suits", ["any", "distinct"])
def test_s3_set_suits_the_bots_hand_evaluator_plans_sets_with_both_copies__001(
    set_suits: str,
) -> None:
    """3, set, "any": the computer players' hand evaluator plans K♠ K♠ K♥ as a meld;
    under "distinct" it does not."""
    from rummy500.bots.handeval import Evaluator
    from rummy500.scoring import points_for

    rules = make_rules("classic", decks=2, set_suits=set_suits)
    live = [2] * 64
    evaluator = Evaluator(rules, points_for(rules), [], live, 104, [0] * 64, draws=6.0,
                          stuck=0.5)
    kings = 1 << 0x3D | 1 << (0x3D + 64) | 1 << 0x2D
    _value, plan = evaluator.plan(kings | 1 << 0x02)
    assert plan == ([(0x2D, 0x3D, 0x3D)] if set_suits == "any" else [])
