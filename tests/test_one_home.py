"""One home for each fact: the end-of-game check the bots look ahead with."""

from __future__ import annotations

from rummy500 import Game, make_rules
from rummy500.bots.context import RACE, Context
from rummy500.game import game_end, winner_after


def test_winner_after_adds_the_deal_and_asks_game_end() -> None:
    rules = make_rules("classic")
    assert winner_after(rules, [480, 300], [30, 10], 3) == 0
    assert winner_after(rules, [480, 300], [10, 210], 3) == 1
    assert winner_after(rules, [480, 490], [30, 20], 3) is None  # 510 all: tied, game goes on
    assert winner_after(rules, [100, 100], [5, 5], 3) is None
    persian = make_rules("persian")  # two deals, no target
    assert winner_after(persian, [100, 90], [0, 5], 1) is None
    assert winner_after(persian, [100, 90], [0, 5], 2) == 0
    assert winner_after(persian, [100, 90], [0, 10], 2) is None  # drawn
    for totals, scores, deals in [([480, 300], [30, 10], 3), ([100, 90], [0, 10], 2)]:
        after = [t + s for t, s in zip(totals, scores, strict=True)]
        assert winner_after(persian, totals, scores, deals) == game_end(persian, after, deals)[1]


def test_the_bots_race_is_the_games_end_check() -> None:
    game = Game(make_rules("classic"), players=2, seed=11)
    game.totals = [490, 0]
    view = game.view(0)
    context = Context(view)
    assert context.race([20.0, 0.0]) == RACE
    assert context.race([0.0, 600.0]) == -RACE
    assert context.race([0.0, 0.0]) == 0.0
