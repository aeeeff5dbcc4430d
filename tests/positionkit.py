"""Positions for group B's browser tests: the moves a table starts with (the server's
``moves``, :func:`browserkit.make_table`) so that a page plays only the few moves its test
is about, not the whole deal before them."""

from __future__ import annotations

import random
from typing import Any

from browserkit import deal_over, opening
from rummy500.game import Game
from rummy500.kinds import Phase
from rummy500.rules import make_rules


def at_last_turn(seed: int, players: int, *, seat: int = 0, preset: str = "classic",
                 options: dict[str, Any] | None = None) -> list[str]:
    """The moves of a table seeded ``seed`` (``simple`` playing every seat, as
    :func:`browserkit.opening` plays them) up to the start of ``seat``'s last turn of the
    first deal: the page of ``seat`` plays that turn, and the deal ends soon after."""
    moves = opening(seed, players, deal_over(1), preset=preset, options=options)
    game = Game(make_rules(preset, **(options or {})), players, rng=random.Random(seed),
                auto_deal=False)
    game.start_deal()
    last = 0
    for index, move in enumerate(moves):
        if game.deal.over:
            break
        if game.turn == seat and game.deal.phase == Phase.DRAW:
            last = index
        game.play(move)
    return moves[:last]


def after_rounds(seed: int, players: int, rounds: int, *, seat: int = 0,
                 preset: str = "classic") -> list[str]:
    """The moves of a table seeded ``seed`` (``simple`` playing every seat) until ``seat``
    is to draw after about ``rounds`` rounds of turns (two moves a turn at least): a table
    some melds into its deal, opened at ``seat``'s turn."""
    def wanted(game: Game) -> bool:
        return (game.turn == seat and game.deal.phase == Phase.DRAW
                and len(game.deal.moves) >= 2 * players * rounds)

    return opening(seed, players, wanted, preset=preset)
