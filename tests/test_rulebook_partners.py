"""Rule-book tests of RULES.md section 6 (Partnership 500 Rum) and section 7 (Persian
Rummy). Each test names the row and the books behind it (001, 004)."""

from __future__ import annotations

import pytest

from helpers import deal_from_hands, legal, play, setup_deal
from rummy500 import Game, RulesError, make_rules

# -- 6. Partnership 500 Rum --------------------------------------------------------------------

PARTNERS = make_rules("partnership", hand_size=3)


def test_s6_sides_are_partners_opposite__001_004() -> None:
    """6: "Four players, two sides, partners opposite (seats 0 and 2 against 1 and 3)"."""
    rules = make_rules("partnership")
    assert rules.sides(4) == 2
    assert [rules.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    game = Game(rules, 4, seed=3)
    assert game.totals == [0, 0]
    with pytest.raises(RulesError, match="exactly four players"):
        Game(rules, 3)


def test_s6_partners_lay_off_on_each_others_melds__001_004() -> None:
    """6: "partners may lay off on each other's melds"; the card is credited to who laid it."""
    game = deal_from_hands(PARTNERS, ["Th 2c 3d", "4s 5d 6c", "8c 9d Js", "Kc Qd 7s"],
                           up="Ac", stock="Jh", table=[(2, "7h 8h 9h"), (1, "Qs Qh Qc")])
    play(game, "draw")
    assert [m for m in legal(game) if m.startswith("layoff")] == ["layoff Th m1"]
    play(game, "layoff Th m1", "layoff Jh m1")
    melds = game.deal.melds
    assert [card.seat for card in melds[0].cards] == [2, 2, 2, 0, 0]
    assert game.deal.credit == [20, 30, 24, 0]


def test_s6_side_scores_as_one_when_anyone_goes_out__001_004() -> None:
    """6: "when anyone goes out the deal ends and each side scores as one"."""
    game = deal_from_hands(PARTNERS, ["7h 7d 7s", "4s 5d 6c", "8c 9d Js", "Kc Qd 2s"],
                           up="Ac", stock="Jh", table=[(2, "Tc Jc Qc"), (3, "3h 4h 5h")])
    play(game, "draw", "meld 7d 7h 7s", "discard Jh")
    result = game.results[0]
    assert result.went_out == 0
    assert result.melded == (21, 0, 30, 12)
    assert result.in_hand == (0, 15, 27, 22)
    assert result.scores == (21 + 30 - 27, 12 - 15 - 22)
    assert game.totals == [24, -25]


def test_s6_game_ends_when_a_side_reaches_the_target__004() -> None:
    """6: "The game ends when a side reaches 500" (here a target of 10): the winner is the
    side."""
    rules = make_rules("partnership", hand_size=3, target_score=10)
    game = deal_from_hands(rules, ["4s 5d 6c", "7h 7d 7s", "8c 9d Js", "2s 3c 2d"],
                           dealer=0, stock="Jh")
    assert game.turn == 1
    play(game, "draw", "meld 7d 7h 7s", "discard Jh")
    assert game.finished
    assert game.winner == 1
    assert game.totals == [-15 - 27, 21 - 7]


# -- 7. Persian Rummy --------------------------------------------------------------------------

PERSIAN = make_rules("persian", hand_size=4)


def test_s7_pack_of_56_with_four_jokers_worth_20__001_004() -> None:
    """7: "a 56-card pack (52 + four jokers, jokers = persian, 20 points each)"."""
    game = Game(make_rules("persian"), 4, seed=8)
    cards = game.deal.all_cards()
    assert len(cards) == 56
    assert sum(1 for card in cards if card & 15 == 15) == 4
    assert game.deal.points.joker == 20


def test_s7_four_jokers_at_once_160__001_004() -> None:
    """7: "four jokers at once 160"; the side of the player who goes out scores 25."""
    game = deal_from_hands(PERSIAN, ["* * * *", "2c 3d 4s 5h", "6c 7d 8s 9h", "Tc Jd Qs Kh"],
                           up="Ac", stock="Ad")
    play(game, "draw", "meld * * * *")
    assert game.deal.credit[0] == 160
    play(game, "discard Ad")
    result = game.results[0]
    assert result.went_out == 0
    assert result.scores == (160 + 25 - (6 + 7 + 8 + 9), -(2 + 3 + 4 + 5) - 40)


def test_s7_three_jokers_60_then_the_fourth_20__001_004() -> None:
    """7: "three jokers 60 and the fourth added later 20 more"."""
    game = deal_from_hands(PERSIAN, ["* * * 2c", "* 3d 4s 5h", "6c 7d 8s 9h", "Tc Jd Qs Kh"],
                           up="Ac", stock="2d 3c")
    play(game, "draw", "meld * * *")
    assert game.deal.credit[0] == 60
    play(game, "discard 2d", "draw", "layoff * m1")
    assert game.deal.credit[1] == 20
    assert [card.points for card in game.deal.melds[0].cards] == [20, 20, 20, 20]


def test_s7_four_sixes_at_once_48_three_18_then_6__004() -> None:
    """7: "four 6s at once 48 (004, so traditional values)"; 004: "three 6s count only 18,
    and the fourth 6 adds only 6 points"."""
    game = deal_from_hands(PERSIAN, ["6c 6d 6h 6s", "2c 3d 4s 5h", "* 7d 8s 9h", "Tc Jd Qs Kh"],
                           up="Ac", stock="Ad")
    play(game, "draw", "meld 6c 6d 6h 6s")
    assert game.deal.credit[0] == 48
    three = deal_from_hands(PERSIAN, ["6c 6d 6h 2c", "6s 3d 4s 5h", "* 7d 8s 9h",
                                      "Tc Jd Qs Kh"], up="Ac", stock="Ad 3c")
    play(three, "draw", "meld 6c 6d 6h")
    assert three.deal.credit[0] == 18
    play(three, "discard Ad", "draw", "layoff 6s m1")
    assert three.deal.credit[1] == 6


def test_s7_four_twos_at_once_40_simplified__001() -> None:
    """7: "four 2s at once 40 in 001 (simplified values)"; 001: "Three 2's played at once
    score 15"."""
    rules = make_rules("persian", hand_size=4, card_points="simplified")
    game = deal_from_hands(rules, ["2c 2d 2h 2s", "3c 3d 4s 5h", "* 7d 8s 9h", "Tc Jd Qs Kh"],
                           up="Ac", stock="Ad")
    play(game, "draw", "meld 2c 2d 2h 2s")
    assert game.deal.credit[0] == 40
    three = deal_from_hands(rules, ["2c 2d 2h Kc", "3c 3d 4s 5h", "* 7d 8s 9h",
                                    "Tc Jd Qs Kh"], up="Ac", stock="Ad")
    play(three, "draw", "meld 2c 2d 2h")
    assert three.deal.credit[0] == 15


def test_s7_runs_of_four_are_not_doubled__001_004() -> None:
    """7: only a *set* of four laid at once counts double ("Any set meld of four", 001)."""
    game = deal_from_hands(PERSIAN, ["4h 5h 6h 7h", "2c 3d 4s 5d", "* 7d 8s 9c", "Tc Jd Qs Kh"],
                           up="Ac", stock="Ad")
    play(game, "draw", "meld 4h 5h 6h 7h")
    assert game.deal.credit[0] == 22


def test_s7_doubling_only_with_the_option__001_004() -> None:
    """7: `four_of_a_kind_doubles` off (classic 500 Rum): four 6s at once score 24."""
    rules = make_rules("partnership", hand_size=4)
    game = deal_from_hands(rules, ["6c 6d 6h 6s", "2c 3d 4s 5h", "Ts 7d 8s 9h", "Tc Jd Qs Kh"],
                           up="Ac", stock="Ad")
    play(game, "draw", "meld 6c 6d 6h 6s")
    assert game.deal.credit[0] == 24


def _persian_two_deals(second: list[str]) -> Game:
    """Deal 1: seat 0 melds 6♣ 6♦ 6♥ and goes out; deal 2 (dealt by seat 0, so seat 1 plays
    first) gives ``second``."""
    rules = make_rules("persian", hand_size=3)
    game = deal_from_hands(rules, ["6c 6d 6h", "2c 3d 4s", "5c 7d 8s", "9c Td Js"],
                           up="Ac", stock="Ad")
    play(game, "draw", "meld 6c 6d 6h", "discard Ad")
    assert game.results[0].scores == (18 + 25 - 20, -9 - 29)
    assert not game.finished
    setup_deal(game, second, up="Ac", stock="Ad")
    assert game.deal.dealer == 0
    assert game.turn == 1
    play(game, "draw", f"meld {second[1]}", "discard Ad")
    return game


def test_s7_two_deals_final_bonus_50_win_by_the_difference__001_004() -> None:
    """7: "the game lasts two deals (`max_deals`, no target score); the side with the better
    total then scores a bonus of 50 (`final_bonus`) and wins by the difference"."""
    game = _persian_two_deals(["9c Td Js", "7c 7d 7h", "2c 3d 4s", "5c 6d 8s"])
    assert game.results[1].scores == (-29 - 9, 21 + 25 - 19)
    assert game.finished
    # totals before the bonus: side 0 23 - 38 = -15, side 1 -38 + 27 = -11
    assert game.winner == 1
    assert game.totals == [-15, -11 + 50]
    assert game.margin == 54


def test_s7_equal_totals_a_draw_without_bonus__decided() -> None:
    """7, **decided**: "equal totals give no bonus and a drawn game"."""
    game = _persian_two_deals(["9c Td Js", "6c 6d 6h", "2c 3d 4s", "5c 7d 8s"])
    assert game.finished
    assert game.winner is None
    assert game.totals == [-15, -15]
    assert game.margin == 0
