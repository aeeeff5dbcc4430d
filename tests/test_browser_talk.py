"""Talk, pacing and undo in the browser: two people chat across two pages (a spectator
reads along, a reload shows the lines once), undo against computer players by key and by
button, Continue after a deal (by closing the sheet, and by the button after a reload), and
the turn clock on the seat whose turn it is."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browserkit import Seat, Server, new_page, plain_choice, play_deal


def open_seat(browser: Any, server: Server, table: str, seat: int | None,
              token: str | None) -> Seat:
    """A page at the table, holding ``seat`` (its token kept as the lobby keeps it), or
    watching (``seat`` None)."""
    _context, page = new_page(browser)
    page.goto(server.url + "/")
    if token is not None:
        held = {table: {"seat": seat, "token": token, "name": "", "since": 0}}
        page.evaluate("held => localStorage.setItem('rummy500.seats', held)", json.dumps(held))
    page.goto(f"{server.url}/t/{table}")
    if token is None:
        page.click("#watch-button")
    page.wait_for_selector("#game:not([hidden]), #waiting:not([hidden])")
    return Seat(page)


def draw_rather_than_take(number: int, seat: Seat) -> bool:
    """A plain person's move that takes from the pile only when it must (a deal quickly)."""
    legal = seat.legal()
    plain = [move for move in legal if not move.startswith("take ")] or legal
    seat.play(plain_choice(plain, seat.pile(), seat.meld_seats(), number))
    return True


def chat_lines(seat: Seat) -> list[str]:
    lines: list[str] = seat.page.eval_on_selector_all(
        "#chat-lines li", "els => els.map(e => e.textContent)")
    return lines


def test_two_pages_chat_and_a_spectator_reads(web_server: Server, browser: Any) -> None:
    made = web_server.post("/api/tables", {
        "players": 3, "seed": 5, "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person"},
                                           {"kind": "bot", "bot": "simple"}]})
    bob_seat = web_server.post(f"/api/tables/{made['table']}/seats/1", {"name": "Bob"})
    ann = open_seat(browser, web_server, made["table"], 0, made["token"])
    bob = open_seat(browser, web_server, made["table"], 1, bob_seat["token"])
    for seat in (ann, bob):
        seat.page.wait_for_selector("#game:not([hidden])")

    ann.page.fill("#chat-input", "Hello \u202eBob!")
    ann.page.press("#chat-input", "Enter")
    bob.page.wait_for_selector("#chat-lines li:has-text('Hello Bob!')")
    assert chat_lines(bob) == ["Ann Hello Bob!"]
    assert "Ann: Hello Bob!" in bob.log()
    assert ann.page.input_value("#chat-input") == ""

    bob.page.click("#chat .reaction[data-react='nice']")
    ann.page.wait_for_selector("#chat-lines li.react:has-text('Nice')")
    assert chat_lines(ann)[-1].startswith("Bob")

    watcher = open_seat(browser, web_server, made["table"], None, None)
    watcher.page.wait_for_selector("#chat-lines li.react")
    assert len(chat_lines(watcher)) == 2
    assert watcher.page.is_hidden("#chat-form") and watcher.page.is_hidden("#chat .reactions")

    # A reload shows the table's lines once, from the welcome.
    ann.page.reload()
    ann.page.wait_for_selector("#chat-lines li.react")
    assert chat_lines(ann) == chat_lines(bob) == chat_lines(watcher)
    for seat in (ann, bob, watcher):
        assert seat.problems.real() == []


@pytest.fixture
def paced_server(tmp_path: Path) -> Iterator[Server]:
    """A server whose computer players wait 3 s before each move: time to take a discard
    back before the reply."""
    running = Server(tmp_path / "tables.db", pace=3.0)
    yield running
    running.stop()


def test_undo_against_computer_players(browser: Any, paced_server: Server) -> None:
    """Undo takes back a discard while the computer player has not answered it (its
    discard would show a card of its hand: then the discard stands, and undo is not
    offered)."""
    server = paced_server
    made = server.post("/api/tables", {
        "players": 2, "seed": 7, "seats": [{"kind": "person", "name": "Ann"},
                                           {"kind": "bot", "bot": "simple"}]})
    ann = open_seat(browser, server, made["table"], 0, made["token"])
    page = ann.page
    page.wait_for_function("() => document.querySelector('#status.yours')", timeout=60_000)
    assert page.is_hidden("#undo-button")  # no move of Ann's yet
    for way in ("key", "button"):
        page.wait_for_function("() => document.querySelector('#status.yours')",
                               timeout=60_000)
        if "draw" in ann.legal():
            ann.play("draw")
        after_draw = ann.hand()
        assert page.is_hidden("#undo-button")  # a draw from the stock stands
        discard = next(move for move in ann.legal() if move.startswith("discard"))
        ann.play(discard)
        page.wait_for_selector("#undo-button:not([hidden])")
        seq = ann.seq()
        if way == "key":
            page.keyboard.press("u")
        else:
            page.click("#undo-button")
        ann.wait_change(seq)
        assert sorted(ann.hand()) == sorted(after_draw)
        assert "took back" in ann.log()[-1]
        assert page.is_hidden("#undo-button")
        # Discarded again, it stands once the computer player has discarded.
        ann.play(discard)
        page.wait_for_function("() => document.querySelector('#status.yours')",
                               timeout=60_000)
        assert page.is_hidden("#undo-button")
    # The moves made again after an undo are in the log.
    log = ann.log()
    after_undo = log[max(i for i, line in enumerate(log) if "took back" in line) + 1:]
    assert any(line.startswith("You discard") for line in after_undo), log[-6:]
    assert ann.problems.real() == []


def test_continue_after_a_deal(web_server: Server, browser: Any) -> None:
    made = web_server.post("/api/tables", {
        "players": 3, "seed": 198, "deal_pause_s": 120,  # a deal of 14 moves
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person"},
                  {"kind": "bot", "bot": "simple"}]})
    bob_seat = web_server.post(f"/api/tables/{made['table']}/seats/1", {"name": "Bob"})
    ann = open_seat(browser, web_server, made["table"], 0, made["token"])
    bob = open_seat(browser, web_server, made["table"], 1, bob_seat["token"])
    play_deal({0: ann, 1: bob}, draw_rather_than_take)
    for seat in (ann, bob):
        seat.page.wait_for_selector("#sheet[open]")
        words = seat.page.inner_text("#pacing .pacing-words")
        assert "wait for" in words and "you" in words, words

    ann.page.click("#sheet-close")  # "Next deal": Ann has read the sheet
    bob.page.wait_for_function(
        "() => /wait for you/.test(document.querySelector('#pacing').textContent)"
        " && !/Ann/.test(document.querySelector('#pacing').textContent)")
    assert ann.page.is_hidden("#continue-button") or not ann.page.query_selector(
        "#continue-button")
    # Bob opens the table in another tab: no sheet there, the Continue button instead.
    bob_again = open_seat(browser, web_server, made["table"], 1, bob_seat["token"])
    bob_again.page.wait_for_selector("#continue-button")
    assert not bob_again.page.evaluate("document.querySelector('#sheet').open")
    bob_again.page.click("#continue-button")
    for seat in (ann, bob, bob_again):
        seat.page.wait_for_selector("#pacing", state="hidden")
    for seat in (ann, bob, bob_again):
        assert seat.problems.real() == []


def test_the_turn_clock_shows_on_the_seat_to_move(web_server: Server, browser: Any) -> None:
    made = web_server.post("/api/tables", {
        "players": 2, "seed": 7, "turn_s": 90, "seats": [{"kind": "person", "name": "Ann"},
                                                         {"kind": "bot", "bot": "simple"}]})
    ann = open_seat(browser, web_server, made["table"], 0, made["token"])
    ann.page.wait_for_selector(".player[data-seat='0'] .seat-clock")
    text = ann.page.inner_text(".player[data-seat='0'] .seat-clock")
    assert re.fullmatch(r"1:[0-3]\d", text.strip()), text
    # A dial drawn by the page, not the emoji ⏱ (an empty box without an emoji font).
    assert ann.page.query_selector(".player[data-seat='0'] .seat-clock svg[data-icon='clock']")
    assert "⏱" not in ann.page.inner_text("#players")
    assert ann.page.query_selector(".player[data-seat='1'] .seat-clock") is None
    assert ann.problems.real() == []
