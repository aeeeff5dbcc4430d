"""Replays in a browser: a finished table's game from its page, and a record file uploaded (as
``rummy500 simulate --records`` writes them), stepped through move by move with every hand
shown, each deal's sheet line by line; a file that is no record is refused with the reason."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from browserkit import Seat, Server, create_in_lobby, new_page, play_deal
from rummy500.record import replay
from rummy500.session.sheets import deal_sheet


def step_text(page: Any) -> str:
    text: str = page.inner_text("#step-text")
    return text


def hands(page: Any) -> list[list[str]]:
    found: list[list[str]] = page.eval_on_selector_all(
        "#hands .seat-hand", "boxes => boxes.map(b => [...b.querySelectorAll('.card')]"
                             ".map(c => c.dataset.card))")
    return found


def test_a_finished_table_is_replayed_move_by_move(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    create_in_lobby(page, web_server, name="Ann", seats=["person", "simple"], seed=164,
                    options={"max_deals": 1, "target_score": ""})  # a deal of 23 moves
    seat = Seat(page)
    page.wait_for_selector("#game:not([hidden])")
    play_deal({0: seat})
    page.wait_for_selector("#sheet[open] .winner")
    winner = page.inner_text("#sheet .winner")
    assert "the game by" in winner
    assert winner in page.inner_text("#status")  # the table says who won, behind the sheet too
    assert page.is_hidden("#typed")  # no moves to type once the game is over
    page.click("#sheet a.button-link")
    page.wait_for_url("**/replay")
    page.wait_for_selector("#viewer:not([hidden])")
    assert step_text(page).startswith("Deal 1: ")
    dealt = hands(page)
    assert [len(cards) for cards in dealt] == [13, 13]  # every hand shown, as dealt
    assert "Ann" in page.inner_text("#hands")
    assert "13 cards, 0 on the table" in page.inner_text("#hands"), "points in words"
    page.click("#next-step")
    first = step_text(page)
    assert first != "" and not first.startswith("Deal 1")
    page.keyboard.press("ArrowRight")
    assert step_text(page) != first
    page.keyboard.press("ArrowLeft")
    assert step_text(page) == first
    assert page.eval_on_selector("#steps", "e => e.start") == 0  # move n is numbered n
    page.keyboard.press("End")
    page.wait_for_selector("#sheet:not([hidden])")
    assert "Deal 1 is over" in page.inner_text("#sheet")
    record = web_server.get(page.url.replace(web_server.url, "").replace("/t/", "/api/tables/")
                        .replace("/replay", "/record"))
    moves = record["rounds"][0]["moves"]
    assert page.eval_on_selector("#step-range", "e => Number(e.max)") == len(moves)
    last = page.inner_text("#steps li:last-child")
    assert "Ann" in last or "Simple" in last
    assert seat.problems.real() == []
    context.close()


def test_an_uploaded_record_is_replayed(web_server: Server, browser: Any, tmp_path: Path) -> None:
    records = tmp_path / "records"
    subprocess.run([sys.executable, "-m", "rummy500", "simulate", "--deals", "1", "--players",
                    "3", "--seed", "7", "--bot", "simple", "--records", str(records)],
                   check=True, capture_output=True)
    record_file = records / "deal-00001.json"
    record = json.loads(record_file.read_text())
    context, page = new_page(browser)
    problems = Seat(page).problems
    page.goto(web_server.url + "/replay")
    page.set_input_files("#record-file", str(record_file))
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.is_hidden("#upload")
    assert len(hands(page)) == 3
    total = page.eval_on_selector("#step-range", "e => Number(e.max)")
    assert total == len(record["rounds"][0]["moves"])
    seen = set()
    for _ in range(total):
        page.click("#next-step")
        seen.add(step_text(page))
    assert len(seen) > total // 2  # each move told in its own words
    assert page.is_visible("#sheet")
    shown = page.inner_text("#sheet")
    sheet = deal_sheet(replay(record), [f"Seat {n + 1}" for n in range(3)], 0, None)
    assert shown.startswith(sheet.text) and sheet.standing in shown
    assert all(line.text in shown for line in sheet.lines)  # the sheet, line by line
    assert not re.search(r"-\d", shown)  # minus signs, as the table writes them
    on_table = page.eval_on_selector_all("#melds .card", "cards => cards.length")
    in_pile = page.eval_on_selector_all("#pile .card", "cards => cards.length")
    stock = int(page.inner_text("#stock .stock-count").split()[-1])
    assert sum(len(cards) for cards in hands(page)) + on_table + in_pile + stock == 52
    assert problems.real() == [], problems.real()

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "rounds": [{**record["rounds"][0],
                                                      "moves": ["discard Zz"]}]}))
    page.goto(web_server.url + "/replay")
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function("() => document.querySelector('#replay-error').textContent")
    assert "not legal" in page.inner_text("#replay-error")
    not_json = tmp_path / "notes.txt"
    not_json.write_text("hello")
    page.set_input_files("#record-file", str(not_json))
    page.wait_for_function("() => /not JSON/.test(document.querySelector('#replay-error')"
                           ".textContent)")
    context.close()
