"""Rule-book tests of RULES.md section 2 (a turn: draw, the card taken must be used, meld
and lay off, discard). Each test names the point it checks and the books behind it."""

from __future__ import annotations

import pytest

from helpers import deal_from_hands, face_text, faces, legal, play
from rummy500 import IllegalMoveError, make_rules

TWO = make_rules("classic", hand_size_two=3)
"""Classic rules with three cards each, for small exact positions."""


# -- 2.1 draw ----------------------------------------------------------------------------------


def test_s2_1_draw_exactly_once_top_of_stock__all() -> None:
    """2.1: "Draw exactly once: the top card of the stock, or any card of the discard pile
    together with every card above it (all books)"."""
    game = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", stock="5c 6c",
                           pile="4d Jh")
    deal = game.deal
    assert legal(game) == ["draw", "take Jh"]
    assert game.why_illegal("discard 2s") == (
        "draw first: the top card of the stock, or cards from the discard pile")
    play(game, "draw")
    assert faces(deal.hands[0]) == face_text("7h 7d 2s 5c")
    assert len(deal.stock) == 52 - 6 - 1 - 2 - 1  # dealt, up-card, pile, drawn
    for second in ("draw", "take Jh", "take 9c"):
        assert game.why_illegal(second) == "you have already drawn this turn"
    with pytest.raises(IllegalMoveError, match="already drawn"):
        game.play("draw")
    assert legal(game) == ["discard 2s", "discard 5c", "discard 7d", "discard 7h"]


def test_s2_1_take_any_pile_card_with_all_above__all() -> None:
    """2.1: any card of the pile is taken together with every card above it; the cards
    below stay in the pile in order."""
    game = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="7s Kh 3c")
    deal = game.deal
    assert legal(game) == ["draw", "take 3c", "take 7s"]
    play(game, "take 7s")
    assert faces(deal.hands[0]) == face_text("7h 7d 2s 7s Kh 3c")
    assert faces(deal.pile) == ["9c"]
    assert faces(deal.known[0]) == face_text("7s Kh 3c")
    assert deal.phase == "play"


def test_s2_1_pile_is_fanned_every_card_visible__all() -> None:
    """2.1: "The discard pile is fanned: every card in it is visible to everyone"."""
    game = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="7s Kh 3c")
    for seat in (0, 1):
        view = game.view(seat)
        assert view.pile == tuple(game.deal.pile)
        assert faces(view.pile) == face_text("9c 7s Kh 3c")
    play(game, "take 3c")
    # what was taken from the pile is known to everyone while it stays in hand
    assert faces(game.view(1).known[0]) == ["3c"]


# -- 2.2 the card taken from below the top must be used ----------------------------------------


def test_s2_2_deep_take_must_be_used__all() -> None:
    """2.2: "A card taken from below the top of the pile (the bottom card) must be used in
    the same turn, in a new meld or a lay-off (all books)"; the discard is refused while it
    is unmet (**decided**), with the reason."""
    game = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="7s Kh 3c")
    deal = game.deal
    play(game, "take 7s")
    assert faces([deal.must_use]) == ["7s"]
    assert legal(game) == ["meld 7d 7h 7s"]
    assert game.why_illegal("discard 2s") == (
        "you took 7♠ from the pile and must use it before you discard")
    with pytest.raises(IllegalMoveError, match=r"you took 7♠ from the pile and must use it"):
        game.play("discard Kh")
    play(game, "meld 7h 7s 7d")
    assert deal.must_use == -1
    assert legal(game) == ["discard 2s", "discard 3c", "discard Kh"]


def test_s2_2_discard_refused_until_the_taken_card_is_used_9c__decided() -> None:
    """2.2 **decided** (docs/rules-decisions.md's example): "the discard is refused while it
    is unmet ("you took 9♣ from the pile and must use it before you discard")"."""
    game = deal_from_hands(TWO, ["9d 9h 2s", "Kc Qd 4s"], up="Kd", pile="9c 4h")
    assert legal(game) == ["draw", "take 4h", "take 9c"]
    play(game, "take 9c")
    for card in ("2s", "4h", "9d", "9c"):
        assert game.why_illegal(f"discard {card}") == (
            "you took 9♣ from the pile and must use it before you discard")
    assert legal(game) == ["meld 9c 9d 9h"]


def test_s2_2_cards_above_go_to_hand_kept_or_used__000_001_004() -> None:
    """2.2: "The taken cards above it go to the hand and may be used or kept"."""
    game = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="7s Kh 3c")
    play(game, "take 7s", "meld 7d 7h 7s", "discard 2s")
    assert faces(game.deal.hands[0]) == face_text("Kh 3c")
    assert game.deal.turn == 1
    assert faces(game.deal.known[0]) == face_text("Kh 3c")


def test_s2_2_obligation_met_before_the_turn_ends_through_a_chain__decided() -> None:
    """2.2 **decided**: the obligation is met when the card is part of a meld or lay-off
    before the turn ends: with 2♥ 3♥ 4♥ on the table and 5♥ in hand, 6♥ may be taken from
    deep in the pile, laid off after 5♥."""
    game = deal_from_hands(TWO, ["5h Kd 2s", "Kc Qd 4s"], up="9c", pile="6h Jc",
                           table=[(1, "2h 3h 4h")])
    deal = game.deal
    assert legal(game) == ["draw", "take 6h", "take Jc"]
    play(game, "take 6h")
    assert legal(game) == ["layoff 5h m1"]
    play(game, "layoff 5h m1")
    assert faces([deal.must_use]) == ["6h"]
    assert legal(game) == ["layoff 6h m1"]
    play(game, "layoff 6h m1")
    assert deal.must_use == -1
    assert deal.credit == [11, 9]
    assert legal(game) == ["discard 2s", "discard Jc", "discard Kd"]


def test_s2_2_play_that_leaves_no_way_to_use_the_taken_card_refused__decided() -> None:
    """2.2 **decided**: while the taken card is unused, a play that would leave no way to use
    it is refused (laying off 7♥ would break the only set 7♠ can join)."""
    game = deal_from_hands(TWO, ["7h 7d 2c", "Kc Qd 4s"], up="Kd", pile="7s 4c",
                           table=[(1, "8h 9h Th")])
    assert legal(game) == ["draw", "take 4c", "take 7s"]
    play(game, "take 7s")
    assert legal(game) == ["meld 7d 7h 7s"]
    reason = game.why_illegal("layoff 7h m1")
    assert reason == ("that would leave no way to use 7♠, which you took from the pile and "
                      "must use this turn")


def test_s2_2_take_offered_only_when_the_card_can_be_used__decided() -> None:
    """2.2 **decided**: "`take X` is legal only when some meld or lay-off using X is possible
    with the hand, the taken cards and the table"."""
    game = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="4d 5c 6d")
    assert legal(game) == ["draw", "take 6d"]
    assert game.why_illegal("take 4d") == (
        "you may take 4♦ from the pile only to use it at once in a meld or lay-off, "
        "and you cannot use it")
    assert game.why_illegal("take 9c") is not None
    assert game.why_illegal("take 8h") == "8♥ is not in the discard pile"
    # the cards taken with it count: 4♦ with 5♦ and 6♦ above it makes a run
    with_run = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="4d 5d 6d")
    assert legal(with_run) == ["draw", "take 4d", "take 5d", "take 6d"]
    play(with_run, "take 4d")
    # 7♦ in hand gives two more melds; 5♦ 6♦ 7♦ leaves 4♦ a lay-off
    assert legal(with_run) == ["meld 4d 5d 6d", "meld 4d 5d 6d 7d", "meld 5d 6d 7d"]


def test_s2_2_top_card_alone_no_obligation__000_004() -> None:
    """2.2: "Taking only the top card: no obligation (000, 004)" (classic: the option
    `top_discard_must_be_used` is false)."""
    game = deal_from_hands(TWO, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="4d Jh")
    assert not game.rules.top_discard_must_be_used
    play(game, "take Jh")
    assert game.deal.must_use == -1
    assert legal(game) == ["discard 2s", "discard 7d", "discard 7h", "discard Jh"]
    play(game, "discard 2s")
    assert game.deal.turn == 1


def test_s2_2_top_card_must_be_used_too__001_002_003() -> None:
    """2.2: "the obligation holds for the top card too in 001, 002, 003":
    `top_discard_must_be_used` true (the simplified preset)."""
    rules = make_rules("simplified", hand_size_two=3)
    game = deal_from_hands(rules, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="4d Jh")
    assert legal(game) == ["draw"]
    assert game.why_illegal("take Jh") == (
        "you may take J♥ from the pile only to use it at once in a meld or lay-off, "
        "and you cannot use it")
    usable = deal_from_hands(rules, ["7h 7d 2s", "Kc Qd 4s"], up="9c", pile="4d 7s")
    assert legal(usable) == ["draw", "take 7s"]
    play(usable, "take 7s")
    assert faces([usable.deal.must_use]) == ["7s"]
    assert usable.why_illegal("discard 2s") == (
        "you took 7♠ from the pile and must use it before you discard")
    assert legal(usable) == ["meld 7d 7h 7s"]


# -- 2.3 meld and lay off ----------------------------------------------------------------------


def test_s2_3_lay_off_on_anyones_meld_credit_stays_with_who_laid__000_001_002_004() -> None:
    """2.3: "a single card from the hand laid off onto any meld on the table, whoever made
    it (000, 001, 002, 004). The card stays credited to the player who laid it off; the
    player says which meld it joins (000, 004)"."""
    game = deal_from_hands(TWO, ["Jh Qh 2c", "Kc 3d 4s"], up="9c", stock="5d",
                           table=[(1, "8h 9h Th"), (1, "Qc Qd Qs")])
    deal = game.deal
    assert deal.credit == [0, 57]
    play(game, "draw")
    assert legal(game) == ["discard 2c", "discard 5d", "discard Jh", "discard Qh",
                           "layoff Jh m1", "layoff Qh m2"]
    play(game, "layoff Jh m1")
    assert legal(game) == ["discard 2c", "discard 5d", "discard Qh", "layoff Qh m1",
                           "layoff Qh m2"]
    play(game, "layoff Qh m1")
    assert deal.credit == [20, 57]
    assert [card.seat for card in deal.melds[0].cards] == [1, 1, 1, 0, 0]
    assert deal.melds[0].describe() == "8♥ 9♥ 10♥ J♥ Q♥"
    assert deal.melds[1].describe() == "Q♣ Q♦ Q♠"


def test_s2_3_which_meld_named_and_checked__000_004() -> None:
    """2.3: the player says which meld a lay-off joins; a wrong or missing meld is refused."""
    game = deal_from_hands(TWO, ["Jh Qh 2c", "Kc Qd 4s"], up="9c", stock="5d",
                           table=[(1, "8h 9h Th")])
    play(game, "draw")
    assert game.why_illegal("layoff 2c m1") == "2♣ does not fit m1 (8♥ 9♥ 10♥)"
    assert game.why_illegal("layoff Jh m3") == "there is no meld m3 on the table"
    assert game.why_illegal("layoff 7h m1") == "you do not hold 7♥"


def test_s2_3_melds_many_per_turn_numbered_in_order__all() -> None:
    """2.3: as many melds and lay-offs as wanted; melds are numbered m1, m2, … in the order
    they reach the table in a deal (section 3)."""
    rules = make_rules("classic", hand_size_two=7)
    game = deal_from_hands(rules, ["7h 7d 7s 2c 3c 4c Kd", "Kc Qd 4s 9d 9s 8s 5h"],
                           up="Jd", stock="Ac", table=[(1, "Th Jh Qh")])
    play(game, "draw", "meld 2c 3c 4c", "meld 7d 7h 7s", "layoff Ac m2", "discard Kd")
    deal = game.deal
    assert [meld.name for meld in deal.melds] == ["m1", "m2", "m3"]
    assert deal.melds[1].describe() == "A♣ 2♣ 3♣ 4♣"
    assert deal.melds[2].describe() == "7♦ 7♥ 7♠"
    assert deal.went_out == 0
    assert deal.credit == [1 + 2 + 3 + 4 + 21, 30]


# -- 2.4 discard -------------------------------------------------------------------------------


def test_s2_4_discard_ends_the_turn_passes_left__all() -> None:
    """2.4: "Discard one card face up on the pile (all books); the turn passes left"."""
    rules = make_rules("classic", hand_size=3)
    game = deal_from_hands(rules, ["7h 7d 2s", "Kc Qd 4s", "3h 8c Jd"], up="9c",
                           stock="5c 6c Tc")
    play(game, "draw")
    assert game.why_illegal("discard Kc") == "you do not hold K♣"
    play(game, "discard 2s")
    deal = game.deal
    assert (deal.turn, deal.phase) == (1, "draw")
    assert faces([deal.pile[-1]]) == ["2s"]
    assert faces(deal.pile) == face_text("9c 2s")
    play(game, "draw", "discard Kc", "draw", "discard Jd")
    assert (deal.turn, deal.phase) == (0, "draw")
    assert faces(deal.pile) == face_text("9c 2s Kc Jd")
