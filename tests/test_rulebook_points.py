"""Rule-book tests of RULES.md section 4 (points): every row of its table under the
traditional, simplified and modified systems, `ace_points`, jokers and `point_divisor`."""

from __future__ import annotations

import pytest

from helpers import deal_from_hands, play
from rummy500 import RulesError, make_rules
from rummy500.rules import Rules

SYSTEMS = {
    "traditional": make_rules("classic", hand_size_two=13, decks=2),
    "simplified": make_rules("simplified", hand_size_two=13, decks=2),
    "modified": make_rules("classic", hand_size_two=13, decks=2, card_points="simplified",
                           low_ace_points=15),
}
"""The three columns of the table: 000/002/004, 001, and 004's (003's) modified scoring."""

SEAT0 = "Ac Ad Ah  Qs Ks As  Ah 2h 3h  Tc Jc Qc Kc"
"""A set of aces, an ace high (Q-K-A), an ace low (A-2-3) and K Q J 10."""
SEAT1 = "As 9s 8s 7s 6s 5s 4s 3s 2s Kd Qd Jd Td"
"""An ace, 9 … 2 and K Q J 10 left in hand."""

# (set of aces, Q-K-A, A-2-3, 10-J-Q-K) on the table and seat 1's hand, per system
EXPECTED = {
    "traditional": ((45, 35, 1 + 2 + 3, 40), 15 + 44 + 40),
    "simplified": ((45, 35, 5 + 5 + 5, 40), 15 + 40 + 40),
    "modified": ((45, 35, 15 + 5 + 5, 40), 15 + 40 + 40),
}


def play_out(rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Seat 0 lays down SEAT0's four melds and goes out; (meld points, in hand, scores)."""
    game = deal_from_hands(rules, [SEAT0, SEAT1], up="9c", stock="9d")
    play(game, "draw", "meld Ac Ad Ah", "meld Qs Ks As", "meld Ah 2h 3h", "meld Tc Jc Qc Kc",
         "discard 9d")
    deal = game.deal
    result = deal.result()
    assert result.went_out == 0
    return tuple(sum(card.points for card in m.cards) for m in deal.melds), result.in_hand, \
        result.scores


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_s4_points_table_every_row__000_001_002_003_004(system: str) -> None:
    """4: ace in a set or high 15 (all); ace low 1 / 5 / 15 (traditional / simplified /
    modified); ace in hand 15; K Q J 10 score 10; 9 … 2 face value or 5."""
    melds, in_hand, scores = play_out(SYSTEMS[system])
    expected_melds, expected_hand = EXPECTED[system]
    assert melds == expected_melds
    assert in_hand == (0, expected_hand)
    assert scores == (sum(expected_melds), -expected_hand)


def test_s4_card_values_of_each_rank__000_001() -> None:
    """4: 9 … 2 at face value (traditional) or 5 (simplified), one rank at a time."""
    for system, values in (("traditional", list(range(2, 10))), ("simplified", [5] * 8)):
        rules = make_rules("classic", hand_size_two=3, card_points=system)
        for rank, value in zip("23456789", values, strict=True):
            game = deal_from_hands(rules, [f"{rank}c {rank}d {rank}h", "Kc Qd Jh"], up="Ts",
                                   stock="Ks")
            play(game, "draw", f"meld {rank}c {rank}d {rank}h", "discard Ks")
            assert game.deal.credit[0] == 3 * value
            assert game.deal.result().in_hand == (0, 30)


def test_s4_ace_points_25__004() -> None:
    """4: `ace_points` 25 ("some play aces worth 25", 004): in a set, high, in hand; a low ace
    keeps `low_ace_points`."""
    rules = make_rules("classic", hand_size_two=13, decks=2, ace_points=25)
    melds, in_hand, _scores = play_out(rules)
    assert melds == (75, 45, 6, 40)
    assert in_hand == (0, 25 + 44 + 40)


def test_s4_ace_low_by_its_place_when_laid_off__000_001_004() -> None:
    """4: the ace is worth what its place makes it: laid off below a 2 it is low (1, 5 or 15),
    above a king it is high (15)."""
    for system, low in (("traditional", 1), ("simplified", 5), ("modified", 15)):
        rules = make_rules(SYSTEMS[system].preset, **{**SYSTEMS[system].overrides(),
                                                      "hand_size_two": 3, "decks": 1})
        game = deal_from_hands(rules, ["Ac Ad 5s", "Kc Qd 4s"], up="9c", stock="7s",
                               table=[(1, "2c 3c 4c"), (1, "Jh Qh Kh")])
        assert game.rules.low_ace_points == low
        play(game, "draw", "layoff Ac m1")
        assert game.deal.credit[0] == low
        assert game.why_illegal("layoff Ad m2") == "A♦ does not fit m2 (J♥ Q♥ K♥)"


def test_s4_wild_joker_15_on_table_and_in_hand__000() -> None:
    """4: a wild joker scores 15 (000) on the table, whatever it stands for, and in hand."""
    rules = make_rules("wild", hand_size_two=4)
    game = deal_from_hands(rules, ["5h * 7h 2c", "Kc Qd 4s *"], up="9c", stock="9d 6c 8h")
    play(game, "draw", "meld 5h *=6h 7h", "discard 9d")
    assert game.deal.credit[0] == 5 + 15 + 7
    play(game, "draw", "discard 6c", "draw", "layoff 8h m1")
    assert game.deal.went_out is None
    assert game.deal.credit[0] == 27 + 8
    assert game.deal.points.in_hand(game.deal.hands[1]) == 10 + 10 + 4 + 15


def test_s4_joker_points_option__000_001_004() -> None:
    """4: option `joker_points` sets a joker's value (empty: 15 wild, 20 Persian)."""
    assert make_rules("wild").joker_value == 15
    assert make_rules("persian").joker_value == 20
    rules = make_rules("wild", hand_size_two=4, joker_points=25)
    game = deal_from_hands(rules, ["5h * 7h 2c", "Kc Qd 4s *"], up="9c", stock="9d")
    play(game, "draw", "meld 5h *=6h 7h")
    assert game.deal.credit[0] == 5 + 25 + 7
    assert game.deal.points.in_hand(game.deal.hands[1]) == 10 + 10 + 4 + 25


def test_s4_persian_joker_20_on_table_and_in_hand__001_004() -> None:
    """4: a Persian joker scores 20 (001, 004) on the table and counts 20 against in hand."""
    rules = make_rules("persian", hand_size=4)
    game = deal_from_hands(rules, ["* * * 2c", "* 3d 4s 5h", "6c 7d 8s 9h", "Tc Jd Qs Kh"],
                           up="9c", stock="2d")
    play(game, "draw", "meld * * *", "discard 2d")
    assert game.deal.credit[0] == 60
    assert game.deal.points.in_hand(game.deal.hands[1]) == 20 + 3 + 4 + 5


def test_s4_point_divisor_five_target_100__004() -> None:
    """4: "all of these scores may be divided by five and the game played to 100" (004):
    `point_divisor` 5 with simplified values, target 100."""
    rules = make_rules("simplified", hand_size_two=13, decks=2, point_divisor=5)
    assert rules.target_score == 100
    melds, in_hand, scores = play_out(rules)
    assert melds == (9, 7, 3, 8)
    assert in_hand == (0, 3 + 8 + 8)
    assert scores == (27, -19)
    persian = make_rules("persian", point_divisor=5, card_points="simplified",
                         low_ace_points=5)
    assert persian.target_score is None
    assert make_rules("simplified", point_divisor=5, ace_points=25).ace_points == 25


@pytest.mark.parametrize(
    ("preset", "options", "what"),
    [("classic", {}, "low aces (1)"),
     ("classic", {"low_ace_points": 15}, "2 to 9 at face value (2)"),
     ("simplified", {"low_ace_points": 1}, "low aces (1)"),
     ("simplified", {"ace_points": 12}, "aces (12)"),
     ("simplified", {"jokers": "wild", "joker_points": 12}, "jokers (12)"),
     ("simplified", {"going_out_bonus": 7}, "the going-out bonus (7)")],
)
def test_s4_point_divisor_refused_when_values_do_not_divide__004_decided(
    preset: str, options: dict[str, object], what: str
) -> None:
    """4: `point_divisor` is "refused unless every card value in play divides by it (so: with
    2–9 at 5 points and aces at 5, 15 or 25)"; the message names the value."""
    with pytest.raises(RulesError, match=r"point_divisor 5 needs every value to divide by it") \
            as error:
        make_rules(preset, point_divisor=5, **options)
    assert what in str(error.value)
