"""500 Rum as a single-agent Gymnasium environment against built-in opponents.

The agent plays seat ``seat``; every other seat is a :mod:`rummy500.bots` bot
(``opponents``: one name for all, or one name per other seat in seat order;
in a partnership game the agent's partner is a bot too). Observations are the
:class:`~rummy500.rl.observation.ObservationEncoder` vector of the agent's
view; ``info["action_mask"]`` (and :meth:`Rummy500Env.action_masks`) gives the
legal actions. An illegal action ends the episode with ``illegal_reward`` and
``info["illegal_move"]``; an episode still running after ``truncate_deals``
deals (100) is truncated. Rewards: see :mod:`rummy500.rl.rewards`.

>>> import gymnasium, rummy500.rl
>>> env = gymnasium.make("rummy500/Rummy500-v0", opponents="random", players=2)
>>> obs, info = env.reset(seed=3)
>>> obs.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..bots.playout import Played, play_out
from ..errors import SettingsError
from ..game import Game
from .actions import Mask
from .game_spaces import game_spaces
from .observation import Observation
from .rewards import TRUNCATE_DEALS, check_reward_kind, step_rewards


class Rummy500Env(gymnasium.Env[Observation, np.int64]):
    """One seat of a game of 500 Rum; the other seats are bots."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponents: str | Sequence[str] = "random",
        players: int = 2,
        preset: str = "classic",
        options: dict[str, Any] | None = None,
        seat: int = 0,
        reward: str = "both",
        illegal_reward: float = -1.0,
        time_budget: float | None = None,
        render_mode: str | None = None,
        truncate_deals: int | None = TRUNCATE_DEALS,
    ) -> None:
        self.rules, self.actions, self.encoder = game_spaces(preset, options, players)
        if not 0 <= seat < players:
            raise SettingsError(f"seat must be from 0 to {players - 1}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise SettingsError(f"{players} players need {players - 1} opponents, not {len(names)}")
        for name in names:
            make_bot(name, 0)  # refuse an unknown name now
        if render_mode is not None and render_mode not in ("human", "ansi"):
            raise SettingsError("render_mode must be 'human' or 'ansi'")
        self.players = players
        self.seat = seat
        self.opponent_names = names
        self.reward_kind = check_reward_kind(reward)
        self.illegal_reward = illegal_reward
        self.time_budget = time_budget
        self.truncate_deals = truncate_deals
        self.render_mode = render_mode
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.actions.size)
        self.game: Game | None = None
        self.bots: dict[int, Bot] = {}
        self._mask: Mask = np.zeros(self.actions.size, dtype=np.int8)
        self._pending = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        seeds = self.np_random.integers(0, 2**63 - 1, size=self.players)
        self.game = Game(self.rules, self.players, seed=int(seeds[0]))
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {}
        for index, (other, name) in enumerate(zip(others, self.opponent_names, strict=True)):
            budget = 1.0 if self.time_budget is None else self.time_budget
            self.bots[other] = make_bot(name, int(seeds[index + 1]), budget)
        # With tiny hands a bot can end a deal before the agent's first move.
        self._pending = self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self._game()
        if game.finished:
            raise RuntimeError("the episode is over: call reset()")
        move = self.actions.decode(int(action))
        if not self._mask[int(action)]:
            info = self._info()
            info["illegal_move"] = str(move)
            return self._observe(), float(self.illegal_reward), True, False, info
        deals_before = len(game.results)
        game.play(move, check=False)
        total = self._reward(deals_before) + self._pending
        self._pending = 0.0
        if not game.finished:
            total += self._play_bots()
        if self.render_mode == "human":
            self.render()
        truncated = (not game.finished and self.truncate_deals is not None
                     and len(game.results) >= self.truncate_deals)
        return self._observe(), total, game.finished, truncated, self._info()

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def _reward(self, deals_before: int) -> float:
        earned = step_rewards(self._game(), deals_before, self.reward_kind)
        return 0.0 if earned is None else earned[self.seat]

    def _play_bots(self) -> float:
        """Let the bots move until it is the agent's move or the game is over."""
        game = self._game()
        total = 0.0
        deals_before = len(game.results)

        def reward(_turn: Played) -> None:
            nonlocal total, deals_before
            total += self._reward(deals_before)
            deals_before = len(game.results)

        play_out(game, self.bots, until=lambda g: g.turn == self.seat, on_move=reward)
        return total

    def _observe(self) -> Observation:
        game = self._game()
        view = game.view(self.seat)
        legal = [] if game.finished else view.legal_moves()
        self._mask = self.actions.mask(legal)
        return self.encoder.encode(view)

    def _info(self) -> dict[str, Any]:
        game = self._game()
        return {"action_mask": self._mask.copy(), "totals": list(game.totals),
                "deal": len(game.deals) - 1}

    def action_masks(self) -> Mask:
        """The legal actions now (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask.copy()

    def render(self) -> str | None:
        """The whole table as text (every hand shown): returned for "ansi", printed for "human"."""
        if self.render_mode is None:
            return None
        game = self._game()
        text = f"totals {game.totals} | {game.deal.fen()}"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None
