"""Rule-book tests of RULES.md section 3 (melds: sets, runs, aces, lay-offs onto lay-offs,
which meld, wild and Persian jokers). Each test names the row and the books behind it."""

from __future__ import annotations

import pytest

from helpers import deal_from_hands, faces, legal, play
from rummy500 import make_rules
from rummy500.cards import face_str
from rummy500.melds import JOKER_SET, RUN, SET, accepts

FIVE = make_rules("classic", hand_size=4)
"""Five players with four cards each: two packs (decks auto)."""


def accepted(game_meld_faces: int) -> list[str]:
    from rummy500.cards import iter_bits

    return sorted(face_str(face) for face in iter_bits(game_meld_faces))


# -- sets --------------------------------------------------------------------------------------


def test_s3_set_three_or_four_of_a_rank__all() -> None:
    """3, set: "3 or 4 cards of one rank (all)"."""
    rules = make_rules("classic", hand_size_two=4)
    game = deal_from_hands(rules, ["7h 7d 7s 7c", "Kc Qd 4s 2h"], up="9c", stock="3d")
    play(game, "draw")
    melds = [move for move in legal(game) if move.startswith("meld")]
    assert melds == ["meld 7c 7d 7h", "meld 7c 7d 7h 7s", "meld 7c 7d 7s", "meld 7c 7h 7s",
                     "meld 7d 7h 7s"]
    play(game, "meld 7s 7c 7h 7d")
    meld = game.deal.melds[0]
    assert (meld.kind, meld.rank) == (SET, 7)
    assert meld.describe() == "7♣ 7♦ 7♥ 7♠"
    assert game.deal.credit[0] == 28


def test_s3_set_never_two_of_one_suit_even_with_two_packs__000_001_decided() -> None:
    """3, set: "at most four, one of each suit (000, 001)"; **decided**: a set never holds
    two cards of one suit, even with two packs."""
    game = deal_from_hands(FIVE, ["7h 7h 7d 2c", "...", "...", "...", "..."], up="9c",
                           stock="9s", table=[(1, "7c 7s 7d")])
    assert len(game.deal.all_cards()) == 104
    play(game, "draw")
    assert legal(game) == ["discard 2c", "discard 7d", "discard 7h", "discard 9s",
                           "layoff 7h m1"]
    assert game.why_illegal("meld 7h 7h 7d") == (
        "7♦ 7♥ 7♥ is not a meld: a set holds one card of each suit, even with two packs "
        "(set_suits = distinct)")
    assert game.why_illegal("layoff 7d m1") == "7♦ does not fit m1 (7♣ 7♦ 7♠)"
    play(game, "layoff 7h m1")
    # the set has four, one of each suit: it is closed, the second 7♥ fits nowhere
    assert accepts(game.deal.melds[0]) == 0
    assert game.why_illegal("layoff 7h m1") == "7♥ does not fit m1 (7♣ 7♦ 7♥ 7♠)"
    assert legal(game) == ["discard 2c", "discard 7d", "discard 7h", "discard 9s"]


def test_s3_set_of_four_is_closed__000_004() -> None:
    """3, which meld: "a set that reaches four is closed (000, 004)"."""
    rules = make_rules("classic", hand_size_two=3)
    game = deal_from_hands(rules, ["Jd 2c 3d", "Kc Qd 4s"], up="9c", stock="5s",
                           table=[(1, "Jc Jh Js")])
    play(game, "draw", "layoff Jd m1")
    assert accepts(game.deal.melds[0]) == 0
    assert len(game.deal.melds[0].cards) == 4


# -- runs --------------------------------------------------------------------------------------


def test_s3_run_three_or_more_of_one_suit_in_sequence__000_001_002_003() -> None:
    """3, run: "3 or more consecutive cards of one suit (000, 001, 002, 003)"; `min_run` 3."""
    rules = make_rules("classic", hand_size_two=5)
    game = deal_from_hands(rules, ["4h 5h 6h 7h 9c", "Kc Qd 4s 2h 3h"], up="9d", stock="Tc")
    play(game, "draw")
    melds = [move for move in legal(game) if move.startswith("meld")]
    assert melds == ["meld 4h 5h 6h", "meld 4h 5h 6h 7h", "meld 5h 6h 7h"]
    assert game.why_illegal("meld 4h 5h 7h") == (
        "4♥ 5♥ 7♥ is not a run: the cards of a run follow one another")
    assert str(game.why_illegal("meld 4h 5h 9c")).endswith(
        "is not a meld: a set is three or four cards of one rank, "
        "a run three or more cards of one suit in sequence")
    play(game, "meld 7h 5h 4h 6h")
    meld = game.deal.melds[0]
    assert (meld.kind, meld.lo, meld.hi) == (RUN, 4, 7)
    assert accepted(accepts(meld)) == ["3h", "8h"]


def test_s3_run_min_run_four__004() -> None:
    """3, run: "004 once says 'four or more'": `min_run` 4 refuses runs of three (sets of three
    stay legal)."""
    rules = make_rules("classic", hand_size_two=5, min_run=4)
    game = deal_from_hands(rules, ["4h 5h 6h 7h 9c", "9d 9s Qd 4s 2h"], up="Jc", stock="9h")
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith("meld")] == ["meld 4h 5h 6h 7h"]
    assert game.why_illegal("meld 4h 5h 6h") == (
        "4♥ 5♥ 6♥ is not a meld: a run needs at least 4 cards")
    sets = deal_from_hands(rules, ["9c 9d 9s 2c 3d", "Kc Qd 4s 2h 3h"], up="Jc", stock="8h")
    play(sets, "draw")
    assert [m for m in legal(sets) if m.startswith("meld")] == ["meld 9c 9d 9s"]


def test_s3_ace_low_or_high_never_round_the_corner__all() -> None:
    """3, ace in a run: "low (A-2-3) or high (Q-K-A); never around the corner: K-A-2 is not a
    run (all)"."""
    rules = make_rules("classic", hand_size_two=5)
    game = deal_from_hands(rules, ["Qh Kh Ah 2h 3h", "Kc Qd 4s 2c 3c"], up="9d", stock="9c")
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith("meld")] == [
        "meld Ah 2h 3h", "meld Qh Kh Ah"]
    assert str(game.why_illegal("meld Kh Ah 2h")).endswith(
        "is not a run: runs do not go round the corner (K-A-2)")
    play(game, "meld Ah Kh Qh")
    meld = game.deal.melds[0]
    assert (meld.lo, meld.hi) == (12, 14)
    assert meld.describe() == "Q♥ K♥ A♥"
    # the ace is high: the run can only grow downwards
    assert accepted(accepts(meld)) == ["Jh"]
    assert game.why_illegal("layoff 2h m1") == "2♥ does not fit m1 (Q♥ K♥ A♥)"


def test_s3_ace_laid_off_low_or_high_by_place__000_004_decided() -> None:
    """3, ace in a run: an ace laid off below a 2 is low, above a king high; on 2-…-K it goes
    high (**decided**), and a run never holds both aces, even with two packs."""
    rules = make_rules("classic", hand_size=3, decks=2)
    game = deal_from_hands(
        rules, ["As Ah Ah", "...", "..."], up="9c", stock="Ad",
        table=[(1, "2s 3s 4s"), (1, "Jh Qh Kh"),
               (1, "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd")])
    play(game, "draw")
    assert legal(game) == ["discard Ad", "discard Ah", "discard As", "layoff Ad m3",
                           "layoff Ah m2", "layoff As m1", "meld Ad Ah As"]
    play(game, "layoff As m1", "layoff Ah m2", "layoff Ad m3")
    melds = game.deal.melds
    assert (melds[0].lo, melds[0].hi) == (1, 4)
    assert (melds[1].lo, melds[1].hi) == (11, 14)
    assert (melds[2].lo, melds[2].hi) == (2, 14)
    assert [card.points for card in (m.cards[-1] for m in melds)] == [1, 15, 15]
    assert accepted(accepts(melds[1])) == ["Th"]
    assert accepts(melds[2]) == 0
    # the second A♥ fits neither end of J♥ Q♥ K♥ A♥: no run holds both aces
    assert legal(game) == ["discard Ah"]


def test_s3_lay_off_onto_a_lay_off__002() -> None:
    """3, lay-off onto a lay-off: "a 7 laid off on 6-5-4 can then take an 8 (002)"; melds grow
    and any end may be extended."""
    rules = make_rules("classic", hand_size_two=3)
    game = deal_from_hands(rules, ["7s 8s 3s", "Kc Qd 2h"], up="9c", stock="Jd",
                           table=[(1, "6s 5s 4s")])
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith("layoff")] == ["layoff 3s m1",
                                                                   "layoff 7s m1"]
    assert game.why_illegal("layoff 8s m1") == "8♠ does not fit m1 (4♠ 5♠ 6♠)"
    play(game, "layoff 7s m1")
    assert [m for m in legal(game) if m.startswith("layoff")] == ["layoff 3s m1",
                                                                   "layoff 8s m1"]
    play(game, "layoff 8s m1", "layoff 3s m1")
    assert game.deal.melds[0].describe() == "3♠ 4♠ 5♠ 6♠ 7♠ 8♠"
    assert accepted(accepts(game.deal.melds[0])) == ["2s", "9s"]
    assert game.deal.credit == [18, 15]


@pytest.mark.parametrize(("target", "then_king"), [("m1", True), ("m2", False)])
def test_s3_card_fitting_two_melds_goes_where_named__000_004(target: str, then_king: bool) -> None:
    """3, which meld: "a card that fits two melds goes to the one the player names" (004's
    example: with J♦ 10♦ 9♦ and Q♠ Q♥ Q♣ down, Q♦ on the run lets K♦ follow; on the set it
    closes the set)."""
    rules = make_rules("classic", hand_size_two=3)
    game = deal_from_hands(rules, ["Qd Kd 2c", "Kc 5d 4s"], up="3h", stock="7c",
                           table=[(1, "Jd Td 9d"), (1, "Qs Qh Qc")])
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith("layoff")] == ["layoff Qd m1",
                                                                   "layoff Qd m2"]
    play(game, f"layoff Qd {target}")
    layoffs = [m for m in legal(game) if m.startswith("layoff")]
    assert layoffs == (["layoff Kd m1"] if then_king else [])
    placed = game.deal.melds[0 if then_king else 1]
    assert placed.cards[-1].seat == 0
    assert "Q♦" in placed.describe()


# -- wild jokers -------------------------------------------------------------------------------


WILD = make_rules("wild", hand_size_two=4)


def test_s3_wild_joker_declared_exact_card__000() -> None:
    """3, wild joker: "stands for any card; the player declares exactly which card"
    (notation `*=6h`); an undeclared joker is refused."""
    game = deal_from_hands(WILD, ["5h * 7h 2c", "Kc Qd 4s 3s"], up="9c", stock="9d")
    play(game, "draw")
    assert legal(game) == ["discard *", "discard 2c", "discard 5h", "discard 7h", "discard 9d",
                           "meld 5h *=6h 7h"]
    assert game.why_illegal("meld 5h * 7h") == "say which card each joker stands for, like *=6h"
    assert game.why_illegal("meld 5h *=8h 7h") == (
        "5♥ 7♥ joker as 8♥ is not a run: the cards of a run follow one another")
    play(game, "meld 7h 5h *=6h")
    meld = game.deal.melds[0]
    assert meld.describe() == "5♥ *=6♥ 7♥"
    assert accepted(accepts(meld)) == ["4h", "8h"]
    assert game.deal.credit[0] == 5 + 15 + 7


def test_s3_wild_jokers_every_meld_they_can_make__000() -> None:
    """3, wild joker: "stands for any card": with 5♥ 7♥ and two jokers, every run and set a
    declared joker can complete is offered, and nothing else (a meld holds a natural card)."""
    rules = make_rules("wild", hand_size_two=3)
    game = deal_from_hands(rules, ["5h 7h *", "Kc Qd 4s"], up="9c", stock="*")
    play(game, "draw")
    assert legal(game) == [
        "discard *", "discard 5h", "discard 7h",
        "meld *=3h *=4h 5h", "meld *=4h 5h *=6h", "meld *=4h 5h *=6h 7h",
        "meld *=5c *=5d 5h", "meld *=5c 5h *=5s", "meld *=5d 5h *=5s",
        "meld *=5h *=6h 7h", "meld *=6h 7h *=8h",
        "meld *=7c *=7d 7h", "meld *=7c 7h *=7s", "meld *=7d 7h *=7s",
        "meld 5h *=6h *=7h", "meld 5h *=6h 7h", "meld 5h *=6h 7h *=8h",
        "meld 7h *=8h *=9h"]


def test_s3_wild_joker_real_card_cannot_join_that_meld__000() -> None:
    """3, wild joker: "the real card it stands for can then not be added to that meld (000)",
    in a run and in a set."""
    game = deal_from_hands(WILD, ["6h 8h 8s 2c", "Kc Qd 4s 3s"], up="9c", stock="9d",
                           table=[(1, "5h *=6h 7h"), (1, "8c 8d *=8h")])
    play(game, "draw")
    assert legal(game) == ["discard 2c", "discard 6h", "discard 8h", "discard 8s", "discard 9d",
                           "layoff 8h m1", "layoff 8s m2"]
    assert game.why_illegal("layoff 6h m1") == "6♥ does not fit m1 (5♥ *=6♥ 7♥)"
    assert game.why_illegal("layoff 8h m2") == "8♥ does not fit m2 (8♣ 8♦ *=8♥)"


def test_s3_wild_joker_declaration_never_changes__000() -> None:
    """3, wild joker: "that never changes": the joker keeps standing for its card as the meld
    grows, and a joker laid off says its card too (`layoff *=9h m2`)."""
    game = deal_from_hands(WILD, ["8h * 2c 3d", "Kc Qd 4s 3s"], up="9c", stock="9d",
                           table=[(1, "5h *=6h 7h")])
    play(game, "draw")
    assert game.why_illegal("layoff * m1") == "say which card the joker stands for, like *=9h"
    assert "layoff *=4h m1" in legal(game)
    assert "layoff *=8h m1" in legal(game)
    play(game, "layoff 8h m1", "layoff *=9h m1")
    meld = game.deal.melds[0]
    assert meld.describe() == "5♥ *=6♥ 7♥ 8♥ *=9♥"
    assert [(face_str(card.face), card.seat, card.points) for card in meld.cards] == [
        ("5h", 1, 5), ("6h", 1, 15), ("7h", 1, 7), ("8h", 0, 8), ("9h", 0, 15)]
    assert game.why_illegal("meld *=2h *=3h *=4h") is not None


def test_s3_wild_meld_needs_a_natural_card__decided() -> None:
    """3, wild joker (**decided** in docs/rules-decisions.md): a new meld holds at least one
    natural card."""
    rules = make_rules("wild", hand_size_two=4, jokers_per_deck=4)
    game = deal_from_hands(rules, ["* * * 2c", "Kc Qd 4s 3s"], up="9c", stock="9d")
    play(game, "draw")
    assert game.why_illegal("meld *=5h *=6h *=7h") == (
        "a meld needs at least one natural card besides its jokers")
    melds = [m for m in legal(game) if m.startswith("meld")]
    assert melds
    assert all(any(not piece.startswith("*") for piece in m.split()[1:]) for m in melds)


# -- Persian jokers ----------------------------------------------------------------------------


PERSIAN = make_rules("persian", hand_size=5)


def test_s3_persian_joker_only_in_joker_sets_of_three_or_four__001_004() -> None:
    """3, Persian joker: "not wild, never in runs; melded only as a set of 3 or 4 jokers
    (001, 004)"."""
    game = deal_from_hands(PERSIAN, ["* * 4h 5h 2c", "...", "...", "..."], up="9c", stock="*",
                           table=[(1, "6h 7h 8h")])
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith(("meld", "layoff"))] == [
        "layoff 5h m1", "meld * * *"]
    assert game.why_illegal("meld 4h 5h *") == (
        "jokers are not wild in this game: they meld only with each other")
    assert game.why_illegal("meld 4h 5h *=6h") == (
        "jokers are not wild in this game and cannot stand for a card")
    assert game.why_illegal("layoff * m1") == (
        "jokers are not wild in this game: they go only on a set of jokers")
    play(game, "meld * * *")
    meld = game.deal.melds[1]
    assert meld.kind == JOKER_SET
    assert meld.describe() == "* * *"


def test_s3_persian_fourth_joker_laid_off_then_closed__001_004() -> None:
    """3, Persian joker: a set of three jokers takes a fourth (laid off), then no more."""
    rules = make_rules("persian", hand_size=5, decks=2)
    game = deal_from_hands(rules, ["* * 2c 3d 4s", "...", "...", "..."], up="9c", stock="Kd",
                           table=[(1, "* * *")])
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith(("meld", "layoff"))] == ["layoff * m1"]
    play(game, "layoff * m1")
    assert accepts(game.deal.melds[0]) == 0
    assert game.why_illegal("layoff * m1") == "m1 already holds four jokers"
    assert faces(game.deal.hands[0]).count("*") == 1
