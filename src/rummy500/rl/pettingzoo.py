"""500 Rum as a PettingZoo AEC environment (``docs/rl.md``).

Agents ``player_0`` … ``player_{n-1}`` are the seats. Each observation is a dict:
``observation`` (the :class:`~rummy500.rl.observation.ObservationEncoder` vector
of that seat's view) and ``action_mask`` (1 for each legal action of the
:class:`~rummy500.rl.actions.ActionSpace`; all 0 when it is not that seat's
move). Rewards: see :mod:`rummy500.rl.rewards`. The episode is one game.

>>> from rummy500.rl.pettingzoo import env
>>> e = env(players=2, preset="classic")
>>> e.reset(seed=1)
>>> e.agent_selection
'player_1'
>>> obs, reward, terminated, truncated, info = e.last()
>>> [str(move) for move in e.unwrapped.actions.moves(obs["action_mask"])]
['draw', 'take 3s']
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import IllegalMoveError, InvalidMoveError, SettingsError
from ..extras import require

require("rl", "pettingzoo", feature="rummy500.rl.pettingzoo")

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..game import Game
from ..moves import Move
from ..view import PlayerView
from .actions import Mask
from .game_spaces import game_spaces
from .rewards import TRUNCATE_DEALS, check_reward_kind, step_rewards

ObsDict = dict[str, np.ndarray[Any, Any]]
RENDER_MODES = ("human", "ansi")


class Rummy500AECEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment without wrappers; :func:`env` puts it behind PettingZoo's order
    checks.

    An illegal action raises IllegalMoveError (a ValueError), or with ``illegal_reward`` set
    ends the game with that reward to the seat that played it (as PettingZoo's
    ``TerminateIllegalWrapper`` does). An episode still running after ``truncate_deals``
    deals is truncated (None: never).
    """

    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "rummy500_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        preset: str = "classic",
        options: dict[str, Any] | None = None,
        reward: str = "both",
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        truncate_deals: int | None = TRUNCATE_DEALS,
    ) -> None:
        super().__init__()
        self.rules, self.actions, self.encoder = game_spaces(preset, options, players)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SettingsError(f"render_mode must be one of {', '.join(RENDER_MODES)}")
        self.players = players
        self.reward_kind = check_reward_kind(reward)
        self.illegal_reward = illegal_reward
        self.truncate_deals = truncate_deals
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(self.encoder.low, self.encoder.high,
                                          dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.actions.size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self.game: Game | None = None
        self._legal: list[Move] | None = None
        self._mask: Mask | None = None
        self._views: dict[int, PlayerView] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = Game(self.rules, self.players, rng=random.Random(self._rng.getrandbits(64)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._new_position()

    def _new_position(self) -> None:
        game = self._game()
        self._legal = None
        self._mask = None
        self._views = {}
        if not game.finished:
            self.agent_selection = self.possible_agents[game.turn]

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` sees now (built once a position)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self._game().view(seat)
        return view

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move (from its view)."""
        if self._legal is None:
            game = self._game()
            self._legal = [] if game.finished else self.view(game.turn).legal_moves()
        return self._legal

    def action_mask(self) -> Mask:
        """The mask of the seat to move."""
        if self._mask is None:
            self._mask = self.actions.mask(self.legal_moves())
        return self._mask

    def observe(self, agent: str) -> ObsDict:
        game = self._game()
        seat = self._seat[agent]
        observation = self.encoder.encode(self.view(seat))
        if seat == game.turn and not game.finished:
            mask = self.action_mask().copy()
        else:
            mask = np.zeros(self.actions.size, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None or not 0 <= int(action) < self.actions.size:
            raise InvalidMoveError(f"an action is a number from 0 to {self.actions.size - 1}")
        move = self.actions.decode(int(action))
        self._cumulative_rewards[agent] = 0.0
        if not self.action_mask()[int(action)]:
            if self.illegal_reward is None:
                raise IllegalMoveError(f"{agent} cannot play '{move}' now")
            self._end_by_illegal_move(agent, move)
            return
        deals_before = len(game.results)
        game.play(move, check=False)
        earned = step_rewards(game, deals_before, self.reward_kind)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if earned is not None:
            for other in self.agents:
                self.rewards[other] = earned[self._seat[other]]
        if game.finished:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.truncate_deals is not None and len(game.results) >= self.truncate_deals:
            self.truncations = dict.fromkeys(self.agents, True)
        self._new_position()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_by_illegal_move(self, agent: str, move: Move) -> None:
        """The game ends; the offender gets ``illegal_reward``, the others nothing."""
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward or 0.0)
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_move": str(move)}
        self._accumulate_rewards()

    # -- text -----------------------------------------------------------------------------

    def render(self) -> str | None:
        text = self._text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def _text(self) -> str:
        game = self._game()
        status = "finished" if game.finished else f"deal {len(game.deals)}"
        return f"{status}, totals {game.totals} | {game.deal.fen()}"

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return "rummy500_v0"


raw_env = Rummy500AECEnv
"""The AEC environment without wrappers (PettingZoo's name for it)."""


def env(**settings: Any) -> Any:
    """The AEC environment (:func:`raw_env` with ``settings``, by name) behind
    PettingZoo's ``OrderEnforcingWrapper``.

    An illegal action ends the game with -1 for the seat that played it, as
    ``TerminateIllegalWrapper`` would (built in, which is faster); an action
    outside the space raises ValueError.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(illegal_reward=-1.0, **settings))
