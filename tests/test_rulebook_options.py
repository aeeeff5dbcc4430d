"""Rule options of RULES.md sections 4 and 7 (issue 9, item 12): ``high_ace_only`` (004:
"A-9 are 5 points, unless the ace is used high, when it is 15") and
``four_card_runs_double`` (004: "any meld of four, laid down all at once, counts double")."""

from __future__ import annotations

import re

import pytest

from helpers import deal_from_hands, play
from rummy500 import RulesError, make_rules
from rummy500.cards import parse_face
from rummy500.cli import main
from rummy500.scoring import points_for

HIGH_ONLY = make_rules("classic", card_points="simplified", low_ace_points=5, high_ace_only=True)


def points(game: object, number: int) -> list[int]:
    deal = game.deal  # type: ignore[attr-defined]
    return [card.points for card in deal.melds[number - 1].cards]


def test_high_ace_only_an_ace_scores_high_only_at_the_top_of_a_run__004() -> None:
    game = deal_from_hands(HIGH_ONLY, ["Qh Kh Ah Ac Ad As 2c 3c 4c 9d 4s 6s 8s", "..."],
                           up="7d", stock="Ks Qs 2d Tc")
    play(game, "draw", "meld Qh Kh Ah", "meld Ac Ad As", "discard 9d")
    assert points(game, 1) == [10, 10, 15]  # Q-K-A: the ace is high
    assert points(game, 2) == [5, 5, 5]  # a set of aces: low value
    ace = parse_face("Ah")
    assert points_for(HIGH_ONLY).in_hand(1 << ace) == 5  # left in hand: low value


def test_high_ace_only_a_low_ace_and_a_laid_off_high_ace__004() -> None:
    game = deal_from_hands(HIGH_ONLY, ["Ac 2c 3c Jh Qh Kh 9d 4s 6s 8s 5d 7d Ts", "As ..."],
                           up="Td", stock="Ah")
    play(game, "draw", "meld Ac 2c 3c", "meld Jh Qh Kh", "layoff Ah m2")
    assert points(game, 1) == [5, 5, 5]  # A-2-3: low
    assert points(game, 2)[-1] == 15  # the ace laid off above the king: high


def test_without_high_ace_only_aces_keep_ace_points() -> None:
    rules = make_rules("classic", card_points="simplified", low_ace_points=5)
    game = deal_from_hands(rules, ["Qh Kh Ah Ac Ad As 2c 3c 4c 9d 4s 6s 8s", "..."], up="7d")
    play(game, "draw", "meld Qh Kh Ah", "meld Ac Ad As")
    assert points(game, 2) == [15, 15, 15]


PERSIAN_RUNS = make_rules("persian", four_card_runs_double=True)
HANDS = ["4h 5h 6h 7h 9c 9d 9s", "2c 3d 5s Jc Qd Ks 8d", "2d 3s 5c Jd Qs Kc 8c",
         "2s 3c 5d Js Qc Kd 8s"]


def test_four_card_runs_double_a_run_of_four_laid_at_once__004() -> None:
    game = deal_from_hands(PERSIAN_RUNS, HANDS, up="Th")
    play(game, "draw", "meld 4h 5h 6h 7h")
    assert points(game, 1) == [8, 10, 12, 14]
    assert game.deal.credit[0] == 44


def test_without_four_card_runs_double_a_run_of_four_counts_once__001() -> None:
    game = deal_from_hands(make_rules("persian"), HANDS, up="Th")
    play(game, "draw", "meld 4h 5h 6h 7h")
    assert points(game, 1) == [4, 5, 6, 7]


def test_four_card_runs_double_only_a_run_laid_at_once() -> None:
    game = deal_from_hands(PERSIAN_RUNS, HANDS, up="Th")
    play(game, "draw", "meld 4h 5h 6h", "layoff 7h m1")
    assert points(game, 1) == [4, 5, 6, 7]


def test_four_card_runs_double_needs_four_of_a_kind_doubles() -> None:
    with pytest.raises(RulesError, match="four_card_runs_double needs four_of_a_kind_doubles"):
        make_rules("classic", four_card_runs_double=True)


def test_the_options_are_listed_and_set_from_the_command_line(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "persian", "-o", "four_card_runs_double=true", "-o",
                 "high_ace_only=true"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"four_card_runs_double +=+ true", out)
    assert re.search(r"high_ace_only +=+ true", out)
