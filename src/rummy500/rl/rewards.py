"""Rewards shared by the environments: each deal's score margin, and the game's outcome.

Episodes still running after :data:`TRUNCATE_DEALS` deals are truncated by
default (PettingZoo, Gymnasium): a deal can score below zero, so a game to a
target score alone has no bound, and agents that never meld would play for ever.

``reward="score"``: when a deal ends, each seat receives its side's deal score
minus the mean deal score of the other sides, divided by the score scale (the
target score, 500 by default). ``reward="win"``: when the game ends, the
winning side's seats receive 1 and every other seat ``-1 / (sides - 1)``; a
drawn game gives 0. ``reward="both"`` (the default) adds the two. Every reward
sums to zero over the sides.

>>> from rummy500.rules import find_preset
>>> deal_rewards(find_preset("classic"), 2, (120, -30))
[0.3, -0.3]
>>> game_rewards(find_preset("partnership"), 4, 1)
[-1.0, 1.0, -1.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..errors import SettingsError
from ..game import Game
from ..rules import Rules

TRUNCATE_DEALS = 100
RewardKind = Literal["score", "win", "both"]
REWARD_KINDS = ("score", "win", "both")


def check_reward_kind(kind: str) -> RewardKind:
    if kind == "score":
        return "score"
    if kind == "win":
        return "win"
    if kind == "both":
        return "both"
    raise SettingsError(f"reward must be one of {', '.join(REWARD_KINDS)}, not {kind!r}")


def score_scale(rules: Rules) -> float:
    """Points that count as 1: the target score, or 500 (divided as the points are)."""
    if rules.target_score is not None:
        return float(rules.target_score)
    return float(500 // rules.point_divisor)


def deal_rewards(rules: Rules, players: int, scores: Sequence[int]) -> list[float]:
    """Per seat: its side's deal score minus the others' mean, over the score scale."""
    sides = len(scores)
    total = sum(scores)
    scale = score_scale(rules)
    margins = [(s - (total - s) / (sides - 1)) / scale for s in scores]
    return [margins[rules.side_of(seat)] for seat in range(players)]


def game_rewards(rules: Rules, players: int, winner: int | None) -> list[float]:
    """Per seat: 1 for the winning side, ``-1 / (sides - 1)`` for the others, 0 if drawn."""
    if winner is None:
        return [0.0] * players
    losing = -1.0 / (rules.sides(players) - 1)
    return [1.0 if rules.side_of(seat) == winner else losing for seat in range(players)]


def step_rewards(game: Game, deals_before: int, kind: RewardKind) -> list[float] | None:
    """The rewards earned since the game had ``deals_before`` results (None if none)."""
    rewards: list[float] | None = None
    if kind != "win" and len(game.results) > deals_before:
        rewards = [0.0] * game.players
        for result in game.results[deals_before:]:
            for seat, value in enumerate(deal_rewards(game.rules, game.players, result.scores)):
                rewards[seat] += value
    if kind != "score" and game.finished:
        if rewards is None:
            rewards = [0.0] * game.players
        for seat, value in enumerate(game_rewards(game.rules, game.players, game.winner)):
            rewards[seat] += value
    return rewards
