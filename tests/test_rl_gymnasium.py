"""The single-agent Gymnasium environment against built-in opponents."""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import rummy500.rl
from rummy500.bots import BOT_NAMES
from rummy500.rl.gymnasium_env import Rummy500Env

STRONG = "expert" if "expert" in BOT_NAMES else "random"


def strongest_available() -> str:
    for name in ("expert", "simple", "random"):
        if name in BOT_NAMES:
            return name
    raise AssertionError("no bot")


@pytest.mark.parametrize(("opponents", "players", "preset", "seat"), [
    (STRONG, 2, "classic", 0),
    ("random", 4, "partnership", 2),
    ("random", 3, "wild", 1),
])
def test_gymnasium_check_env(opponents: str, players: int, preset: str, seat: int) -> None:
    env = gymnasium.make(rummy500.rl.ENV_ID, opponents=opponents, players=players,
                         preset=preset, seat=seat, time_budget=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are failures here
        check_env(env.unwrapped)
    env.close()


def play_episode(env: gymnasium.Env[np.ndarray, np.int64], seed: int) -> tuple[float, int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return total, steps


def test_a_whole_game_against_the_strongest_bot() -> None:
    env = Rummy500Env(opponents=strongest_available(), players=2, time_budget=0.01,
                      options={"max_deals": 1, "target_score": None})
    total, steps = play_episode(env, seed=1)
    game = env.game
    assert game is not None and game.finished and steps > 5
    result = game.results[0]
    margin = (result.scores[0] - result.scores[1]) / 500
    won = 0.0 if game.winner is None else (1.0 if game.winner == 0 else -1.0)
    assert total == pytest.approx(margin + won)


def test_the_mask_is_the_agents_legal_moves() -> None:
    env = Rummy500Env(opponents=["random", "random"], players=3, seat=1)
    obs, info = env.reset(seed=2)
    game = env.game
    assert game is not None and game.turn == 1
    moves = game.view(1).legal_moves()
    assert env.actions.moves(info["action_mask"]) == sorted(
        moves, key=env.actions.encode)
    assert np.array_equal(env.action_masks(), info["action_mask"])
    assert np.array_equal(obs, env.encoder.encode(game.view(1)))


def test_an_illegal_action_ends_the_episode() -> None:
    env = Rummy500Env(players=2, illegal_reward=-2.0)
    _obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert "illegal_move" in info


def test_same_seed_same_game() -> None:
    env = Rummy500Env(opponents="random", players=2)
    first = play_episode(env, seed=7)
    second = play_episode(env, seed=7)
    assert first == second


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        Rummy500Env(opponents="nobody")
    with pytest.raises(ValueError):
        Rummy500Env(opponents=["random"], players=3)
    with pytest.raises(ValueError):
        Rummy500Env(seat=2, players=2)


def test_the_baseline_example_trains(monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/train_baseline.py runs end to end (a few seconds of training)."""
    path = Path(__file__).resolve().parent.parent / "examples" / "train_baseline.py"
    spec = importlib.util.spec_from_file_location("train_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_baseline", module)
    spec.loader.exec_module(module)
    shares = module.main(["--minutes", "0.02", "--games", "1", "--envs", "2", "--steps", "32"])
    assert set(shares) == {"random", "simple"} & set(BOT_NAMES) | {"random"}
    assert all(0.0 <= share <= 1.0 for share in shares.values())


def test_a_game_that_never_ends_is_truncated() -> None:
    env = Rummy500Env(opponents="random", players=2, truncate_deals=2)
    _obs, info = env.reset(seed=4)
    for _ in range(10_000):
        _obs, _reward, terminated, truncated, info = env.step(
            np.flatnonzero(info["action_mask"])[0])
        if terminated or truncated:
            break
    assert env.game is not None and not env.game.finished
    assert truncated and not terminated and len(env.game.results) == 2
