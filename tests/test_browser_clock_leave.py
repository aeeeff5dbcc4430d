"""Clock and leaving at the browser table (issue 32, feature 5): each person's time bank on
their seat and the clock of the seat to move turning into its bank when the turn clock runs
out; the notice when time ran out; how many people watch; "Leave table" (a dialog that says
what happens, then a computer player takes the seat for good and the others read it in
the log). On a desktop and a phone, axe with the dialog open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browserkit import DESKTOP, PHONE, Seat, Server, new_page, serious

SHOTS = Path("/tmp/rummy500-shots/clock-leave")
"""Where the screenshots go, to be looked at."""




def open_page(browser: Any, server: Server, table: str, size: dict[str, int],
              seat: int | None = None, token: str | None = None) -> Seat:
    touch = size == PHONE
    _context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
    page.goto(server.url + "/")
    if token is not None:
        held = {table: {"seat": seat, "token": token, "name": "", "since": 0}}
        page.evaluate("held => localStorage.setItem('rummy500.seats', held)", json.dumps(held))
    page.goto(f"{server.url}/t/{table}")
    if token is None:
        page.click("#watch-button")
    page.wait_for_selector("#game:not([hidden])")
    return Seat(page, tap=touch)


def shot(seat: Seat, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    seat.page.screenshot(path=str(SHOTS / f"{name}.png"))


def table_of_two(server: Server, **options: Any) -> tuple[str, str, str]:
    """A table of Ann and Bo (seat 0 deals, seat 1 moves first with seed 2): its id and
    their tokens."""
    made = server.post("/api/tables", {"players": 2, "seed": 2, "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person"}], **options})
    taken = server.post(f"/api/tables/{made['table']}/seats/1", {"name": "Bo"})
    return made["table"], made["token"], taken["token"]


def test_the_bank_counts_after_the_clock_and_time_out_is_told(browser: Any,
                                                               web_server: Server) -> None:
    table, ann_token, bo_token = table_of_two(web_server, turn_s=15, bank_s=8)
    ann = open_page(browser, web_server, table, DESKTOP, 0, ann_token)
    bo = open_page(browser, web_server, table, PHONE, 1, bo_token)
    turn = int(ann.page.evaluate("document.body.dataset.turn"))
    mover = ann if turn == 0 else bo
    for seat in (ann, bo):
        seat.page.wait_for_selector(f"#players .player[data-seat='{1 - turn}'] .seat-bank")
        assert seat.page.is_visible(f"#players .player[data-seat='{turn}'] .seat-bank")
        assert seat.page.inner_text(f"#players .player[data-seat='{1 - turn}'] .seat-bank") \
            == "bank 0:08"
    # The turn clock runs out: the seat to move's bank runs.
    for seat in (ann, bo):
        seat.page.wait_for_selector(f"#players .player[data-seat='{turn}'] .seat-bank.running")
        assert seat.page.inner_text(f"#players .player[data-seat='{turn}'] .seat-clock") \
            .strip() == "0:00"
    shot(ann, "bank-desktop")
    shot(bo, "bank-phone")
    # Then the stand-in plays the turn: the mover is told, and the log says whose moves.
    mover.page.wait_for_selector("#message:has-text('Your time ran out')", timeout=30_000)
    assert any(line.startswith("Your stand-in ") for line in mover.log())
    other = bo if mover is ann else ann
    name = "Ann" if turn == 0 else "Bo"
    other.page.wait_for_function(
        "who => [...document.querySelectorAll('#log li')].some("
        "li => li.textContent.startsWith(who + \"'s stand-in \"))", arg=name)
    for seat in (ann, bo):
        seat.page.wait_for_function(
            "t => document.querySelector(`#players .player[data-seat='${t}'] .seat-bank`)"
            ".textContent === 'bank 0:00'", arg=turn)
    for seat in (ann, bo):
        assert seat.problems.real() == []


def test_leave_table_hands_the_seat_to_a_computer(browser: Any, web_server: Server) -> None:
    table, ann_token, bo_token = table_of_two(web_server)
    ann = open_page(browser, web_server, table, DESKTOP, 0, ann_token)
    bo = open_page(browser, web_server, table, PHONE, 1, bo_token)
    watcher = open_page(browser, web_server, table, DESKTOP)
    ann.page.wait_for_selector("#watchers:has-text('1 person is watching.')")
    assert bo.page.inner_text("#watchers") == "1 person is watching."
    watcher.page.close()
    ann.page.wait_for_selector("#watchers", state="hidden")

    bo.press("#leave-button")
    dialog = bo.page.locator("#leave-dialog")
    dialog.wait_for(state="visible")
    words = bo.page.inner_text("#leave-words")
    assert "A computer player takes your seat for the rest of the game" in words
    assert "The others play on against it" in words
    shot(bo, "leave-dialog-phone")
    assert serious(bo.page) == []
    bo.press("#leave-dialog button[value=stay]")  # Stay: nothing happens
    dialog.wait_for(state="hidden")
    assert bo.page.is_visible("#leave-button")

    ann.press("#leave-button")
    ann.page.locator("#leave-dialog").wait_for(state="visible")
    assert "Nobody else" not in ann.page.inner_text("#leave-words")
    shot(ann, "leave-dialog-desktop")
    assert serious(ann.page) == []
    ann.press("#leave-confirm")
    ann.page.wait_for_selector("#message:has-text('You left the table')")
    ann.page.wait_for_selector("#leave-button", state="hidden")
    ann.page.wait_for_selector("#mine", state="hidden")  # watching now
    bo.page.wait_for_function(
        "w => [...document.querySelectorAll('#log li')].some(li => li.textContent.startsWith(w))",
        arg="Ann left the table: a computer player plays the seat for the rest of the game")
    bo.page.wait_for_selector("#players .player[data-seat='0']:has-text('left the table')")
    shot(bo, "left-phone")
    shot(ann, "left-desktop")
    assert serious(bo.page) == []
    # Ann's page, reloaded, no longer holds the seat: it offers to watch.
    ann.page.reload()
    ann.page.wait_for_selector("#join:not([hidden]), #game:not([hidden])")
    held = ann.page.evaluate("localStorage.getItem('rummy500.seats')") or "{}"
    assert table not in json.loads(held)
    for seat in (ann, bo):
        assert seat.problems.real() == []


def refused_create(page: Any) -> str:
    """Create pressed, and the lobby's words once they change (the page writes them after
    the click's handler has run, later under load)."""
    before = page.inner_text("#create-error")
    page.click("#create")
    page.wait_for_function("b => { const t = document.querySelector('#create-error')"
                           ".textContent.trim(); return t !== '' && t !== b; }", arg=before)
    text: str = page.inner_text("#create-error")
    return text


def test_the_lobby_sets_a_time_bank_beside_the_turn_clock(browser: Any,
                                                          web_server: Server) -> None:
    _context, page = new_page(browser, PHONE, is_mobile=True, has_touch=True)
    page.goto(web_server.url + "/")
    page.fill("#my-name", "Ann")
    page.fill("#turn-clock", "0")
    page.fill("#time-bank", "60")
    assert refused_create(page) == ("A time bank is spent when a turn clock runs "
                                    "out: set a turn clock, or a bank of 0.")
    assert page.evaluate("document.activeElement.id") == "time-bank"
    page.fill("#time-bank", "4000")
    assert "from 0 to 3600" in refused_create(page)
    page.fill("#turn-clock", "30")
    page.fill("#time-bank", "90")
    page.locator("#time-bank").scroll_into_view_if_needed()
    shot(Seat(page), "lobby-bank-phone")
    assert serious(page) == []
    page.click("#create")
    page.wait_for_url("**/t/**")
    table = page.url.rsplit("/", 1)[-1]
    summary = web_server.get(f"/api/tables/{table}")
    assert (summary["turn_s"], summary["bank_s"]) == (30, 90)
