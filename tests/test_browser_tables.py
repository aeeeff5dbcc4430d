"""The table in a browser beyond one plain deal: a partnership table with two people and two
computer players, a phone-sized screen played by taps, a game played by keyboard alone, a
network drop with the page reconnecting by itself, and a computer standing in for someone
away."""

from __future__ import annotations

import time
from typing import Any

from browserkit import (
    PHONE,
    Seat,
    Server,
    choose_move,
    deal_over,
    make_table,
    new_page,
    opening,
    play_deal,
)
from rummy500.cards import face_of, face_str
from rummy500.game import Game


def test_partnership_table_with_two_people_and_two_computers(web_server: Server,
                                                            browser: Any) -> None:
    ann_context, ann_page = new_page(browser)
    cleo_context, cleo_page = new_page(browser)
    # A few moves before the end of the first deal.
    table = make_table(web_server, preset="partnership", seats=["person", "expert", "person",
                                                               "simple"], seed=11,
                       moves=opening(11, 4, deal_over(1), preset="partnership", back=6))
    ann, cleo = table.open(ann_page, 0), table.open(cleo_page, 2)
    for page, partner in ((ann_page, "Cleo"), (cleo_page, "Ann")):
        page.wait_for_selector("#game:not([hidden])")
        marked = page.locator("#players .player.partner")
        assert marked.count() == 1 and partner in marked.inner_text()
        assert "PARTNER" in marked.inner_text().upper()
        heads = page.eval_on_selector_all("#scores thead th",
                                          "cells => cells.map(c => c.textContent)")
        assert heads[1:] == [f"You & {partner}", "Expert & Simple"]
    assert ann_page.inner_text("#players .player.me").startswith("AN")

    play_deal({0: ann, 2: cleo})
    for page in (ann_page, cleo_page):
        page.wait_for_selector("#sheet[open]")
        sides = page.eval_on_selector_all(
            "#sheet tbody.sheet-side tr.side-name th", "cells => cells.map(c => c.textContent)")
        assert len(sides) == 2 and "Expert & Simple" in sides
        tables = page.eval_on_selector_all(
            "#sheet tbody.sheet-side tr.on_table th", "cells => cells.map(c => c.textContent)")
        assert len(tables) == 4 and all(text.endswith(": on the table") for text in tables)
    for seat in (ann, cleo):
        assert seat.problems.real() == []
    ann_context.close()
    cleo_context.close()


def fits_phone(page: Any) -> None:
    # The page at rest: a card on its way (dealt, drawn) is scaled and moved by its animation.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    for selector in ("#hand button.card", "#actions button", "#pile .card", "#players .player"):
        # Found and measured in one script: a redraw in between would measure detached nodes.
        # Only what is shown: at a deal's end the next deal's hand is drawn but hidden
        # until Continue, with no box to measure.
        for box in page.evaluate(
                "s => [...document.querySelectorAll(s)].filter(e => e.checkVisibility())"
                ".map(e => { const r = e.getBoundingClientRect(); "
                "return [r.left, r.right, r.width, r.height]; })",
                selector):
            left, right, w, h = box
            assert left >= 0 and right <= PHONE["width"] + 0.5, (selector, box)
            assert w >= 24 and h >= 24, (selector, box)  # big enough to tap


def test_a_phone_sized_screen_plays_a_deal_by_taps(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser, PHONE, is_mobile=True, has_touch=True,
                             device_scale_factor=2)
    # The last dozen moves of a deal.
    table = make_table(web_server, seats=["person", "expert"], seed=3,
                       moves=opening(3, 2, deal_over(1), back=12))
    seat = table.open(page, 0, tap=True)
    page.wait_for_selector("#game:not([hidden])")
    fits_phone(page)
    checked = {"turns": 0}

    def on_turn(number: int, seat: Seat) -> bool:
        checked["turns"] += 1
        if checked["turns"] % 5 == 1:
            fits_phone(seat.page)
        return False

    play_deal({0: seat}, on_turn)
    assert checked["turns"] >= 2
    page.wait_for_selector("#sheet[open]")
    box = page.eval_on_selector("#sheet", "e => { const r = e.getBoundingClientRect(); "
                                          "return [r.left, r.right]; }")
    assert box[0] >= 0 and box[1] <= PHONE["width"]
    page.click("#sheet-close")
    fits_phone(page)
    assert seat.problems.real() == []
    context.close()


# -- the keyboard alone ----------------------------------------------------------------------


def focus_card(page: Any, area: str, index: int) -> None:
    """Go to ``area`` (h: the hand, f: the pile, g: the melds) and along it to item ``index``."""
    page.keyboard.press(area)
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.index ?? document.activeElement"
                            ".dataset.meld")
    assert focused is not None
    outline = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); "
                            "return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()")
    assert outline[0] != "none" and outline[1] >= 2, "the focus must be visible"


def select_by_keys(seat: Seat, cards: list[str]) -> None:
    for card in cards:
        face = "*" if card.startswith("*") else card
        hand = seat.hand()
        pressed = seat.page.eval_on_selector_all(
            "#hand button.card", "els => els.map(e => e.getAttribute('aria-pressed'))")
        index = next(i for i, c in enumerate(hand) if c == face and pressed[i] == "false")
        focus_card(seat.page, "h", index)
        seat.page.keyboard.press("Space")


def play_by_keys(seat: Seat, move: str) -> None:
    page = seat.page
    seq = seat.seq()
    page.keyboard.press("Escape")
    words = move.split()
    if words[0] == "draw":
        page.keyboard.press("d")
    elif words[0] == "take":
        pile = seat.pile()
        focus_card(page, "f", len(pile) - 1 - pile[::-1].index(words[1]))
        page.keyboard.press("Enter")
    elif words[0] == "meld":
        select_by_keys(seat, words[1:])
        page.keyboard.press("m")
    elif words[0] == "layoff":
        select_by_keys(seat, [words[1]])
        page.keyboard.press("l")
        if page.evaluate("document.activeElement.classList.contains('meld')"):
            melds = page.eval_on_selector_all("#melds button.meld",
                                              "els => els.map(e => e.dataset.meld)")
            focus_card(page, "g", melds.index(words[2]))
            page.keyboard.press("Enter")
    elif words[0] == "discard":
        select_by_keys(seat, [words[1]])
        page.keyboard.press("x")
    else:
        page.keyboard.press({"pass": "p", "end": "e"}[words[0]])
    seat.wait_change(seq)


def deep_take(game: Game) -> bool:
    """A card below the pile's top may be taken now."""
    pile = game.deal.pile
    top = face_str(face_of(pile[-1])) if pile else None
    return any(str(move).startswith("take ") and str(move).split()[1].removesuffix("/2") != top
               for move in game.legal_moves())


def test_keyboard_alone_plays_a_deal(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    # Late in a deal, Ann to draw with a card deep in the pile she may take (and meld).
    table = make_table(web_server, seats=["person", "expert"], seed=8,
                       moves=opening(8, 2, lambda g: g.turn == 0 and len(g.deal.stock) <= 8
                                     and deep_take(g)))
    seat = table.open(page, 0)
    page.wait_for_selector("#game:not([hidden])")
    kinds: set[str] = set()
    page.keyboard.press("Tab")  # the first tab stop shows its focus too
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"

    def on_turn(number: int, seat: Seat) -> bool:
        move = choose_move(seat, number)
        kinds.add(move.split()[0])
        play_by_keys(seat, move)
        return True

    play_deal({0: seat}, on_turn)
    assert {"draw", "take", "meld", "discard"} <= kinds
    page.keyboard.press("Enter")  # the sheet's button has the focus
    assert not page.evaluate("document.querySelector('#sheet').open")
    assert seat.problems.real() == []
    context.close()


# -- a network drop, and someone away ----------------------------------------------------------


def test_reconnects_after_a_network_drop_and_a_computer_stands_in(web_server: Server,
                                                                  browser: Any) -> None:
    ann_context, ann_page = new_page(browser)
    bob_context, bob_page = new_page(browser)
    table = make_table(web_server, seats=["person", "person"], seed=5, takeover_s=1)
    ann, bob = table.open(ann_page, 0), table.open(bob_page, 1)
    for page in (ann_page, bob_page):
        page.wait_for_selector("#game:not([hidden])")
    while not bob.my_turn():  # play on until it is Bob's turn
        if ann.my_turn():
            ann.play(choose_move(ann, 0))
        time.sleep(0.1)
    seq = bob.seq()
    bob_context.set_offline(True)
    bob_page.wait_for_function("() => /reconnecting/i.test(document.querySelector('#net')"
                               ".textContent)")
    assert "lost" in bob_page.inner_text("#net").lower()
    # Ann sees Bob away, then a computer player makes his move for him.
    ann_page.wait_for_function("() => /away/.test(document.querySelector"
                               "('#players .player:not(.me)').textContent)")
    ann.wait_change(seq)
    assert "computer" in ann.log()[-1]
    bob_context.set_offline(False)
    bob_page.wait_for_function("() => /^Connected/.test(document.querySelector('#net')"
                               ".textContent)")
    bob_page.wait_for_function("s => Number(document.body.dataset.seq) >= s", arg=ann.seq())
    assert bob.hand() and bob.pile() == ann.pile()
    ann_page.wait_for_function("() => /here/.test(document.querySelector"
                               "('#players .player:not(.me)').textContent)")
    # Back at the table, Bob plays his own turns again.
    while not bob.my_turn():
        if ann.my_turn():
            ann.play(choose_move(ann, 0))
        time.sleep(0.1)
    bob.play(choose_move(bob, 1))
    assert bob.log()[-1].startswith("You ")
    assert ann.problems.real() == [] and bob.problems.real() == []
    ann_context.close()
    bob_context.close()
