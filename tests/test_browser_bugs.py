"""The bugs of issue 20 that a person saw at the browser table, each shown by a page: seat
numbers counted from 1 in every text, words (sentences, a tie, book numbers, option names,
your own seat), a replay that keeps the game's result for its end, the rules dialog on a
phone, the keyboard aids (and none on a touch screen), eight players on both screens, and
a dozen melds above the hand, never under it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from browserkit import DESKTOP, PHONE, Seat, Server, make_table, new_page, opening
from rummy500.game import Game
from rummy500.record import game_record
from rummy500.rules import make_rules


def explained(page: Any) -> str:
    page.click("#explain-details summary")
    page.wait_for_function("() => document.querySelector('#explain dd') !== null")
    text: str = page.inner_text("#explain")
    return text


# -- 3. seat numbers ------------------------------------------------------------------------------


def test_seats_are_counted_from_one_in_the_lobby_and_the_rules(web_server: Server,
                                                                browser: Any) -> None:
    context, page = new_page(browser)
    page.goto(web_server.url + "/")
    page.select_option("#preset", "partnership")
    page.wait_for_function(
        "() => document.querySelector('#players-help').textContent.includes('sides')")
    assert "seats 1 and 3 against 2 and 4" in page.inner_text("#players-help")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#explain dt')]"
        ".some(e => e.textContent === 'Partners')")
    rules = explained(page)
    assert "seats 1 and 3 against 2 and 4" in rules
    assert "0 and 2" not in rules
    page.click("#options-details summary")
    assert "0 and 2" not in page.inner_text("#options")
    answer = web_server.post("/api/rules/explain", {"rules": {"preset": "partnership"},
                                                    "players": 4})
    assert answer["sides"] == [[0, 2], [1, 3]]  # the data stays 0-based
    context.close()


# -- 7. words -------------------------------------------------------------------------------------


def test_the_lobby_names_options_and_games_in_words(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    page.goto(web_server.url + "/")
    page.wait_for_function("() => document.querySelector('#preset-help').textContent.length > 0")
    for preset in ("wild", "simplified", "persian"):
        page.select_option("#preset", preset)
        help_text = page.inner_text("#preset-help")
        assert not re.search(r"\b00\d\b", help_text), help_text
    page.click("#options-details summary")
    labels = page.eval_on_selector_all("#options label", "els => els.map(e => e.textContent)")
    assert labels and not [label for label in labels if "_" in label], labels
    assert "top_discard_must_be_used" not in page.inner_text("#options")
    assert not re.search(r"\b(false|true):", page.inner_text("#options"))
    box = page.locator("#opt-rummy_calls")
    row = page.locator(".option", has=box)
    assert "no" in row.inner_text().split()
    box.set_checked(True)
    row = page.locator(".option", has=page.locator("#opt-rummy_calls"))
    assert "yes" in row.inner_text().split()
    context.close()


def test_your_seat_a_tie_and_a_hint_in_words(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    make_table(web_server, seats=["person", "person"], seed=3, join=False).open(page, 0)
    page.wait_for_selector("#waiting:not([hidden])")
    mine = page.locator("#waiting-seats li").first.inner_text()
    assert "Ann" in mine and "(you)" in mine, mine
    context.close()

    context, page = new_page(browser)
    seat = make_table(web_server, seats=["person", "simple"], seed=3).open(page, 0)
    page.wait_for_selector("#game:not([hidden])")
    scores = page.inner_text("#scores")
    assert "Level at 0 each (to 500)" in scores, scores
    page.wait_for_function("() => document.querySelector('#status.yours') !== null")
    page.click("#actions button[data-action=hint]")
    page.wait_for_selector("#message .hint button")
    hint = page.inner_text("#message .hint")
    assert not re.search(r"\. [a-z]", hint), hint  # each sentence starts with a capital
    assert seat.problems.real() == []
    context.close()


# -- 4. the replay --------------------------------------------------------------------------------


def finished_game() -> Game:
    """Three deals of two random players, to the end."""
    game = Game(make_rules("classic", target_score=None, max_deals=3), 2, seed=5)
    chance = random.Random(5)
    while not game.finished:
        game.play(chance.choice(game.legal_moves()))
    return game


def test_a_replayed_deal_tells_only_what_was_known_then(web_server: Server, browser: Any,
                                                        tmp_path: Path) -> None:
    game = finished_game()
    record_file = tmp_path / "game.json"
    record_file.write_text(json.dumps(game_record(game)))
    context, page = new_page(browser)
    problems = Seat(page).problems
    page.goto(web_server.url + "/replay")
    page.set_input_files("#record-file", str(record_file))
    page.wait_for_selector("#viewer:not([hidden])")
    heading = page.inner_text("#outcome")
    assert "win" not in heading and "draw" not in heading, heading  # told at the end
    page.keyboard.press("End")
    page.wait_for_selector("#sheet:not([hidden])")
    first = page.inner_text("#sheet")
    assert "Seat 1" in first and "Seat 2" in first and "Seat 0" not in first
    assert "Deal 1 is over" in first
    assert "the game" not in first and "win" not in first, first
    assert re.search(r"leads? with|Level at", first), first
    assert not re.search(r"-\d", first), first  # a minus sign, as the table writes it
    assert "−" in first
    page.select_option("#deal-select", str(len(game.deals) - 1))
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('#sheet h2')?.textContent"
                           f".startsWith('Deal {len(game.deals)} is over')")
    last = page.inner_text("#sheet")
    assert "the game" in last, last  # the result, at the end of the game
    assert problems.real() == []
    context.close()


# -- 5. the rules dialog on a phone ---------------------------------------------------------------


def test_the_rules_dialog_on_a_phone_opens_at_the_top_with_room_for_the_words(
        web_server: Server, browser: Any) -> None:
    context, page = new_page(browser, PHONE, is_mobile=True, has_touch=True)
    seat = make_table(web_server, preset="persian", seats=["person", "simple", "simple", "simple"],
                      seed=3).open(page, 0, tap=True)
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#rules-dialog dl.topics dd", state="attached")
    page.tap("#rules-button")
    page.wait_for_selector("#rules-dialog[open]")
    top, height, shown = page.eval_on_selector(
        "#rules-dialog", "d => [d.scrollTop, d.scrollHeight, d.clientHeight]")
    assert height > shown, "the rules must be longer than the screen for this test"
    assert top == 0
    assert page.evaluate("""() => { const r = document.querySelector('#rules-heading')
        .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }""")
    widths = page.evaluate("""() => {
        const d = document.querySelector('#rules-dialog dl.topics');
        const dd = d.querySelector('dd');
        return [dd.getBoundingClientRect().width, d.getBoundingClientRect().width]; }""")
    assert widths[0] >= 0.9 * widths[1], widths  # the words, not the labels, have the width
    assert seat.problems.real() == []
    context.close()


# -- 6. keyboard aids -----------------------------------------------------------------------------


def test_the_keys_dialog_lists_every_key_and_a_touch_screen_shows_none(
        web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    make_table(web_server, seats=["person", "simple"], seed=3).open(page, 0)
    page.wait_for_selector("#game:not([hidden])")
    page.click("#keys-button")
    keys = page.eval_on_selector_all("#keys-dialog dt", "els => els.map(e => e.textContent)")
    for key in ("D", "E", "F", "H", "M", "L", "G", "X", "P", "I", "S", "/", "?", "Esc"):
        assert key in keys, key
    page.wait_for_selector("#actions kbd")
    assert page.is_visible("#typed") and page.is_visible("#keys-button")
    context.close()

    context, page = new_page(browser, PHONE, is_mobile=True, has_touch=True)
    seat = make_table(web_server, seats=["person", "simple"], seed=3).open(page, 0, tap=True)
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector("#actions kbd", state="attached")
    assert page.is_hidden("#keys-button")
    assert page.is_hidden("#typed")
    assert page.eval_on_selector_all("kbd", "els => els.filter(e => e.offsetParent).length") == 0
    assert seat.problems.real() == []
    context.close()


# -- 1. eight players -----------------------------------------------------------------------------


def test_eight_players_fit_the_desktop_and_the_phone(web_server: Server, browser: Any) -> None:
    for size, touch in ((DESKTOP, False), (PHONE, True)):
        context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
        seat = make_table(web_server, seats=["person"] + ["simple"] * 7, seed=3).open(page, 0,
                                                                                      tap=touch)
        page.wait_for_selector("#game:not([hidden])")
        page.wait_for_selector("#scores table")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"the page is {width}px wide on a {size['width']}px screen"
        panel, table = page.evaluate("""() => {
            const panel = document.querySelector('#scores').getBoundingClientRect();
            const table = document.querySelector('#scores table').getBoundingClientRect();
            return [[panel.left, panel.right], [table.left, table.right]]; }""")
        assert table[0] >= panel[0] - 0.5 and table[1] <= panel[1] + 0.5, (size, panel, table)
        shown = page.inner_text("#scores")
        for name in ("You", *(f"Simple {n}" for n in range(1, 8))):
            assert name in shown, name
        assert seat.problems.real() == []
        context.close()


# -- 2. a dozen melds -----------------------------------------------------------------------------

DOZEN_MELDS = """() => {
    // A dozen melds of four cards, made from the first on the table (measured at once, before
    // the table's next change draws the melds again).
    const first = document.querySelector('#melds .meld');
    const list = first.parentElement;  // the melds of the seat that laid it
    const cards = first.querySelector('.meld-cards');
    while (cards.children.length < 4) cards.append(cards.children[0].cloneNode(true));
    while (list.querySelectorAll('.meld').length < 12) list.append(first.cloneNode(true));
    const hand = document.querySelector('#mine').getBoundingClientRect();
    const pile = document.querySelector('.piles').getBoundingClientRect();
    const melds = [...list.querySelectorAll('.meld')].map((m) => m.getBoundingClientRect());
    return { scrolled: document.querySelector('#play').scrollTop, handTop: hand.top,
             pileBottom: pile.bottom, pileRight: pile.right,
             // Where each is seen: a seat's melds scroll in their own area.
             melds: melds.map((r) => [r.left, r.top,
                                      Math.min(r.bottom, list.getBoundingClientRect().bottom)]) };
}"""


def test_a_dozen_melds_stay_above_the_hand(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    # A table made where a meld is on it and Ann is to move.
    moves = opening(3, 4, lambda g: g.turn == 0 and bool(g.deal.melds))
    seat = make_table(web_server, seats=["person", "expert", "expert", "expert"], seed=3,
                      moves=moves).open(page, 0)
    page.wait_for_selector("#game:not([hidden])")
    assert page.query_selector("#melds .meld"), "a meld must be on the table for this test"
    laid = page.evaluate(DOZEN_MELDS)
    assert laid["scrolled"] == 0
    hidden = [n + 1 for n, (_, _, bottom) in enumerate(laid["melds"]) if bottom > laid["handTop"]]
    assert hidden == [], f"melds under the hand: {hidden}"
    assert seat.problems.real() == []
    context.close()
