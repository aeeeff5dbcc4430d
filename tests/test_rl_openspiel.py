"""The OpenSpiel game ``python_rummy500``: OpenSpiel's checks, chance, resampling, ISMCTS."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
import pytest
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

import rummy500.rl.openspiel
from rummy500.bots import BOT_NAMES, make_bot
from rummy500.rl.openspiel import parse_options


def load(**params: Any) -> Any:
    return pyspiel.load_game(rummy500.rl.openspiel.SHORT_NAME, params)


def sample(state: Any, rng: random.Random) -> int:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        assert sum(probs) == pytest.approx(1.0)
        return int(rng.choices(actions, probs)[0])
    return int(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("params", [
    {"players": 2},
    {"players": 2, "max_deals": 1, "preset": "wild"},
    {"players": 4, "preset": "persian", "max_deals": 1},
    {"players": 3, "max_deals": 1, "options": "stock_exhausted:reshuffle;hand_size:10"},
    {"players": 6, "max_deals": 1},
])
def test_random_sim_test_with_serialization(params: dict[str, Any]) -> None:
    game = load(**params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_facts() -> None:
    game = load(players=2)
    assert game.num_players() == 2
    assert game.num_distinct_actions() == game.space.size == 1359
    assert game.max_chance_outcomes() == 52
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert str(game) == "python_rummy500(max_deals=0,options=,players=2,preset=classic)"
    assert game.rules.max_deals == rummy500.rl.openspiel.DEAL_LIMIT  # every game is finite
    assert game.rules.target_score == 500
    assert load(players=2, max_deals=2).rules.max_deals == 2
    assert load(players=4, preset="persian").rules.max_deals == 2
    again = pyspiel.load_game(str(game))
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert parse_options("min_run:4; discard_to_go_out:true") == {
        "min_run": 4, "discard_to_go_out": True}
    with pytest.raises(ValueError):
        parse_options("min_run=4")


def test_chance_deals_every_card_and_every_draw() -> None:
    game = load(players=2, max_deals=1)
    state = game.new_initial_state()
    rng = random.Random(3)
    assert [p for _a, p in state.chance_outcomes()] == [0.5, 0.5]
    state.apply_action(1)  # seat 1 deals: seat 0 is dealt first and plays first
    dealt = 0
    while state.is_chance_node():
        assert len(state.chance_outcomes()) == 52 - dealt
        state.apply_action(sample(state, rng))
        dealt += 1
    assert dealt == 2 * 13 + 1
    assert state.current_player() == 0
    draw = game.space.from_text("draw")
    state.apply_action(draw)
    assert state.is_chance_node()
    stock = state.view(0).stock_count
    assert len(state.chance_outcomes()) == stock
    hand = state.view(0).hand.bit_count()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.view(0).hand.bit_count() == hand + 1
    assert state.view(0).stock_count == stock - 1
    assert state.current_player() == 0


def test_information_states_have_perfect_recall_and_hide_other_hands() -> None:
    game = load(players=3, max_deals=1)
    rng = random.Random(8)
    state = game.new_initial_state()
    seen: list[list[str]] = [[], [], []]
    while not state.is_terminal():
        if not state.is_chance_node():
            for p in range(3):
                info = state.information_state_string(p)
                if seen[p]:
                    assert info.startswith(seen[p][-1])  # nothing seen is forgotten
                seen[p].append(info)
        state.apply_action(sample(state, rng))
    view = state.view(0)
    assert len({seen[p][-1] for p in range(3)}) == 3
    other_hand = state.information_state_string(1)
    assert other_hand != state.information_state_string(0)
    assert view.phase == "over"


@pytest.mark.parametrize("params", [
    {"players": 2},
    {"players": 4, "preset": "wild", "max_deals": 1},
    {"players": 3, "max_deals": 1, "options": "stock_exhausted:reshuffle;hand_size:12"},
])
def test_resample_from_infostate_keeps_what_the_player_knows(params: dict[str, Any]) -> None:
    game = load(**params)
    players = game.num_players()
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = differed = 0
    reshuffled = False
    for _ in range(2):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 1500:
            steps += 1
            if not state.is_chance_node() and rng.random() < 0.08:
                player = state.current_player()
                for p in range(players):
                    other = state.resample_from_infostate(p, sampler)
                    assert other.information_state_string(p) == state.information_state_string(p)
                    assert other.current_player() == player
                    assert np.array_equal(other.observation_tensor(p),
                                          state.observation_tensor(p))
                    if p == player:
                        assert other.legal_actions() == state.legal_actions()
                    if other.history() != state.history():
                        differed += 1
                    checked += 1
                engine = state.engine
                reshuffled = reshuffled or (engine is not None and engine.deal.restocks > 0)
            state.apply_action(sample(state, rng))
    assert checked > 20 and differed > checked // 2
    if "reshuffle" in params.get("options", ""):
        assert reshuffled


def test_clone_and_pickle_are_the_same_state() -> None:
    game = load(players=2, max_deals=1)
    rng = random.Random(1)
    state = game.new_initial_state()
    for _ in range(120):
        state.apply_action(sample(state, rng))
    twin = state.clone()
    assert str(twin) == str(state) and twin.history() == state.history()
    twin.apply_action(sample(twin, rng))
    assert twin.history() != state.history()
    restored = pickle.loads(pickle.dumps(state._core))
    assert str(restored) == str(state._core)
    text = pyspiel.serialize_game_and_state(game, state)
    _game, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state)


def test_ismcts_plays_against_rummy500_mcts() -> None:
    """OpenSpiel's ISMCTS bot (seat 0) against rummy500's strongest bot (seat 1), one deal."""
    game = load(players=2, max_deals=1, options="hand_size_two:7")
    opponent_name = "mcts" if "mcts" in BOT_NAMES else "random"
    opponent = make_bot(opponent_name, seed=2, time_budget=0.02)
    random_state = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8,
                           random_state=random_state)
    rng = random.Random(6)
    state = game.new_initial_state()
    decisions = [0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
            continue
        player = state.current_player()
        if player == 0:
            action = bot.step(state)
        else:
            action = game.space.encode(opponent.choose(state.view(1)))
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions[player] += 1
    assert min(decisions) > 3
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]
