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


NO_TAKEN_DISCARD = make_rules("classic", discard_taken_card=False)


def test_discard_taken_card_false_keeps_the_taken_card_this_turn() -> None:
    """Issue 9, item 13: the card taken from the pile cannot go straight back."""
    game = deal_from_hands(NO_TAKEN_DISCARD, ["2c 4d 9c 3h 8d Jh Qc Ad 7c 5h Ks 6s Ts", "..."],
                           up="Kd")
    play(game, "take Kd")
    reason = game.why_illegal("discard Kd")
    assert reason is not None and "discard_taken_card = false" in reason
    assert game.view(0).why_illegal("discard Kd") == reason
    listed = [str(move) for move in game.legal_moves()]
    assert "discard Kd" not in listed and "discard Ks" in listed
    assert listed == [str(move) for move in game.view(0).legal_moves()]
    play(game, "discard Ks", "draw")
    play(game, str(next(m for m in game.legal_moves() if m.kind == "discard")))
    play(game, "draw")  # the next turn: the king may go now
    assert game.is_legal("discard Kd")


def test_by_default_the_taken_card_may_be_discarded() -> None:
    game = deal_from_hands(make_rules("classic"),
                           ["2c 4d 9c 3h 8d Jh Qc Ad 7c 5h Ks 6s Ts", "..."], up="Kd")
    play(game, "take Kd")
    assert game.is_legal("discard Kd")


def test_discard_taken_card_false_once_the_taken_copy_is_melded_the_other_may_go() -> None:
    rules = make_rules("classic", decks=2, discard_taken_card=False)
    game = deal_from_hands(rules, ["Kd Kc Kh 2c 4d 9c 3h 8d Jh Qc Ad 7c 5h", "..."], up="Kd")
    play(game, "take Kd")
    assert not game.is_legal("discard Kd")
    play(game, "meld Kc Kd Kh")  # the known copy goes to the table first
    assert game.is_legal("discard Kd")


def test_discard_taken_card_false_never_leaves_a_player_without_a_move() -> None:
    """With nothing else left in hand, the taken card may be discarded."""
    rules = make_rules("classic", discard_taken_card=False, hand_size_two=3)
    game = deal_from_hands(rules, ["4c 5c 6c", "..."], up="Kd")
    play(game, "take Kd", "meld 4c 5c 6c")
    assert [str(move) for move in game.legal_moves()] == ["discard Kd"]


@pytest.mark.parametrize("preset", ["classic", "wild", "persian"])
def test_discard_taken_card_false_whole_random_deals(preset: str) -> None:
    import random

    from rummy500 import Game

    rules = make_rules(preset, discard_taken_card=False, decks=2)
    rng = random.Random(7)
    for seed in range(6):
        game = Game(rules, 4 if rules.partnership else 3, seed=seed)
        deal = game.deal
        taken = -1
        while not deal.over:
            moves = game.legal_moves()
            assert moves, deal.fen()
            move = rng.choice(moves)
            if move.kind == "take":
                taken = move.pieces[0]
            elif move.kind == "discard":
                assert move.pieces[0] != taken or len(
                    [m for m in moves if m.kind == "discard"]) == 1
                taken = -1
            elif move.kind == "draw":
                taken = -1
            seat = deal.turn
            assert [str(m) for m in game.view(seat).legal_moves()] == [str(m) for m in moves]
            game.play(move)
