"""The simulation library: seeded deals between bots, and the statistics of a run."""

from __future__ import annotations

from typing import Any

import pytest

from rummy500.bots import Bot, Decision
from rummy500.game import Game
from rummy500.moves import parse_move
from rummy500.narrate import fresh_deal, narrate_deal, narrate_game
from rummy500.record import game_record, replay, replay_summary
from rummy500.rules import PRESETS, RulesError, make_rules
from rummy500.runners.simulation import (
    ENDINGS,
    DealOutcome,
    SimulationError,
    Spread,
    deal_seed,
    make_bots,
    parse_options,
    play_deal,
    play_turns,
    rules_from_options,
    seat_bots,
    simulate,
)
from rummy500.view import PlayerView


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in summary.items() if key != "timing"}


def test_deal_seeds_are_fixed_and_distinct() -> None:
    seeds = [deal_seed(5, index) for index in range(50)]
    assert seeds == [deal_seed(5, index) for index in range(50)]
    assert len(set(seeds)) == 50
    assert deal_seed(5, 0) != deal_seed(6, 0)


def test_same_seed_same_summary_and_another_seed_differs() -> None:
    rules = make_rules("classic")
    first = simulate(rules, 2, ["random"], seed=11, deals=6).as_dict()
    second = simulate(rules, 2, ["random"], seed=11, deals=6).as_dict()
    other = simulate(rules, 2, ["random"], seed=12, deals=6).as_dict()
    assert without_timing(first) == without_timing(second)
    assert without_timing(first) != without_timing(other)


def test_every_deal_stands_alone() -> None:
    """Deal k of a run is the game play_deal(seed, k) plays by itself."""
    rules = make_rules("wild")
    records: dict[int, dict[str, Any]] = {}

    def keep(game: Game, outcome: DealOutcome) -> None:
        records[outcome.index] = game_record(game)

    simulate(rules, 3, ["random"], seed=4, deals=4, on_deal=keep)
    for index in (0, 3):
        game, outcome = play_deal(rules, 3, ["random"], 4, index)
        assert game_record(game) == records[index]
        assert len(records[index]["rounds"]) == 1
        assert outcome.seed == deal_seed(4, index)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_summary_numbers_agree(preset: str) -> None:
    rules = make_rules(preset)
    players = 4 if rules.partnership else 3
    outcomes: list[DealOutcome] = []
    summary = simulate(rules, players, ["random"], seed=2, deals=5,
                       on_deal=lambda game, outcome: outcomes.append(outcome))
    data = summary.as_dict()
    assert data["deals"] == 5 == len(outcomes)
    assert set(data["ended_by"]) == set(ENDINGS)
    assert sum(data["ended_by"].values()) == 5
    assert sum(data["went_out_per_seat"]) == data["ended_by"]["went out"]
    assert sum(data["wins_per_side"]) + data["ties"] == 5
    assert len(data["points"]["per_side"]) == data["sides"] == rules.sides(players)
    for side, spread in enumerate(data["points"]["per_side"]):
        scores = [outcome.result.scores[side] for outcome in outcomes]
        assert spread["min"] == min(scores) and spread["max"] == max(scores)
        assert spread["mean"] == pytest.approx(sum(scores) / 5, abs=1e-3)
    overall = data["points"]["overall"]
    assert overall["min"] == min(s["min"] for s in data["points"]["per_side"])
    assert overall["max"] == max(s["max"] for s in data["points"]["per_side"])
    assert data["moves"]["max"] == max(outcome.moves for outcome in outcomes)
    for outcome in outcomes:
        assert outcome.turns <= outcome.moves
    assert data["win_share"] == [round(w / 5, 4) for w in data["wins_per_side"]]


def test_records_replay_to_the_counted_scores() -> None:
    rules = make_rules("classic", stock_exhausted="reshuffle")
    seen: list[tuple[dict[str, Any], DealOutcome]] = []
    simulate(rules, 5, ["random"], seed=8, deals=4,
             on_deal=lambda game, outcome: seen.append((game_record(game), outcome)))
    for record, outcome in seen:
        summary = replay_summary(replay(record))
        assert summary["ok"] is True
        assert summary["rounds"][0]["scores"] == list(outcome.result.scores)
        assert summary["rounds"][0]["went_out"] == outcome.result.went_out


def test_narration_replays_each_deal_to_its_result() -> None:
    for index in range(3):
        game, outcome = play_deal(make_rules("wild"), 3, ["random"], 21, index)
        lines = list(narrate_game(game))
        copy = fresh_deal(game.deal)
        told = list(narrate_deal(copy, game.deal.moves, 1, hands=False))
        assert copy.result() == outcome.result
        assert len(told) == 1 + outcome.moves + copy.restocks
        said = [line for line in lines if line.startswith("Seat ")]
        assert len(said) == outcome.moves


class WatchfulBot(Bot):
    """Checks that it is handed its own seat's view, then plays the first legal move."""

    name = "watchful"

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.views = 0

    def decide(self, view: PlayerView) -> Decision:
        assert isinstance(view, PlayerView)
        assert view.seat == view.turn
        self.views += 1
        return Decision(view.legal_moves()[0], "first")


def test_bots_decide_from_their_own_views() -> None:
    game = Game(make_rules("classic"), 2, seed=3, auto_deal=True)
    bots = [WatchfulBot(), WatchfulBot()]
    play_turns(game, bots)
    assert game.results
    assert sum(bot.views for bot in bots) == len(game.deals[0].moves)


class CheatingBot(Bot):
    """Discards before drawing: the checks must catch it."""

    name = "cheat"

    def decide(self, view: PlayerView) -> Decision:
        if view.phase == "draw":
            return Decision(parse_move("discard Ks"), "skip the draw")
        return Decision(view.legal_moves()[0], "first")


def test_an_illegal_bot_move_is_caught() -> None:
    game = Game(make_rules("classic"), 2, seed=3)
    with pytest.raises(SimulationError, match="illegal"):
        play_turns(game, [CheatingBot(0), CheatingBot(1)], check=True)


def test_bots_are_seeded_per_seat() -> None:
    first = [bot.rng.random() for bot in make_bots(["random", "random"], 9)]
    again = [bot.rng.random() for bot in make_bots(["random", "random"], 9)]
    assert first == again
    assert first[0] != first[1]


def test_spread() -> None:
    spread = Spread.of(list(range(1, 21)))
    assert (spread.mean, spread.p95, spread.min, spread.max) == (10.5, 19, 1, 20)
    assert Spread.of([7]) == Spread(7.0, 7, 7, 7)
    assert Spread.of([]) == Spread(0.0, 0.0, 0.0, 0.0)


def test_options_from_text() -> None:
    assert parse_options(["min_run=4", "rummy_calls=true", "stock_exhausted=end",
                          "target_score=none"]) == {
        "min_run": 4, "rummy_calls": True, "stock_exhausted": "end", "target_score": None}
    rules = rules_from_options("wild", ["min_run=4"])
    assert rules.min_run == 4 and rules.jokers == "wild"
    for bad in (["min_run"], ["=4"], ["colour=red"], ["min_run=two"], ["point_divisor=5"]):
        with pytest.raises(RulesError):
            rules_from_options("classic", bad)
    with pytest.raises(RulesError, match="preset"):
        rules_from_options("nope")


def test_bot_names_per_seat() -> None:
    assert seat_bots(["random"], 3) == ["random"] * 3
    assert seat_bots(["random", "random"], 2) == ["random", "random"]
    with pytest.raises(SimulationError, match="unknown bot"):
        seat_bots(["nobody"], 2)
    with pytest.raises(SimulationError, match="one per seat"):
        seat_bots(["random", "random"], 3)


def test_impossible_runs_are_refused() -> None:
    with pytest.raises(RulesError):
        simulate(make_rules("partnership"), 3, ["random"], seed=1, deals=1)
    with pytest.raises(RulesError):
        simulate(make_rules("classic"), 9, ["random"], seed=1, deals=1)
    with pytest.raises(SimulationError):
        simulate(make_rules("classic"), 2, ["random"], seed=1, deals=-1)

