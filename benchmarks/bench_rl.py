"""Deals per second through the learning environments, with random legal actions.

Run: ``.venv/bin/python benchmarks/bench_rl.py`` (``--seconds``, ``--players``,
``--preset``). Every decision builds the observation and the action mask of the
player to move (as an agent would need them) and picks uniformly among the legal
actions, from a seeded random source:

- PettingZoo: ``rummy500.rl.pettingzoo.env()`` (and ``raw_env()``), through
  ``agent_iter`` / ``last`` / ``step``;
- Gymnasium: ``gymnasium.make("rummy500/Rummy500-v0", opponents="random")``,
  every seat's deals counted (the opponents decide through the bot interface);
- OpenSpiel: ``python_rummy500`` with chance outcomes sampled, the legal actions
  and the observation tensor of the player to move at every decision (through
  ``open_spiel.python.observation.make_observation``, OpenSpiel's way to fill a
  NumPy tensor in place; ``state.observation_tensor()`` adds a list conversion).

Figures are per second of this process's CPU time (one core; the machine may be
busy with other work), with wall-clock time beside them.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.observation import make_observation  # type: ignore[import-untyped]

import rummy500.rl
import rummy500.rl.openspiel
from rummy500.rl.pettingzoo import env, raw_env


def pettingzoo_deals(make: Callable[..., Any], players: int, preset: str, seconds: float,
                     seed: int) -> tuple[int, int]:
    """Deals and decisions played in ``seconds`` of CPU time."""
    rng = random.Random(seed)
    e = make(players=players, preset=preset)
    e.reset(seed=seed)
    deals = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        e.reset()
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(legal.size)]))
            decisions += 1
        deals += len(e.unwrapped.game.results)
    return deals, decisions


def gymnasium_deals(players: int, preset: str, seconds: float, seed: int) -> tuple[int, int]:
    rng = np.random.default_rng(seed)
    e = gymnasium.make(rummy500.rl.ENV_ID, opponents="random", players=players, preset=preset)
    deals = decisions = 0
    _obs, info = e.reset(seed=seed)
    start = time.process_time()
    while time.process_time() - start < seconds:
        legal = np.flatnonzero(info["action_mask"])
        _obs, _reward, terminated, truncated, info = e.step(legal[rng.integers(legal.size)])
        decisions += 1
        if terminated or truncated:
            deals += len(e.unwrapped.game.results)  # type: ignore[attr-defined]
            _obs, info = e.reset()
    return deals, decisions


def openspiel_deals(players: int, preset: str, seconds: float, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    game = pyspiel.load_game(rummy500.rl.openspiel.SHORT_NAME,
                             {"players": players, "preset": preset})
    observation = make_observation(game)
    deals = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes],
                                               [p for _, p in outcomes])[0])
                continue
            observation.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        deals += len(state.engine.results)
    return deals, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per library")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs: list[tuple[str, Callable[[], tuple[int, int]]]] = [
        ("pettingzoo env()", lambda: pettingzoo_deals(env, args.players, args.preset,
                                                      args.seconds, args.seed)),
        ("pettingzoo raw_env()", lambda: pettingzoo_deals(raw_env, args.players, args.preset,
                                                          args.seconds, args.seed)),
        ("gymnasium", lambda: gymnasium_deals(args.players, args.preset, args.seconds,
                                              args.seed)),
        ("openspiel", lambda: openspiel_deals(args.players, args.preset, args.seconds,
                                              args.seed)),
    ]
    print(f"{args.preset}, {args.players} players, random legal actions, "
          f"observation and mask at every decision")
    print(f"{'library':<22} {'deals':>6} {'deals/s':>8} {'decisions/s':>12} {'wall deals/s':>13}")
    for name, run in runs:
        cpu, wall = time.process_time(), time.perf_counter()
        deals, decisions = run()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"{name:<22} {deals:>6} {deals / cpu:>8.0f} {decisions / cpu:>12.0f} "
              f"{deals / wall:>13.0f}")


if __name__ == "__main__":
    main()
