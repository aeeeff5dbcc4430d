"""The PettingZoo AEC environment: PettingZoo's own checks, rewards, illegal actions."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from rummy500.rl.pettingzoo import env, raw_env
from rummy500.rl.rewards import deal_rewards


@pytest.mark.parametrize(("players", "preset"), [
    (2, "classic"), (3, "wild"), (4, "persian"), (5, "classic")])
def test_pettingzoo_api_test(players: int, preset: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that a dict observation is not a plain array, as for its own
        # classic games (observation plus action_mask).
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(players=players, preset=preset), num_cycles=400)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(players=3), num_cycles=300)
    seed_test(lambda: env(players=2, preset="wild"), num_cycles=300)


def play_out(e: Any, rng: random.Random) -> tuple[dict[str, float], int]:
    """Play a whole game with random legal actions; the summed rewards and the steps."""
    totals: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        e.step(int(legal[rng.randrange(legal.size)]))
        steps += 1
    return totals, steps


def test_rewards_are_deal_margins_and_the_game_result() -> None:
    e = env(players=3, preset="classic")
    e.reset(seed=5)
    totals, steps = play_out(e, random.Random(5))
    game = e.unwrapped.game
    assert game.finished and steps > 100
    margins = [0.0] * 3
    for result in game.results:
        for seat, value in enumerate(deal_rewards(game.rules, 3, result.scores)):
            margins[seat] += value
    for seat in range(3):
        won = 1.0 if seat == game.winner else (0.0 if game.winner is None else -0.5)
        assert totals[f"player_{seat}"] == pytest.approx(margins[seat] + won)
    assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("reward", ["score", "win"])
def test_reward_kinds(reward: str) -> None:
    e = env(players=4, preset="partnership", reward=reward)
    e.reset(seed=2)
    totals, _steps = play_out(e, random.Random(2))
    game = e.unwrapped.game
    assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]
    assert totals["player_0"] == pytest.approx(-totals["player_1"])
    if reward == "win":
        assert abs(totals["player_0"]) == (0.0 if game.winner is None else 1.0)


def test_one_deal_games_through_options() -> None:
    e = env(players=2, options={"max_deals": 1, "target_score": None})
    e.reset(seed=9)
    play_out(e, random.Random(9))
    assert len(e.unwrapped.game.results) == 1


def test_an_illegal_action_ends_the_game_for_env_and_raises_for_raw_env() -> None:
    e = env(players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert "illegal_move" in e.infos[agent]
    raw = raw_env(players=2)
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="cannot play"):
        raw.step(illegal)
    with pytest.raises(ValueError):
        raw.step(raw.actions.size)


def test_observations_come_from_each_seats_view() -> None:
    e = raw_env(players=3)
    e.reset(seed=4)
    game = e.game
    assert game is not None
    for agent in e.agents:
        seat = int(agent.split("_")[1])
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], e.encoder.encode(game.view(seat)))
        if seat == game.turn:
            assert int(obs["action_mask"].sum()) == len(game.legal_moves())
        else:
            assert int(obs["action_mask"].sum()) == 0


def test_render_and_seeding() -> None:
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str) and "totals" in text
    first = e.observe(e.agent_selection)["observation"]
    e.reset(seed=3)
    assert np.array_equal(first, e.observe(e.agent_selection)["observation"])
    with pytest.raises(ValueError):
        raw_env(render_mode="rgb_array")


def test_a_game_that_never_ends_is_truncated() -> None:
    """Agents that never meld lose points every deal and never reach 500: truncation
    (before the third such deal, which would end the game: rules-decisions.md)."""
    e = env(players=2, truncate_deals=2)
    e.reset(seed=6)
    truncated = False
    for _agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))  # draw or end, then discard
    game = e.unwrapped.game
    assert truncated and not game.finished and len(game.results) == 2
    assert all(result.ended_by in ("declined", "stock", "idle") for result in game.results)
