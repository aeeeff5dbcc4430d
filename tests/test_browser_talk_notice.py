"""Talk you notice (issue 32, feature 4): a line or a reaction shows for a few seconds as a
bubble at the speaker's seat, the phone's drawer button counts the lines not read yet until
it is opened, and the reactions are icons the page draws, not emoji (which show as empty
boxes on a system without an emoji font)."""

from __future__ import annotations

import json
from typing import Any

from browserkit import DESKTOP, PHONE, Seat, Server, new_page, serious

EMOJI_RANGES = ((0x2190, 0x2BFF), (0x1F000, 0x1FAFF), (0xFE00, 0xFE0F), (0x200D, 0x200D))
"""Arrows, symbols and dingbats (⏳ among them), the emoji planes, variation selectors and the
zero-width joiner: what a page without an emoji font cannot draw."""




def emoji_in(text: str) -> list[str]:
    return [char for char in text
            if any(low <= ord(char) <= high for low, high in EMOJI_RANGES)]


def open_seat(browser: Any, server: Server, table: str, seat: int, token: str,
              size: dict[str, int]) -> Seat:
    touch = size == PHONE
    _context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
    page.goto(server.url + "/")
    held = {table: {"seat": seat, "token": token, "name": "", "since": 0}}
    page.evaluate("held => localStorage.setItem('rummy500.seats', held)", json.dumps(held))
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_selector("#game:not([hidden])")
    return Seat(page, tap=touch)


BUBBLE_AT_SEAT = """(seat) => {
    // Whether the bubble of `seat` shows just below that seat's box, inside the screen's width.
    const bubble = document.querySelector(`#bubbles .bubble[data-seat="${seat}"]`);
    const box = document.querySelector(`#players [data-seat="${seat}"]`);
    if (!bubble || !box) return 'missing';
    const b = bubble.getBoundingClientRect(), s = box.getBoundingClientRect();
    if (b.left < 0 || b.right > document.documentElement.clientWidth) return 'off the screen';
    if (b.right < s.left || b.left > s.right) return `beside the seat: ${b.left} / ${s.left}`;
    if (b.top < s.top || b.top > s.bottom + 8) return `not at the seat: ${b.top} / ${s.top}`;
    return 'at the seat';
}"""


def test_a_bubble_at_the_speakers_seat_and_an_unread_mark_on_the_phone(
        web_server: Server, browser: Any) -> None:
    made = web_server.post("/api/tables", {
        "players": 3, "seed": 5, "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person"},
                                           {"kind": "bot", "bot": "simple"}]})
    bob_seat = web_server.post(f"/api/tables/{made['table']}/seats/1", {"name": "Bob"})
    ann = open_seat(browser, web_server, made["table"], 0, made["token"], DESKTOP)
    bob = open_seat(browser, web_server, made["table"], 1, bob_seat["token"], PHONE)

    # The reactions are drawn by the page: an icon each, no emoji anywhere in the talk's buttons.
    for seat in (ann, bob):
        buttons = seat.page.eval_on_selector_all(
            "#chat .reaction",
            "els => els.map(e => [e.textContent, !!e.querySelector('svg.icon path')])")
        assert len(buttons) == 8
        assert all(drawn for _text, drawn in buttons), buttons
        assert emoji_in("".join(text for text, _drawn in buttons)) == []
    assert bob.page.is_hidden("#side-button .unread-mark")

    ann.page.click("#chat .reaction[data-react='hurry']")
    for seat in (ann, bob):
        seat.page.wait_for_selector("#bubbles .bubble[data-seat='0']")
        assert seat.page.evaluate(BUBBLE_AT_SEAT, 0) == "at the seat"
        bubble = seat.page.inner_text("#bubbles .bubble[data-seat='0']")
        assert bubble.strip() == "Your turn!" and emoji_in(bubble) == []
        assert seat.page.query_selector(
            "#bubbles .bubble[data-seat='0'] svg.icon[data-icon='hurry']")
    line = bob.page.inner_text("#chat-lines li.react")
    assert line.startswith("Ann") and "Your turn!" in line and emoji_in(line) == []

    # Bob's phone counts the line on the drawer's button; Ann's own line is not unread to her,
    # and a desktop has no drawer.
    assert bob.page.inner_text("#side-button .unread-mark") == "1"
    assert "1 unread line" in bob.page.inner_text("#side-button .unread-words")
    assert ann.page.query_selector("#side-button .unread-mark") is None

    ann.page.fill("#chat-input", "Good luck, Bob")
    ann.page.press("#chat-input", "Enter")
    bob.page.wait_for_function("""() => /Good luck, Bob/.test(
        document.querySelector('#bubbles .bubble[data-seat="0"]')?.textContent || '')""")
    assert bob.page.evaluate(BUBBLE_AT_SEAT, 0) == "at the seat"
    assert bob.page.inner_text("#side-button .unread-mark") == "2"
    assert serious(bob.page) == [] and serious(ann.page) == []
    bob.page.screenshot(path="/tmp/talk-bubble-phone.png")
    ann.page.screenshot(path="/tmp/talk-bubble-desktop.png")

    # The bubble goes away by itself after a few seconds.
    bob.page.wait_for_selector("#bubbles .bubble[data-seat='0']", state="detached", timeout=15_000)

    # Opening the drawer clears the mark: the lines are read.
    bob.press("#side-button")
    bob.page.wait_for_selector("#chat-lines li:has-text('Good luck, Bob')")
    assert bob.page.query_selector("#side-button .unread-mark") is None
    bob.press("#side-close")

    # Bob's own reaction shows at his seat on Ann's page, and counts nothing on his phone.
    bob.press("#chat .reaction[data-react='laugh']")
    ann.page.wait_for_selector("#bubbles .bubble[data-seat='1']")
    assert ann.page.inner_text("#bubbles .bubble[data-seat='1']").strip() == "Laugh"
    assert ann.page.evaluate(BUBBLE_AT_SEAT, 1) == "at the seat"
    assert bob.page.query_selector("#side-button .unread-mark") is None
    for seat in (ann, bob):
        assert seat.problems.real() == []
