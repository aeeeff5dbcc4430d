"""game.py: deals one after another, running totals, the end of the game, push/pop across deals."""

from __future__ import annotations

import random

import pytest

from rummy500 import Game, IllegalMoveError, make_rules
from rummy500.game import game_end
from rummy500.record import game_record, replay


def random_game(preset: str, players: int, seed: int, **options: object) -> Game:
    game = Game(make_rules(preset, **options), players, seed=seed)
    rng = random.Random(seed)
    while not game.finished:
        game.play(rng.choice(game.legal_moves()))
    return game


def test_totals_are_the_sum_of_the_deal_scores() -> None:
    game = random_game("classic", 3, seed=5, target_score=150)
    assert game.finished and len(game.results) == len(game.deals)
    for side in range(3):
        assert game.totals[side] == sum(result.scores[side] for result in game.results)


def test_the_winner_is_the_only_leader_at_or_over_the_target() -> None:
    game = random_game("classic", 2, seed=11, target_score=120)
    assert game.winner is not None
    assert game.totals[game.winner] >= 120
    assert all(total < game.totals[game.winner] for side, total in enumerate(game.totals)
               if side != game.winner)
    assert game.margin == game.totals[game.winner] - max(
        total for side, total in enumerate(game.totals) if side != game.winner)


def test_a_game_of_two_deals_with_a_final_bonus() -> None:
    game = random_game("persian", 4, seed=3)
    assert len(game.results) == 2
    raw = [sum(result.scores[side] for result in game.results) for side in range(2)]
    if raw[0] == raw[1]:
        assert game.winner is None and game.totals == raw
    else:
        winner = 0 if raw[0] > raw[1] else 1
        assert game.winner == winner
        assert game.totals[winner] == raw[winner] + 50
        assert game.totals[1 - winner] == raw[1 - winner]
        assert game.margin == raw[winner] + 50 - raw[1 - winner]


def test_the_deal_passes_left() -> None:
    game = random_game("classic", 4, seed=8, target_score=200)
    dealers = [deal.dealer for deal in game.deals]
    assert dealers == [(game.first_dealer + i) % 4 for i in range(len(dealers))]


def test_a_finished_game_refuses_every_move() -> None:
    game = random_game("classic", 2, seed=2, target_score=60)
    assert game.legal_moves() == []
    assert game.why_illegal("draw") == "the game is over"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play("draw")


def test_push_and_pop_across_a_deal_end_restore_the_game_exactly() -> None:
    game = Game(make_rules("classic", target_score=100), 2, seed=21)
    rng = random.Random(21)
    crossed = 0
    while not game.finished:
        before = (game_record(game), list(game.totals), len(game.deals), game.winner)
        pushed = 0
        while pushed < 3 and not game.finished:
            game.push(rng.choice(game.legal_moves()))
            pushed += 1
        crossed += len(game.deals) != before[2] or game.finished
        for _ in range(pushed):
            game.pop()
        assert (game_record(game), list(game.totals), len(game.deals), game.winner) == before
        game.play(rng.choice(game.legal_moves()))
    assert crossed >= 2


def test_the_same_seed_plays_the_same_game_and_its_record_replays_it() -> None:
    first = random_game("wild", 3, seed=13)
    second = random_game("wild", 3, seed=13)
    assert game_record(first) == game_record(second)
    again = replay(game_record(first))
    assert again.finished and again.totals == first.totals and again.winner == first.winner


def test_views_carry_the_totals_and_the_deal_number() -> None:
    game = Game(make_rules("classic", target_score=1000), 2, seed=4)
    rng = random.Random(4)
    while len(game.deals) < 2:
        game.play(rng.choice(game.legal_moves()))
    view = game.view(game.turn)
    assert view.deal_number == 1 and view.totals == tuple(game.totals)


def test_bad_set_ups_are_refused() -> None:
    with pytest.raises(ValueError, match="dealer"):
        Game(make_rules("classic"), 2, dealer=2)
    game = Game(make_rules("classic"), 2, seed=1)
    with pytest.raises(ValueError, match="not over"):
        game.start_deal()


@pytest.mark.parametrize(
    ("totals", "deals", "ending"),
    [
        ([480, 510], 3, (True, 1)),       # one side alone past the target wins
        ([510, 510], 3, (False, None)),   # tied past the target: play on
        ([520, 510], 3, (True, 0)),       # both past it: the higher wins
        ([100, 90], 3, (False, None)),
    ],
)
def test_game_end_by_the_target(totals: list[int], deals: int,
                                ending: tuple[bool, int | None]) -> None:
    assert game_end(make_rules("classic"), totals, deals) == ending


def test_game_end_after_the_last_deal_may_be_a_draw() -> None:
    two_deals = make_rules("classic", target_score=None, max_deals=2)
    assert game_end(two_deals, [30, 20], 1) == (False, None)
    assert game_end(two_deals, [30, 20], 2) == (True, 0)
    assert game_end(two_deals, [30, 30], 2) == (True, None)


def test_a_branch_plays_on_without_touching_its_game() -> None:
    """Game.branch (a search's copy): moves, new deals and reshuffles on the branch leave
    the game as it was, and the branch plays exactly as the game would have."""
    rules = make_rules("classic", stock_exhausted="reshuffle", target_score=200)
    game = Game(rules, 2, seed=8)
    rng = random.Random(8)
    while len(game.deals) < 2:
        game.play(rng.choice(game.legal_moves()))
    fen, rng_state, totals = game.deal.fen(), game.rng.getstate(), list(game.totals)
    branch = game.branch()
    assert branch.deals[0] is game.deals[0] and branch.deal is not game.deal
    moves = []
    while not branch.finished:
        moves.append(rng.choice(branch.legal_moves()))
        branch.play(moves[-1])
    assert game.deal.fen() == fen and game.rng.getstate() == rng_state
    assert game.totals == totals and len(game.deals) == 2 and not game.finished
    for move in moves:
        game.play(move)
    assert game.totals == branch.totals and game.winner == branch.winner
    assert [deal.fen() for deal in game.deals] == [deal.fen() for deal in branch.deals]
