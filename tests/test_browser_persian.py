"""A whole Persian game in the browser, as two people play it: Ann at a desktop, Cleo on a
phone (by taps), partners against two computer players. They talk (a line and a reaction),
Ann has the turn chime on, cards move, each deal ends in its sheet (every side's lines and
the cards left in hand) that both close to go on, and the game ends after its two deals
with the replay offered."""

from __future__ import annotations

from typing import Any

from browserkit import (
    MOTION,
    PHONE,
    WATCH_CARD_MOTION,
    Seat,
    Server,
    create_in_lobby,
    join_by_link,
    new_page,
    play_deal,
)


def test_two_people_play_a_whole_persian_game_on_a_desktop_and_a_phone(
        web_server: Server, browser: Any) -> None:
    ann_context, ann_page = new_page(browser, **MOTION)
    cleo_context, cleo_page = new_page(browser, PHONE, is_mobile=True, has_touch=True, **MOTION)
    link = create_in_lobby(ann_page, web_server, name="Ann", preset="persian",
                           seats=["person", "random", "person", "simple"],
                           seed=137)  # deals of 18 and 52 moves; ``random`` answers at once
    join_by_link(cleo_page, link, "Cleo")
    ann, cleo = Seat(ann_page), Seat(cleo_page, tap=True)
    for page in (ann_page, cleo_page):
        page.wait_for_selector("#game:not([hidden])")
        page.evaluate(WATCH_CARD_MOTION)

    # Settings: Ann turns the chime on (kept in her browser).
    ann.press("#settings-button")
    ann_page.locator("#setting-sound").set_checked(True)
    ann.press("#settings-dialog button.primary")
    assert ann_page.evaluate("JSON.parse(localStorage.getItem('rummy500.settings')).sound")

    # Talk: a line from the desktop, a reaction from the phone (its talk is in the drawer).
    ann_page.fill("#chat-input", "Good luck, partner!")
    ann_page.press("#chat-input", "Enter")
    cleo.press("#side-button")
    cleo_page.wait_for_selector("#chat-lines li:has-text('Good luck, partner!')")
    cleo.press("#chat .reaction[data-react='nice']")
    ann_page.wait_for_selector("#chat-lines li.react:has-text('Nice')")
    cleo_page.keyboard.press("Escape")
    assert cleo_page.get_attribute("#side-button", "aria-expanded") == "false"

    for deal in (1, 2):
        play_deal({0: ann, 2: cleo})
        for page in (ann_page, cleo_page):
            page.wait_for_selector("#sheet[open]")
            sides = page.eval_on_selector_all(
                "#sheet tbody.sheet-side tr.side-name th", "cells => cells.map(c => c.textContent)")
            assert sorted(sides) == sorted(["Random & Simple",
                                            "You & Cleo" if page is ann_page else "You & Ann"])
            assert page.locator("#sheet tbody.sheet-side tr.total").count() == 2
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], f"deal {deal}: {width}px wide"
        if deal == 1:
            for seat in (ann, cleo):
                seat.press("#sheet-close")  # "Next deal"
            for page in (ann_page, cleo_page):
                page.wait_for_function(
                    "() => !document.querySelector('#sheet').open"
                    " && /Deal 2/.test(document.querySelector('#status').textContent)")

    for page in (ann_page, cleo_page):
        assert page.inner_text("#sheet-close") == "Close"
        page.wait_for_selector("#replay-link:not([hidden])")
        assert page.evaluate("window.cardMotion") > 0, "no card moved in the whole game"
    assert int(ann_page.evaluate("document.body.dataset.chimes || '0'")) >= 1
    for seat in (ann, cleo):
        assert seat.problems.real() == []
    ann_context.close()
    cleo_context.close()
