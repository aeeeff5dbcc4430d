"""The guided first game (rummy500.web.learn): one real deal, every move the engine's to
allow, in which each lesson comes up, its marks on cards that lie where the lesson says."""

from __future__ import annotations

from typing import Any

import pytest

from rummy500.web import learn
from rummy500.web.learn import LESSONS, STOCK, first_game, learning_deck, lesson_steps


def places(state: dict[str, Any]) -> dict[str, set[str]]:
    return {"hand": set(state["hand"]), "pile": set(state["pile"]),
            "melds": {card for meld in state["melds"] for card in meld["cards"]}}


def test_every_step_is_made_of_moves_the_engine_allows() -> None:
    steps = lesson_steps()
    assert len(steps) == len(LESSONS)
    made = [entry["move"] for step in steps for entry in step["moves"]]
    assert made[0] == "draw" and made[-1] == "meld 2c 2d 2s"
    for step, after in zip(steps, [*steps[1:], None], strict=False):
        # Each move is said in the engine's words; the table offers the learner's next move.
        assert len(step["said"]) == len(step["moves"])
        offered = [m["move"] for m in (after["moves"] if after else []) if m["seat"] == 0]
        assert step["state"]["legal"] == (offered or None)


def test_each_lesson_comes_up() -> None:
    steps = lesson_steps()
    kinds = [entry["move"].split()[0] for step in steps for entry in step["moves"]
             if entry["seat"] == learn.LEARNER]
    assert {"draw", "meld", "take", "layoff", "discard"} <= set(kinds)
    # A set, a run, a card taken from deep in the pile that must be used, a lay-off on the
    # other player's meld, going out, and the sheet.
    taken = next(step for step in steps if any(m["move"] == "take 9d" for m in step["moves"]))
    assert taken["state"]["must_use"] == "9d" and len(taken["state"]["hand"]) == 10
    laid = next(step for step in steps
                if any(m["move"].startswith("layoff") for m in step["moves"]))
    meld = next(m for m in laid["state"]["melds"] if "3h" in m["cards"])
    assert meld["by"][meld["cards"].index("3h")] == learn.LEARNER
    assert set(meld["by"]) == {learn.LEARNER, learn.SAM}
    last = steps[-1]["state"]
    assert last["hand"] == [] and len(last["deals"]) == 1
    sheet = last["deals"][0]
    assert sheet["went_out"] == learn.LEARNER
    assert sheet["scores"][0] == sum(line["points"] for line in sheet["lines"] if line["side"] == 0)
    assert sheet["scores"][1] < 0  # Sam holds more than Sam laid down


@pytest.mark.parametrize("index", range(len(LESSONS)))
def test_a_lessons_marks_are_cards_on_the_table_where_it_says(index: int) -> None:
    step = lesson_steps()[index]
    found = places(step["state"])
    for mark in step["marks"]:
        if mark == STOCK:
            assert step["state"]["stock"] > 0
        else:
            assert any(mark in cards for cards in found.values()), (step["title"], mark)
    for line in step["text"]:
        assert "{" not in line, line


def test_the_pack_is_whole_and_the_answer_is_made_once() -> None:
    deck = learning_deck()
    assert sorted(deck) == sorted(set(deck)) and len(deck) == 52
    assert first_game() is first_game()
    assert first_game()["info"]["sides"] == [[0], [1]]
