"""Game review (issue 33): a decision is judged from what its seat could see, never from a
hidden card; a move as good as the best loses nothing; the same figures with one worker
or two; ``rummy500 review`` on a record file and on a finished online table."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummy500.cli import main
from rummy500.deal import Deal
from rummy500.net.client import TableConnection
from rummy500.record import game_record, replay
from rummy500.rules import PRESETS
from rummy500.runners.review.game import (
    Settings,
    decision_places,
    position,
    review_game,
)
from rummy500.runners.review.judge import judge
from rummy500.runners.review.labels import BLUNDER, INACCURACY, MISTAKE, SURE, label_for
from rummy500.runners.simulation import play_deal
from serverkit import ServerProcess, play_out, seat_body

WORLDS = 6


def expert_deal(seed: int) -> dict[str, Any]:
    """The record of one two-player ``classic`` deal between two ``expert`` players."""
    game, _ = play_deal(PRESETS["classic"], 2, ["expert"], seed, 0)
    return game_record(game)


RECORD = expert_deal(7)


def hidden_swapped(deal: Deal, rng: random.Random) -> Deal:
    """``deal`` with the cards its seat to move cannot see dealt again among the places
    they may be (the other hands beyond their known cards, and the stock)."""
    seat = deal.turn
    hidden: list[int] = []
    for other, hand in enumerate(deal.hands):
        if other != seat:
            hidden.extend(card for card in range(128) if (hand & ~deal.known[other]) >> card & 1)
    hidden.extend(deal.stock)
    rng.shuffle(hidden)
    hands = list(deal.hands)
    for other, hand in enumerate(deal.hands):
        if other == seat:
            continue
        unknown = (hand & ~deal.known[other]).bit_count()
        hands[other] = deal.known[other]
        for card in hidden[:unknown]:
            hands[other] |= 1 << card
        hidden = hidden[unknown:]
    return deal.rearranged(hands, hidden)


def test_a_review_never_reads_a_card_its_seat_could_not_see() -> None:
    game = replay(RECORD)
    places = decision_places(game, [0, 1])
    rng = random.Random(5)
    changed = False
    told_apart = False
    for deal_index, move_index in places[4::5]:
        deal = position(game, deal_index, move_index)
        other = hidden_swapped(deal, rng)
        assert other.hands[deal.turn] == deal.hands[deal.turn]
        changed |= other.hands != deal.hands
        played = game.deals[deal_index].moves[move_index]
        seen = judge(deal, played, seed=3, worlds=WORLDS)
        assert judge(other, played, seed=3, worlds=WORLDS) == seen
        # The test can fail: a judge shown every card answers otherwise.
        told_apart |= (judge(other, played, seed=3, worlds=WORLDS, all_cards=True)
                       != judge(deal, played, seed=3, worlds=WORLDS, all_cards=True))
    assert changed and told_apart


def test_a_move_as_good_as_the_best_loses_nothing() -> None:
    reviews = review_game(RECORD, [1], Settings(seed=2, worlds=WORLDS))
    assert reviews and all(review.seat == 1 for review in reviews)
    for review in reviews:
        if review.move == review.best:
            assert (review.loss, review.error, review.label) == (0.0, 0.0, None)
            assert review.best_points == review.move_points and review.words == ""
        else:
            assert review.loss > 0 and review.best_points > review.move_points
            assert " in place of " in review.words
    game = replay(RECORD)
    deal_index, move_index = decision_places(game, [1])[3]
    deal = position(game, deal_index, move_index)
    best = judge(deal, game.deals[0].moves[move_index], seed=4, worlds=WORLDS).best
    verdict = judge(deal, best, seed=4, worlds=WORLDS)
    assert verdict.played == best and verdict.loss >= 0


def test_the_same_figures_with_one_worker_or_two() -> None:
    settings = Settings(seed=9, worlds=4)
    alone = review_game(RECORD, [0], settings, workers=1)
    shared = review_game(RECORD, [0], settings, workers=2)
    assert [r.as_json() for r in alone] == [r.as_json() for r in shared]
    other_seed = review_game(RECORD, [0], Settings(seed=10, worlds=4))
    assert [r.as_json() for r in other_seed] != [r.as_json() for r in alone]


def test_labels_follow_the_thresholds_and_the_standard_error() -> None:
    assert label_for(0.0, 0.0, 32) is None
    assert label_for(INACCURACY - 0.1, 0.0, 32) is None
    assert label_for(INACCURACY, 1.0, 32) == "inaccuracy"
    assert label_for(MISTAKE, 1.0, 32) == "mistake"
    assert label_for(BLUNDER, 1.0, 32) == "blunder"
    assert label_for(BLUNDER, BLUNDER, 32) is None  # not told from chance
    assert label_for(BLUNDER, 0.0, 1) is None  # one sampled deal: no error to trust


def test_a_short_budget_labels_no_loss_measured_over_too_few_sampled_deals(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(RECORD))
    assert main(["review", str(path), "--json", "--worlds", "3", "--seat", "1"]) == 0
    decisions = json.loads(capsys.readouterr().out)["decisions"]
    # losses that would be labelled, by their size and their error, over enough deals
    assert any(d["loss"] >= MISTAKE and d["loss"] >= SURE * d["error"] for d in decisions)
    assert all(d["label"] is None for d in decisions)
    assert main(["review", str(path), "--brief", "--worlds", "3", "--seat", "1"]) == 0
    assert "judged over fewer than 8 sampled deals" in capsys.readouterr().out


def test_review_json_gives_each_decision(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(RECORD))
    assert main(["review", str(path), "--json", "--worlds", "4", "--seat", "0"]) == 0
    answer = json.loads(capsys.readouterr().out)
    decisions = answer["decisions"]
    assert decisions and {d["seat"] for d in decisions} == {0}
    for decision in decisions:
        assert {"seat", "index", "move", "best", "move_points", "best_points", "loss",
                "error", "label"} <= set(decision)
        moves = RECORD["rounds"][decision["deal"] - 1]["moves"]
        assert moves[decision["index"]] == decision["move"]
    assert [p["seat"] for p in answer["players"]] == [0]
    assert answer["thresholds"]["blunder"] == BLUNDER


def test_review_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(RECORD))
    assert main(["review", str(path), "--worlds", "4", "--all-cards", "--top", "3"]) == 0
    out = capsys.readouterr().out
    # Seats counted from 1 in the words, as the replay counts them (--seat and JSON from 0).
    assert "Deal 1: expected deal points of Seat 1 less Seat 2's" in out
    assert "Accuracy" in out and "Seat 1" in out and "Seat 2" in out
    assert "Seat 0" not in out
    assert "Second opinion, with every hand shown" in out
    assert "Labels: an inaccuracy from" in out
    for move in RECORD["rounds"][0]["moves"][:3]:
        assert f" {move} " in out  # the table of every decision
    assert main(["review", str(path), "--worlds", "4", "--brief"]) == 0
    assert " seat  turn  played " not in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "words"), [
    (["review", "/nonexistent/deal.json"], "deal.json"),
    (["review", "RECORD", "--seat", "5"], "there is no seat 5"),
    (["review", "RECORD", "--worlds", "0"], "--worlds"),
    (["review", "RECORD", "--budget", "-1"], "--budget"),
    (["review", "RECORD", "--workers", "0"], "--workers"),
    (["review", "http://127.0.0.1:1/x"], "is not a table link"),
])
def test_review_refuses_bad_input_in_words(argv: list[str], words: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(RECORD))
    argv = [str(path) if word == "RECORD" else word for word in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummy500 review: ") and words in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_a_record_that_is_no_game_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"rules": {"preset": "classic"}, "players": 2, "rounds": []}')
    assert main(["review", str(path)]) == 2
    assert "rounds must be a list" in capsys.readouterr().err


async def finished_table(server: ServerProcess) -> str:
    """The link of a finished one-deal table: a person playing random moves against
    ``expert``."""
    made = await server.api.create_table(
        seat_body("person", "expert", rules={"preset": "classic", "max_deals": 1}, seed=3))
    person = await TableConnection.open(server.base, made["table"], made["token"])
    await play_out(person, random.Random(1), timeout=120)
    await person.close()
    return f"{server.base}/t/{made['table']}"


def test_review_of_a_finished_online_table(shared_sqlite: ServerProcess,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    link = asyncio.run(finished_table(shared_sqlite))
    assert main(["review", link, "--json", "--worlds", "3", "--seat", "0"]) == 0
    answer = json.loads(capsys.readouterr().out)
    record = asyncio.run(shared_sqlite.api.record(link.rsplit("/", 1)[1]))
    moves = record["rounds"][0]["moves"]
    assert answer["decisions"] and all(
        moves[d["index"]] == d["move"] and d["seat"] == 0 for d in answer["decisions"])
    # a table still being played has no record yet: said in words
    made = asyncio.run(shared_sqlite.api.create_table(seat_body("person", "expert")))
    assert main(["review", f"{shared_sqlite.base}/t/{made['table']}"]) == 2
    err = capsys.readouterr().err
    assert "the server gave no record of table" in err and "over" in err
