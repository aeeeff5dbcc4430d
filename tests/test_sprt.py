"""The stopping rule (--sprt): its log-likelihood ratio against known values, and a match
that stops once it decides."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from rummy500.cli import main
from rummy500.rules import make_rules
from rummy500.runners.sprt import (
    H0,
    H1,
    INCONCLUSIVE,
    SetWatch,
    Sprt,
    SprtRun,
    expected_score,
    llr,
    llr_approximation,
)
from rummy500.runners.tournament import GameOutcome, TournamentError, TournamentSpec, run_tournament

# -- the arithmetic --------------------------------------------------------------------------


def test_bounds_and_scores_are_walds_and_elos() -> None:
    lower, upper = Sprt(0, 5).bounds
    assert math.isclose(upper, math.log(19)) and math.isclose(lower, -math.log(19))
    lower, upper = Sprt(0, 5, alpha=0.01, beta=0.1).bounds
    assert math.isclose(lower, math.log(0.1 / 0.99)) and math.isclose(upper, math.log(90))
    assert expected_score(0) == 0.5
    assert math.isclose(expected_score(400), 10 / 11)
    assert math.isclose(expected_score(-200) + expected_score(200), 1.0)


def test_two_outcomes_give_walds_binomial_ratio() -> None:
    """With wins and losses only the fit is exact: W log(s1/s0) + L log((1-s1)/(1-s0))."""
    s0, s1 = expected_score(0), expected_score(10)
    for losses, wins in ((40, 60), (55, 45), (3, 1)):
        known = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
        assert math.isclose(llr([losses, wins], 0, 10), known, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(llr([40, 60], 0, 10), 0.534231, rel_tol=1e-5)


def test_the_approximation_is_its_closed_form_and_near_the_exact_ratio() -> None:
    s0, s1 = expected_score(0), expected_score(10)
    # 100 sets, mean 0.6, variance 0.24.
    assert math.isclose(llr_approximation([40, 60], 0, 10),
                        100 * (s1 - s0) * (1.2 - s0 - s1) / (2 * 0.24))
    for counts in ([120, 310, 560, 330, 140], [300, 400, 330], [10, 30, 50, 30, 15]):
        exact, approx = llr(counts, 0, 5), llr_approximation(counts, 0, 5)
        assert math.isclose(exact, approx, rel_tol=0.02, abs_tol=0.01), counts


def test_the_ratio_is_the_same_seen_from_the_other_bot() -> None:
    counts = [7, 20, 31, 25, 11]
    assert math.isclose(llr(counts, 0, 20), llr(counts[::-1], -0.0, -20.0), rel_tol=1e-9)
    assert llr([0, 0, 0], 0, 10) == 0.0


def test_a_lopsided_match_needs_evidence_all_the_same() -> None:
    """Sets won twice count as one win each at worst (the two games may be one event):
    with H1 at +50 Elo, 23 of them are needed, where the closed form would stop at once."""
    test = Sprt(0, 50)
    assert test.verdict([0, 0, 0, 0, 22]) == INCONCLUSIVE
    assert test.verdict([0, 0, 0, 0, 23]) == H1
    assert test.verdict([23, 0, 0, 0, 0]) == H0
    assert math.isclose(test.llr([0, 0, 0, 0, 1]), math.log(expected_score(50) / 0.5),
                        rel_tol=1e-2)  # the prior on unseen scores
    assert llr_approximation([0, 0, 0, 0, 1], 0, 50) > 10


def test_the_run_counts_sets_in_order_and_stops_counting_once_decided() -> None:
    run = SprtRun(Sprt(0, 50), games_per_set=2)
    assert len(run.counts) == 5
    decided = [run.add(4) for _ in range(25)]
    assert decided.index(True) == 22 and run.sets == 23 and run.verdict == H1
    assert run.as_dict()["scores"] == [0, 0, 0, 0, 23]


def test_sets_are_counted_in_the_order_of_their_index() -> None:
    def game(index: int, rotation: int, *winners: str) -> GameOutcome:
        return GameOutcome(index, rotation, ["a", "b"], list(winners), [[0, 0]])

    watch = SetWatch(Sprt(0, 50), "a", games_per_set=2)
    watch.add([game(1, 0, "a"), game(1, 1, "a"), game(0, 0, "b")])
    assert watch.run.sets == 0  # set 0 is not finished: set 1 waits for it
    watch.add([game(0, 1)])  # a draw
    assert watch.run.counts == [0, 1, 0, 0, 1]  # set 0: a loss and a draw; set 1: two wins
    watch.add([game(2, 0, "a", "b"), game(2, 1, "b")])  # both sides' bots won: a draw
    assert watch.run.counts == [0, 2, 0, 0, 1]


@pytest.mark.parametrize("text, message", [
    ("0", "give two Elo differences"),
    ("a,b", "must be numbers"),
    ("10,0", "must be below"),
    ("0,nan", "finite"),
    ("0,5000", "within"),
])
def test_unreadable_tests_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Sprt.parse(text)
    with pytest.raises(ValueError, match="alpha"):
        Sprt.parse("0,5", alpha=0.7)


# -- matches -----------------------------------------------------------------------------------


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    data = {key: value for key, value in data.items() if key != "seconds"}
    data["bots"] = {name: {k: v for k, v in stats.items() if k != "decision_ms"}
                    for name, stats in data["bots"].items()}
    return data


def test_a_lopsided_match_stops_early_with_h1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "expert,random", "--deals", "200", "--seed", "1",
                 "--sprt", "0,50", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    sprt = data["sprt"]
    assert sprt["verdict"] == H1 and sprt["stopped_early"]
    assert sprt["llr"] >= sprt["bounds"][1] and sprt["bot"] == "expert"
    assert sum(sprt["scores"]) == sprt["sets"] == data["games"] // 2 < 200
    assert data["difference"]["pairs"] == sprt["sets"]
    assert main(["tournament", "--bots", "expert,random", "--deals", "200", "--seed", "1",
                 "--sprt", "0,50"]) == 0
    assert "H1 accepted (expert at least +50 Elo), stopped early" in capsys.readouterr().out


def test_the_stop_does_not_depend_on_which_set_finished_first() -> None:
    def spec(workers: int) -> TournamentSpec:
        return TournamentSpec(("expert", "random"), 2, make_rules("classic"), seed=5,
                              deals=80, workers=workers, sprt=Sprt(0, 50))

    alone = run_tournament(spec(1)).as_dict()
    pooled = run_tournament(spec(2)).as_dict()
    assert without_timing(alone) == without_timing(pooled)
    assert alone["sprt"]["verdict"] == H1


def test_an_undecided_test_says_so_at_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "simple,simple", "--deals", "3", "--seed", "2",
                 "--sprt=-5,5", "--json"]) == 2  # one bot: no match
    assert "two bots" in capsys.readouterr().err
    assert main(["tournament", "--bots", "expert,simple", "--deals", "3", "--seed", "2",
                 "--sprt=-5,5", "--json"]) == 0
    sprt = json.loads(capsys.readouterr().out)["sprt"]
    assert sprt["verdict"] == INCONCLUSIVE and sprt["sets"] == 3 and not sprt["stopped_early"]


def test_a_test_needs_two_bots_with_as_many_seats() -> None:
    with pytest.raises(TournamentError, match="as many seats"):
        TournamentSpec(("expert", "random"), 3, make_rules("classic"), deals=2,
                       sprt=Sprt(0, 5)).check()
    with pytest.raises(TournamentError, match="two bots"):
        TournamentSpec(("expert", "random", "simple"), 3, make_rules("classic"), deals=2,
                       sprt=Sprt(0, 5)).check()
    with pytest.raises(TournamentError, match="beta"):
        TournamentSpec(("expert", "random"), 2, make_rules("classic"), deals=2,
                       sprt=Sprt(0, 5, beta=0)).check()


def test_bad_options_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for extra in (["--sprt", "0"], ["--sprt", "0,5", "--sprt-alpha", "2"]):
        assert main(["tournament", "--bots", "expert,random", "--deals", "2", *extra]) == 2
        err = capsys.readouterr().err
        assert err.startswith("rummy500 tournament: --sprt: ") and err.count("\n") == 1
