"""What the Gymnasium and PettingZoo environments are both built on: the rules of the game
they play, its action space and its observation encoder."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..rules import Rules, make_rules
from .actions import ActionSpace, action_space
from .observation import ObservationEncoder, observation_encoder


class GameSpaces(NamedTuple):
    rules: Rules
    actions: ActionSpace
    encoder: ObservationEncoder


def game_spaces(preset: str, options: dict[str, Any] | None, players: int) -> GameSpaces:
    """The rules of ``preset`` with ``options`` for ``players`` (a count they must allow),
    and the spaces of a game by them."""
    rules = make_rules(preset, **(options or {}))
    rules.check_players(players)
    return GameSpaces(rules, action_space(rules, players), observation_encoder(rules, players))


__all__ = ["GameSpaces", "game_spaces"]
