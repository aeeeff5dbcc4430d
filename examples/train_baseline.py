"""Train a small masked-action agent for 500 Rum and report its win share.

The agent is a two-layer network trained with PPO (PyTorch, CPU) on the
Gymnasium environment ``rummy500/Rummy500-v0`` against the ``random`` bot; only
legal actions get probability (the environment's action mask). It is then
matched against ``random`` and ``simple`` for whole games to 500.

Run: ``.venv/bin/python examples/train_baseline.py`` (needs ``pip install torch``;
``--minutes`` sets the training time, ``--games`` the games per evaluation).
The results of a run are in ``docs/rl.md``.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn

import rummy500.rl
from rummy500.bots import BOT_NAMES


class Policy(nn.Module):
    """Shared body, a masked policy head and a value head."""

    def __init__(self, observations: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(observations, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)


@dataclass
class Batch:
    obs: list[np.ndarray]
    masks: list[np.ndarray]
    actions: list[int]
    logps: list[float]
    values: list[float]
    rewards: list[float]
    dones: list[bool]


Env = gymnasium.Env[Any, Any]


def make_env(opponent: str) -> Env:
    return gymnasium.make(rummy500.rl.ENV_ID, opponents=opponent, players=2,
                          time_budget=0.05)


def collect(envs: list[Env], state: list[tuple[np.ndarray, np.ndarray]], net: Policy,
            steps: int, rng: np.random.Generator, returns: list[float],
            running: list[float]) -> tuple[Batch, list[float]]:
    """``steps`` steps in each environment with the current policy."""
    batch = Batch([], [], [], [], [], [], [])
    per_env: list[Batch] = [Batch([], [], [], [], [], [], []) for _ in envs]
    for _ in range(steps):
        obs = torch.as_tensor(np.stack([s[0] for s in state]))
        mask = torch.as_tensor(np.stack([s[1] for s in state]).astype(bool))
        with torch.no_grad():
            logits, values = net(obs, mask)
            log_probs = logits.log_softmax(-1)
            actions = torch.multinomial(log_probs.exp(), 1).squeeze(-1)
            logps = log_probs.gather(-1, actions[:, None]).squeeze(-1)
        for i, env in enumerate(envs):
            action = int(actions[i])
            b = per_env[i]
            b.obs.append(state[i][0])
            b.masks.append(state[i][1])
            b.actions.append(action)
            b.logps.append(float(logps[i]))
            b.values.append(float(values[i]))
            new_obs, reward, terminated, truncated, info = env.step(action)
            running[i] += float(reward)
            done = terminated or truncated
            b.rewards.append(float(reward))
            b.dones.append(done)
            if done:
                returns.append(running[i])
                running[i] = 0.0
                new_obs, info = env.reset(seed=int(rng.integers(2**31)))
            state[i] = (new_obs, info["action_mask"])
    # bootstrap values for the last states
    with torch.no_grad():
        obs = torch.as_tensor(np.stack([s[0] for s in state]))
        mask = torch.as_tensor(np.stack([s[1] for s in state]).astype(bool))
        _, last = net(obs, mask)
    advantages: list[float] = []
    for i, b in enumerate(per_env):
        adv = gae(b.rewards, b.values, b.dones, float(last[i]))
        advantages.extend(adv)
        for field in ("obs", "masks", "actions", "logps", "values", "rewards", "dones"):
            getattr(batch, field).extend(getattr(b, field))
    return batch, advantages


def gae(rewards: list[float], values: list[float], dones: list[bool], last: float,
        gamma: float = 0.995, lam: float = 0.95) -> list[float]:
    advantages = [0.0] * len(rewards)
    running = 0.0
    next_value = last
    for t in range(len(rewards) - 1, -1, -1):
        alive = 0.0 if dones[t] else 1.0
        delta = rewards[t] + gamma * next_value * alive - values[t]
        running = delta + gamma * lam * alive * running
        advantages[t] = running
        next_value = values[t]
    return advantages


def update(net: Policy, optimizer: torch.optim.Optimizer, batch: Batch,
           advantages: list[float], rng: np.random.Generator, epochs: int = 3,
           minibatch: int = 1024, clip: float = 0.2) -> None:
    obs = torch.as_tensor(np.stack(batch.obs))
    mask = torch.as_tensor(np.stack(batch.masks).astype(bool))
    actions = torch.as_tensor(batch.actions)
    old_logps = torch.as_tensor(batch.logps)
    adv = torch.as_tensor(advantages, dtype=torch.float32)
    targets = adv + torch.as_tensor(batch.values, dtype=torch.float32)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    n = len(batch.actions)
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, minibatch):
            idx = torch.as_tensor(order[start:start + minibatch])
            logits, values = net(obs[idx], mask[idx])
            log_probs = logits.log_softmax(-1)
            logps = log_probs.gather(-1, actions[idx][:, None]).squeeze(-1)
            entropy = -(log_probs.exp() * log_probs).sum(-1)
            ratio = (logps - old_logps[idx]).exp()
            surrogate = torch.min(ratio * adv[idx],
                                  ratio.clamp(1 - clip, 1 + clip) * adv[idx])
            loss = (-surrogate.mean() + 0.5 * (values - targets[idx]).pow(2).mean()
                    - 0.01 * entropy.mean())
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()


def win_share(net: Policy, opponent: str, games: int, seed: int) -> float:
    """The agent's share of whole games won against ``opponent`` (a draw counts half)."""
    env = make_env(opponent)
    points = 0.0
    for game in range(games):
        obs, info = env.reset(seed=seed + game)
        while True:
            with torch.no_grad():
                logits, _ = net(torch.as_tensor(obs)[None],
                                torch.as_tensor(info["action_mask"].astype(bool))[None])
            obs, _reward, terminated, truncated, info = env.step(int(logits.argmax()))
            if terminated or truncated:
                break
        winner = env.unwrapped.game.winner  # type: ignore[attr-defined]
        points += 1.0 if winner == 0 else (0.5 if winner is None else 0.0)
    return points / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Train, evaluate, print; return the win share against each opponent."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=4.0, help="training time")
    parser.add_argument("--games", type=int, default=100, help="games per evaluation")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=128, help="steps per env per update")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    random.seed(args.seed)
    rng = np.random.default_rng(args.seed)
    envs = [make_env("random") for _ in range(args.envs)]
    state = []
    for i, env in enumerate(envs):
        obs, info = env.reset(seed=args.seed * 1000 + i)
        state.append((obs, info["action_mask"]))
    space = envs[0].unwrapped.actions  # type: ignore[attr-defined]
    net = Policy(envs[0].observation_space.shape[0], space.size)  # type: ignore[index]
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    returns: list[float] = []
    running = [0.0] * len(envs)
    start = time.perf_counter()
    updates = steps = 0
    print(f"training for {args.minutes:g} min against random ({args.envs} envs)")
    while time.perf_counter() - start < args.minutes * 60:
        batch, advantages = collect(envs, state, net, args.steps, rng, returns, running)
        update(net, optimizer, batch, advantages, rng)
        updates += 1
        steps += len(batch.actions)
        if updates % 10 == 0:
            recent = returns[-100:]
            mean = sum(recent) / len(recent) if recent else float("nan")
            print(f"  {time.perf_counter() - start:6.0f}s  {steps:>8} steps  "
                  f"{len(returns):>5} games  mean return (last 100) {mean:+.2f}")
    print(f"trained: {steps} steps, {len(returns)} games, {updates} updates")
    opponents = [name for name in ("random", "simple") if name in BOT_NAMES]
    shares = {}
    for opponent in opponents:
        shares[opponent] = share = win_share(net, opponent, args.games, seed=10_000)
        print(f"win share against {opponent}: {share:.0%} of {args.games} games")
    return shares


if __name__ == "__main__":
    main()
