"""Tournaments: duplicate deals, statistics, the report and the command line."""

from __future__ import annotations

import json
import math

import pytest

from rummy500.cli import main
from rummy500.rules import make_rules
from rummy500.runners.tournament import (
    TournamentError,
    TournamentSpec,
    bradley_terry,
    mean_ci,
    pack_order,
    percentile,
    play_one,
    run_tournament,
    wilson,
)


def spec(bots: tuple[str, ...] = ("simple", "random"), players: int = 2, preset: str = "classic",
         **kwargs: object) -> TournamentSpec:
    return TournamentSpec(bots, players, make_rules(preset), **kwargs)  # type: ignore[arg-type]


# -- statistics ------------------------------------------------------------------------------


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(60, 100)
    assert math.isclose(low, 0.5020, abs_tol=1e-4) and math.isclose(high, 0.6906, abs_tol=1e-4)
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_and_percentile() -> None:
    mean, _, high = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert math.isclose(high - mean, 1.959963984540054 * math.sqrt(5 / 3 / 4))
    assert mean_ci([]) == (0.0, 0.0, 0.0)
    assert percentile(list(range(1, 101)), 0.95) == 95


def test_bradley_terry_orders_by_results() -> None:
    wins = {("a", "b"): 30.0, ("b", "a"): 10.0, ("b", "c"): 30.0, ("c", "b"): 10.0,
            ("a", "c"): 35.0, ("c", "a"): 5.0}
    ratings = bradley_terry(["a", "b", "c"], wins)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert abs(sum(ratings.values())) < 1e-6
    even = bradley_terry(["a", "b"], {("a", "b"): 5.0, ("b", "a"): 5.0})
    assert abs(even["a"] - even["b"]) < 1e-6


# -- duplicate play --------------------------------------------------------------------------


def test_rotations_cover_every_distinct_seating() -> None:
    assert spec().rotations() == [["simple", "random"], ["random", "simple"]]
    four = spec(("expert", "simple", "simple", "simple"), 4)
    assert len(four.rotations()) == 4
    sides = spec(("expert", "simple"), 4, "partnership")
    assert sides.lineup() == ["expert", "simple", "expert", "simple"]
    assert len(sides.rotations()) == 2


def test_duplicate_deals_deal_the_same_cards_to_the_seats() -> None:
    s = spec(deals=3)
    assert pack_order(s, 2, 0) == pack_order(s, 2, 0)
    assert pack_order(s, 2, 0) != pack_order(s, 3, 0)
    first = play_one(s, 1, 0)
    second = play_one(s, 1, 1)
    assert first.seating == ["simple", "random"] and second.seating == ["random", "simple"]
    assert len(first.deal_scores) == len(second.deal_scores) == 1
    again = play_one(s, 1, 0)
    assert again.deal_scores == first.deal_scores and again.winners == first.winners


def test_whole_games_end_with_a_winner() -> None:
    outcome = play_one(spec(games=1), 0, 0)
    assert outcome.winners in (["simple"], ["random"])
    assert len(outcome.deal_scores) >= 2
    assert sum(len(t) for t in outcome.times.values()) > 20


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(TournamentError, match="unknown bot"):
        run_tournament(spec(("simple", "nobody"), games=1))
    with pytest.raises(TournamentError, match="either"):
        run_tournament(spec(games=1, deals=1))
    with pytest.raises(TournamentError, match="seats"):
        run_tournament(spec(("simple", "random", "expert"), games=1))


def test_tournament_on_two_processes_reports_every_bot() -> None:
    calls: list[tuple[int, int]] = []
    result = run_tournament(spec(deals=6, workers=2),
                            lambda done, total: calls.append((done, total)))
    assert result.games == 12 and result.deals == 12
    assert calls[0] == (0, 12) and calls[-1] == (12, 12)
    data = result.as_dict()
    for name in ("simple", "random"):
        bot = data["bots"][name]
        low, high = bot["ci95"]
        assert 0.0 <= low <= bot["win_share"] <= high <= 1.0
        assert set(bot["decision_ms"]) >= {"mean", "p95", "max"}
        assert bot["decision_ms"]["mean"] <= bot["decision_ms"]["max"]
    shares = data["bots"]["simple"]["wins"] + data["bots"]["random"]["wins"] + data["draws"]
    assert shares == 12
    assert data["difference"]["pairs"] == 6
    single = run_tournament(spec(deals=6, workers=1))
    assert single.as_dict()["bots"]["simple"]["wins"] == data["bots"]["simple"]["wins"]


def test_a_search_of_fixed_worlds_replays_exactly() -> None:
    """With ``worlds`` the searching bot's moves depend on the seed only: the same tournament
    gives the same deals on one process or two, and another seed gives other deals."""
    first = run_tournament(spec(("mcts", "expert"), deals=1, seed=3, worlds=2, workers=1))
    again = run_tournament(spec(("mcts", "expert"), deals=1, seed=3, worlds=2, workers=2))
    assert first.as_dict()["worlds"] == 2
    scores = [b.deal_points for b in first.bots.values()]
    assert scores == [b.deal_points for b in again.bots.values()]
    other = run_tournament(spec(("mcts", "expert"), deals=1, seed=4, worlds=2, workers=1))
    assert scores != [b.deal_points for b in other.bots.values()]
    with pytest.raises(TournamentError, match="sampled deal"):
        run_tournament(spec(("mcts", "expert"), deals=1, worlds=0))


def test_bot_options_reach_every_process_and_bad_ones_are_refused() -> None:
    """``mcts`` searching one candidate and never whether to put cards down plays
    ``expert``'s every move: each duplicate pair then comes out level, on two processes as
    on one, while the search as it is does not."""
    plain = {"mcts": {"candidates": 1, "holds": 0}}
    level = run_tournament(spec(("mcts", "expert"), deals=3, seed=5, worlds=4, workers=2,
                                bot_options=plain))
    assert level.difference is not None and level.difference[2] == [0.0, 0.0, 0.0]
    assert level.as_dict()["bot_options"] == {"mcts": {"candidates": 1, "holds": 0}}
    searched = run_tournament(spec(("mcts", "expert"), deals=3, seed=5, worlds=4, workers=1))
    assert searched.difference is not None and searched.difference[2] != [0.0, 0.0, 0.0]
    assert "bot_options" not in searched.as_dict()
    for options, words in (({"expert": {"holds": 1}}, "takes no search options"),
                           ({"random": {}}, "does not play"),
                           ({"mcts": {"depth": 3}}, "no search option 'depth'"),
                           ({"mcts": {"holds": 1.5}}, "whole number"),
                           ({"mcts": {"holds": -1}}, "from 0 to 20"),
                           ({"mcts": {"margin": math.nan}}, "needs a number"),
                           ({"mcts": {"light": "yes"}}, "needs a number")):
        with pytest.raises(TournamentError, match=words):
            run_tournament(spec(("mcts", "expert"), deals=1, bot_options=options))


def test_command_line_refuses_an_empty_search(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "mcts,expert", "--deals", "1", "--worlds", "0"]) == 2
    assert "at least one sampled deal" in capsys.readouterr().err


def test_three_bots_get_a_rating_table() -> None:
    result = run_tournament(spec(("simple", "random", "expert"), 3, deals=2, workers=1))
    data = result.as_dict()
    assert set(data["ratings"]) == {"simple", "random", "expert"}
    assert "difference" not in data


def test_command_line_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--bots", "simple,random", "--deals", "3", "--seed", "4",
                 "--workers", "1", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["bots"]) == {"simple", "random"}
    for bot in data["bots"].values():
        assert len(bot["ci95"]) == 2 and set(bot["decision_ms"]) >= {"mean", "p95", "max"}


def test_command_line_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "simple,random", "--games", "1", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "win share" in out and "simple minus random" in out
    assert main(["tournament", "--bots", "simple,ghost", "--games", "1"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["tournament", "--bots", "expert,simple", "--preset", "persian", "--games",
                 "1", "--budget", "0"]) == 2


def test_command_line_bot_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``--bot-option`` reaches the bots: ``mcts`` searching one candidate and never whether
    to put cards down plays ``expert``'s moves, so every pair comes out level."""
    args = ["tournament", "--bots", "mcts,expert", "--deals", "2", "--seed", "5", "--worlds",
            "4", "--workers", "1"]
    assert main([*args, "--json", "--bot-option", "mcts:candidates=1",
                 "--bot-option", "mcts:holds=0"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bot_options"] == {"mcts": {"candidates": 1, "holds": 0}}
    assert data["difference"]["points_per_deal"] == 0.0
    assert data["difference"]["ci95"] == [0.0, 0.0]
    assert main([*args, "--bot-option", "mcts:holds=1"]) == 0
    assert "mcts with holds=1," in " ".join(capsys.readouterr().out.split())
    for option, words in (("mcts=holds", "is not BOT:NAME=VALUE"),
                          ("mcts:holds=many", "'many' is not a number"),
                          ("expert:holds=1", "expert takes no search options"),
                          ("mcts:depth=2", "no search option 'depth'"),
                          ("simple:holds=1", "simple, who does not play")):
        assert main([*args, "--bot-option", option]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
