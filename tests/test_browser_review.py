"""The game review on a finished table's replay page, in Chromium (issue 33): asked for from
the page, its progress shown, then each deal's graph of expected points under the replay,
the labelled moves marked in the move list, and a mark's click showing the position before
the move with the move played and the better one; kept, it shows at once on the next
visit. Axe finds nothing serious, and a phone never scrolls sideways."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from browserkit import (
    DESKTOP,
    PHONE,
    Problems,
    Seat,
    Server,
    create_in_lobby,
    new_page,
    play_deal,
    serious,
)
from rummy500.net.client import Api, TableConnection
from serverkit import ServerProcess, play_out, start_server

pytestmark = pytest.mark.browser

REVIEW_FLAGS = ("--review-worlds", "8")
"""A small search (8 sampled deals a decision, the fewest a label is given over): the
review of one short deal takes seconds."""
SHOTS = Path("/tmp/review-shots")


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("review")
    server = start_server(f"sqlite:///{folder / 'tables.db'}", folder, extra=REVIEW_FLAGS)
    yield server
    server.stop()


def finished_table(server: ServerProcess, seed: int) -> str:
    """A one-deal game of Ann, playing at random, against ``simple``: its id. Played in a
    thread of its own (the browser holds this thread's event loop). Whom Ann plays against
    matters little to her moves' labels; ``simple`` answers at once, and its seeds' deals
    can be chosen short (fewer decisions to review)."""

    async def play() -> str:
        api = Api(server.base)
        made = await api.create_table({
            "players": 2, "rules": {"preset": "classic", "max_deals": 1}, "seed": seed,
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "simple"}]})
        ann = await TableConnection.open(server.base, made["table"], made["token"])
        try:
            await asyncio.wait_for(play_out(ann, random.Random(seed)), 150)
        finally:
            await ann.close()
        return str(made["table"])

    found: list[str] = []
    thread = threading.Thread(target=lambda: found.append(asyncio.run(play())))
    thread.start()
    thread.join(200)
    assert found, "the table was not played out"
    return found[0]


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_table_is_reviewed_on_its_replay(review_server: ServerProcess, browser: Any) -> None:
    table = finished_table(review_server, seed=74)  # a deal of 19 moves
    context, page = new_page(browser, PHONE, has_touch=True, is_mobile=True)
    problems = Problems(page)
    page.goto(f"{review_server.base}/t/{table}/replay")
    page.wait_for_selector("#review:not([hidden]) #review-start:not([hidden])")
    assert page.query_selector("#review-graph svg") is None
    assert serious(page) == []
    page.click("#review-start")
    # The progress is shown while the server judges the decisions.
    page.wait_for_function("() => document.querySelector('#review-status').textContent"
                           ".startsWith('Reviewing')")
    assert page.is_visible("#review-progress")
    page.wait_for_selector("#review-graph svg", timeout=180_000)
    assert page.is_hidden("#review-progress") and page.is_hidden("#review-start")
    review = _review(review_server, table)
    labelled = [d for d in review["decisions"] if d["label"]]
    anns = [d for d in labelled if d["seat"] == 0]
    assert anns, "Ann played at random: some of her moves are labelled"
    assert "labelled" in page.inner_text("#review-status")
    assert "Ann" in page.inner_text("#review-seats")

    # Each labelled move is marked in the move list, beside the move it labels.
    marks = page.eval_on_selector_all(
        "#steps li.labelled", "items => items.map(i => [Number(i.dataset.step), "
                              "i.querySelector('.review-mark').textContent])")
    signs = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    assert marks == [[d["index"] + 1, signs[d["label"]]] for d in labelled]
    assert page.eval_on_selector_all("#review-graph circle.point", "c => c.length") == len(labelled)
    shot(page, "phone-reviewed")
    assert serious(page) == []

    # A mark's click shows the position before the move, the move played and the better one.
    worst = max(anns, key=lambda d: d["loss"])
    page.click(f"#steps li[data-step='{worst['index'] + 1}'] .review-mark")
    page.wait_for_selector("#review-detail:not([hidden])")
    assert page.eval_on_selector("#step-range", "e => Number(e.value)") == worst["index"]
    detail = page.inner_text("#review-detail")
    assert "Ann played:" in detail and "Better:" in detail and worst["label"] in detail
    assert f"{worst['loss']:.1f}" in detail
    assert page.eval_on_selector("#review-graph line.cursor", "l => l.getAttribute('x1')") != "8"
    shot(page, "phone-decision")
    assert serious(page) == []
    assert problems.real() == []
    context.close()

    # Kept: the next visit shows the review at once, with nothing to ask for.
    context, page = new_page(browser, DESKTOP)
    problems = Problems(page)
    page.goto(f"{review_server.base}/t/{table}/replay")
    page.wait_for_selector("#review-graph svg")
    assert page.is_hidden("#review-start")
    page.click(f"#steps li[data-step='{labelled[0]['index'] + 1}'] .review-mark")
    page.wait_for_selector("#review-detail:not([hidden])")
    assert "Better:" in page.inner_text("#review-detail")
    shot(page, "desktop-decision")
    assert serious(page) == []
    assert problems.real() == []
    context.close()


def test_the_end_of_a_game_offers_its_review(review_server: ServerProcess, browser: Any) -> None:
    context, page = new_page(browser, DESKTOP)
    seat = Seat(page)
    create_in_lobby(page, cast(Server, SimpleNamespace(url=review_server.base)), name="Ann",
                    seats=["person", "simple"], seed=164,  # a deal of 23 moves
                    options={"max_deals": 1, "target_score": ""})
    page.wait_for_selector("#game:not([hidden])")
    play_deal({0: seat})
    page.wait_for_selector("#sheet[open] .winner")
    page.click("#sheet a:text('Review the game')")
    page.wait_for_url("**/replay#review")
    # Opened from the game's end, the review starts at once.
    page.wait_for_function("() => document.querySelector('#review-status').textContent"
                           ".startsWith('Reviewing')")
    page.wait_for_selector("#review-graph svg", timeout=180_000)
    assert page.is_hidden("#review-start")
    shot(page, "desktop-from-the-table")
    assert serious(page) == []
    assert seat.problems.real() == []
    context.close()


def _review(server: ServerProcess, table: str) -> dict[str, Any]:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{server.base}/api/tables/{table}/review", timeout=10) as got:
        answer: dict[str, Any] = json.loads(got.read())
    assert answer["state"] == "done"
    return answer
