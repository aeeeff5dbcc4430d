"""What card players expect of the browser table (issue 20), each shown by a page: cards that
move (and none with reduced motion asked for), the card just drawn marked, each seat's last
move on its panel; the tab's title and icon on the viewer's turn and the settings kept across a
reload; the light theme and the four-colour deck; the scores on a phone; the hand reordered by
dragging and the cards that can meld marked; the lobby's tables and the first-game help; and no
serious accessibility violation on any page (axe-core) with the turns announced."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browserkit import (
    DESKTOP,
    MOTION,
    PHONE,
    WATCH_CARD_MOTION,
    Seat,
    Server,
    choose_move,
    create_in_lobby,
    make_table,
    new_page,
    opening,
    serious,
)
from rummy500.game import Game
from rummy500.record import game_record
from rummy500.rules import make_rules


def start_table(browser: Any, server: Server, size: dict[str, int] = DESKTOP, *,
                bot: str = "simple", wanted: Callable[[Game], bool] | None = None,
                **options: Any) -> tuple[Any, Any, Seat]:
    """Ann against a computer player (``bot``: ``simple`` where its strength does not
    matter), at her table made through the API, the game on: at its first deal, or where
    ``wanted`` first holds (:func:`browserkit.opening`)."""
    touch = size == PHONE
    context, page = new_page(browser, size, is_mobile=touch, has_touch=touch, **options)
    moves = [] if wanted is None else opening(3, 2, wanted)
    seat = make_table(server, seats=["person", bot], seed=3, moves=moves).open(page, 0, tap=touch)
    page.wait_for_selector("#game:not([hidden])")
    return context, page, seat


def wait_my_turn(seat: Seat) -> None:
    seat.page.wait_for_function(
        "() => document.querySelector('#status.yours') !== null"
        " && document.querySelector('#actions button[data-action=hint]:enabled') !== null")


def play_until(seat: Seat, done: Any, limit: float = 60) -> None:
    """Play Ann's turns by the plain choice until ``done()``."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the table never got there"
        if seat.my_turn():
            seat.play(choose_move(seat, 0))
        else:
            time.sleep(0.1)


# -- 1. motion ------------------------------------------------------------------------------------


def test_cards_move_the_drawn_card_is_marked_and_each_seat_shows_its_last_move(
        web_server: Server, browser: Any) -> None:
    context, page, seat = start_table(browser, web_server, **MOTION)
    wait_my_turn(seat)
    page.evaluate(WATCH_CARD_MOTION)
    hand_before = seat.hand()
    assert "draw" in seat.legal()
    seat.play("draw")
    drawn = [c for c in seat.hand() if c not in hand_before]
    page.wait_for_function("() => window.cardMotion > 0")
    marked = page.eval_on_selector_all("#hand button.card.fresh",
                                       "els => els.map(e => e.dataset.card)")
    assert marked == drawn, (marked, drawn)
    label = page.get_attribute("#hand button.card.fresh", "aria-label") or ""
    assert "just drawn" in label
    mine = page.inner_text("#players .player.me .last-move")
    assert mine == "drew from the stock"
    page.screenshot(path="/tmp/shots/fresh-desktop.png")
    seat.play(choose_move(seat, 0))  # the next move clears the mark
    assert page.query_selector("#hand button.card.fresh") is None
    # The computer's move shows on its panel, and its discard flies to the pile.
    page.evaluate(WATCH_CARD_MOTION)
    play_until(seat, lambda: page.evaluate("document.body.dataset.turn") == "1")
    wait_my_turn(seat)
    theirs = page.inner_text("#players .player[data-seat='1'] .last-move")
    assert re.match(r"(discarded|took nothing) ", theirs + " "), theirs
    page.wait_for_function("() => window.cardMotion > 0")
    assert seat.problems.real() == []
    context.close()


def test_no_card_moves_with_reduced_motion(web_server: Server, browser: Any) -> None:
    context, page, seat = start_table(browser, web_server, reduced_motion="reduce")
    wait_my_turn(seat)
    page.evaluate(WATCH_CARD_MOTION)
    for _ in range(2):
        wait_my_turn(seat)
        seat.play(choose_move(seat, 0))
    wait_my_turn(seat)
    assert page.evaluate("window.cardMotion") == 0
    assert seat.problems.real() == []
    context.close()


# -- 2. your turn ---------------------------------------------------------------------------------


WATCH_TURNS = """() => {
    // Every title, icon and turn said from now on (window.turnsSeen).
    window.turnsSeen = [];
    const look = () => {
        const now = [document.title, document.querySelector('link[rel=icon]').href,
                     document.querySelector('#turn-say').textContent];
        const last = window.turnsSeen[window.turnsSeen.length - 1];
        if (!last || last.join() !== now.join()) window.turnsSeen.push(now);
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true,
        characterData: true, attributes: true, attributeFilter: ['href'] });
    look();
}"""


def icon_of(page: Any) -> str:
    href: str = page.get_attribute("link[rel=icon]", "href") or ""
    return href


def set_setting(page: Any, name: str, value: bool | str) -> None:
    page.click("#settings-button")
    field = page.locator(f"#setting-{name}")
    if isinstance(value, bool):
        field.set_checked(value)
    else:
        field.select_option(value)
    page.click("#settings-dialog button.primary")


def test_your_turn_changes_the_title_and_icon_and_chimes_as_the_settings_say(
        web_server: Server, browser: Any) -> None:
    context, page, seat = start_table(browser, web_server, bot="expert")
    wait_my_turn(seat)
    assert page.title() == "● Your turn — 500 Rum"
    yours = icon_of(page)
    assert yours.startswith("data:image/svg+xml,")
    assert page.inner_text("#turn-say") == "Your turn."
    set_setting(page, "sound", True)
    page.evaluate("navigator.vibrate = () => { window.vibrated = (window.vibrated || 0) + 1; "
                  "return true; }")
    page.evaluate(WATCH_TURNS)
    play_until(seat, lambda: page.evaluate("document.body.dataset.turn") == "1")
    wait_my_turn(seat)
    seen = page.evaluate("window.turnsSeen")
    others = [s for s in seen if s[0] != "● Your turn — 500 Rum"]
    assert others and all(icon != yours for _, icon, _ in others), seen
    assert ["● Your turn — 500 Rum", yours, "Your turn."] in seen, seen
    assert any(said == "Expert’s turn." for _, _, said in others), seen
    assert page.title() == "● Your turn — 500 Rum"
    page.wait_for_function("() => Number(document.body.dataset.chimes) >= 1")
    assert page.evaluate("window.vibrated") >= 1
    # The settings are kept across a reload: no title change, no chime.
    set_setting(page, "title", False)
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    wait_my_turn(seat)
    assert page.title() != "● Your turn — 500 Rum"
    page.click("#settings-button")
    assert page.is_checked("#setting-sound") and not page.is_checked("#setting-title")
    page.click("#settings-dialog button.primary")
    assert seat.problems.real() == []
    context.close()


# -- 3. looks -------------------------------------------------------------------------------------

COLOURS = """() => [getComputedStyle(document.body).backgroundColor,
                   getComputedStyle(document.body).color]"""


def card_colour(page: Any, suit: str) -> str:
    colour: str = page.evaluate(
        """s => { const c = [...document.querySelectorAll('#hand .card[data-card]')]
            .find(e => e.dataset.card.endsWith(s));
            return c ? getComputedStyle(c).color : ''; }""", suit)
    return colour


def test_themes_decks_and_card_sizes(web_server: Server, browser: Any) -> None:
    context, page, seat = start_table(browser, web_server, color_scheme="dark")
    wait_my_turn(seat)
    dark = page.evaluate(COLOURS)
    assert dark == ["rgb(14, 59, 44)", "rgb(244, 241, 232)"], dark  # the system's dark
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.screenshot(path=f"/tmp/shots/table-{size['width']}-dark.png")
    page.set_viewport_size(DESKTOP)
    set_setting(page, "theme", "light")
    light = page.evaluate(COLOURS)
    assert light != dark
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.screenshot(path=f"/tmp/shots/table-{size['width']}-light.png")
    page.set_viewport_size(DESKTOP)
    red = "rgb(179, 0, 27)"
    assert card_colour(page, "d") in ("", red) and card_colour(page, "h") in ("", red)
    set_setting(page, "deck", "four")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.evaluate(COLOURS) == light  # kept across the reload
    four = {suit: card_colour(page, suit) for suit in "cdhs"}
    assert four["d"] in ("", "rgb(11, 87, 208)") and four["c"] in ("", "rgb(19, 115, 51)"), four
    assert four["h"] in ("", red) and four["s"] in ("", "rgb(17, 17, 17)"), four
    assert len({c for c in four.values() if c}) == len([c for c in four.values() if c])
    # Cards sized to the space: larger on a large screen, smaller on a phone.
    widths = {}
    for size in ({"width": 1920, "height": 1080}, DESKTOP, PHONE):
        page.set_viewport_size(size)
        widths[size["width"]] = page.evaluate(
            "document.querySelector('#hand .card').getBoundingClientRect().width")
    assert widths[1920] > widths[1280] > widths[360], widths
    assert seat.problems.real() == []
    context.close()


def test_the_scores_open_as_a_drawer_on_a_phone(web_server: Server, browser: Any) -> None:
    context, page, seat = start_table(browser, web_server, PHONE)
    wait_my_turn(seat)
    assert page.is_hidden("#side-close")
    seat.press("#side-button")
    assert page.get_attribute("#side-button", "aria-expanded") == "true"
    box = page.evaluate("""() => { const r = document.querySelector('#scores table')
        .getBoundingClientRect(); return [r.top, r.bottom, window.scrollY]; }""")
    assert box[0] >= 0 and box[1] <= PHONE["height"] and box[2] == 0, box
    assert page.evaluate("document.activeElement.id") == "side-close"
    page.screenshot(path="/tmp/shots/phone-scores.png")
    page.keyboard.press("Escape")
    assert page.get_attribute("#side-button", "aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == "side-button"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    assert seat.problems.real() == []
    context.close()


# -- 4. your hand ---------------------------------------------------------------------------------


def drag(page: Any, source: str, target: str, right: bool = True) -> None:
    """Drag ``source`` by the mouse onto the right (or left) half of ``target``."""
    a = page.locator(source).bounding_box()
    b = page.locator(target).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    x = b["x"] + b["width"] * (0.8 if right else 0.2)
    page.mouse.move(x, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def test_the_hand_is_put_in_order_by_dragging_and_stays_so(web_server: Server,
                                                          browser: Any) -> None:
    context, page, seat = start_table(browser, web_server)
    wait_my_turn(seat)
    sorted_hand = seat.hand()
    drag(page, "#hand button.card[data-index='0']", "#hand button.card:last-child")
    page.wait_for_function("first => document.querySelector('#hand button.card:last-child')"
                           ".dataset.card === first", arg=sorted_hand[0])
    moved = seat.hand()
    assert moved == sorted_hand[1:] + sorted_hand[:1]
    assert page.query_selector("#hand button.card[aria-pressed='true']") is None  # no select
    page.click("#hand button.card[data-index='2']")  # a click still selects
    assert page.get_attribute("#hand button.card[data-index='2']", "aria-pressed") == "true"
    # Alt with an arrow key moves a card too.
    page.focus("#hand button.card[data-index='2']")
    page.keyboard.press("Alt+ArrowLeft")
    assert seat.hand()[1] == moved[2]
    assert page.evaluate("document.activeElement.dataset.index") == "1"
    arranged = seat.hand()
    page.reload()
    page.wait_for_selector("#hand button.card")
    assert seat.hand() == arranged  # kept for the table
    assert "Sort by suit" in page.inner_text("#sort-button")
    page.click("#sort-button")
    assert seat.hand() == sorted_hand  # sorted again
    assert seat.problems.real() == []
    context.close()


def test_a_finger_drags_a_card_on_a_phone(web_server: Server, browser: Any) -> None:
    context, page, seat = start_table(browser, web_server, PHONE)
    wait_my_turn(seat)
    before = seat.hand()
    a = page.locator("#hand button.card[data-index='0']").bounding_box()
    b = page.locator("#hand button.card[data-index='2']").bounding_box()
    touch = context.new_cdp_session(page)
    y = a["y"] + a["height"] / 2
    points = [a["x"] + a["width"] / 2 + (b["x"] + b["width"] * 0.8 - a["x"] - a["width"] / 2)
              * step / 10 for step in range(11)]
    touch.send("Input.dispatchTouchEvent",
               {"type": "touchStart", "touchPoints": [{"x": points[0], "y": y}]})
    for x in points[1:]:
        touch.send("Input.dispatchTouchEvent",
                   {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("first => document.querySelector(\"#hand button.card[data-index='2']\")"
                           ".dataset.card === first", arg=before[0])
    assert seat.hand() == [before[1], before[2], before[0], *before[3:]]
    assert page.query_selector("#hand button.card[aria-pressed='true']") is None
    assert seat.problems.real() == []
    context.close()


def test_the_cards_that_can_meld_are_marked(web_server: Server, browser: Any) -> None:
    context, page, seat = start_table(browser, web_server, wanted=lambda g: g.turn == 0 and any(
        str(m).startswith("meld ") for m in g.legal_moves()))
    wait_my_turn(seat)
    assert any(m.startswith("meld ") for m in seat.legal())
    faces = {("*" if c.startswith("*") else c)
             for m in seat.legal() if m.startswith("meld ") for c in m.split()[1:]}
    marked = page.eval_on_selector_all("#hand button.card.can-meld",
                                       "els => els.map(e => e.dataset.card)")
    assert set(marked) == faces and len(marked) >= 3, (marked, faces)
    label = page.get_attribute("#hand button.card.can-meld", "aria-label") or ""
    assert "can make a meld now" in label
    page.screenshot(path="/tmp/shots/meldable-desktop.png")
    assert seat.problems.real() == []
    context.close()


# -- 5. the lobby ---------------------------------------------------------------------------------


def test_the_lobby_lists_your_tables_and_a_first_game_helps_at_every_turn(
        web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    seat = Seat(page)
    page.goto(web_server.url + "/")
    page.check("#first-game")  # kept as a setting, for the table
    create_in_lobby(page, web_server, name="Ann", seats=["person", "expert"], seed=3)
    page.wait_for_selector("#game:not([hidden])")
    wait_my_turn(seat)
    assert page.evaluate("document.body.classList.contains('first-game')")
    page.wait_for_selector("#message .hint")  # shown without asking
    assert page.is_visible("#control-help")
    for button in page.query_selector_all("#actions button"):
        described = button.get_attribute("aria-describedby")
        assert described and page.query_selector(f"#{described}"), button.inner_text()
        assert button.get_attribute("title")
    assert "ends your turn" in page.inner_text("#control-help") or \
        "top card of the stock" in page.inner_text("#control-help")
    seat.play(choose_move(seat, 0))
    if seat.my_turn():
        page.wait_for_selector("#message .hint")  # again, at the next step of the turn
    page.goto(web_server.url + "/")
    page.wait_for_selector("#my-tables li[data-status]")
    row = page.inner_text("#my-tables li")
    assert "Classic, 2 players" in row, row
    assert re.search(r"you −?\d+, Expert −?\d+", row), row
    assert "deal 1 in play" in row, row
    assert re.search(r"\d{4}", row), row  # the date
    assert page.is_visible("#my-tables li a.primary")
    assert page.is_checked("#first-game")
    assert seat.problems.real() == []
    context.close()


# -- 6. accessible --------------------------------------------------------------------------------




def record_file(tmp_path: Path) -> Path:
    game = Game(make_rules("classic", target_score=None, max_deals=2), 2, seed=5)
    chance = random.Random(5)
    while not game.finished:
        game.play(chance.choice(game.legal_moves()))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(game)))
    return path


def test_no_serious_accessibility_violation_on_any_page(web_server: Server, browser: Any,
                                                        tmp_path: Path) -> None:
    found: dict[str, list[str]] = {}
    record = record_file(tmp_path)
    for size in (DESKTOP, PHONE):
        for theme in ("dark", "light"):
            context, page, seat = start_table(browser, web_server, size, color_scheme=theme)
            wait_my_turn(seat)
            seat.play(choose_move(seat, 0))  # mid-game: the pile and the hand in play
            wait_my_turn(seat)
            found[f"table {size['width']} {theme}"] = serious(page)
            page.click("#settings-button")
            found[f"settings {size['width']} {theme}"] = serious(page)
            page.click("#settings-dialog button.primary")
            page.goto(web_server.url + "/")
            page.wait_for_selector("#my-tables li[data-status]")
            found[f"lobby {size['width']} {theme}"] = serious(page)
            page.goto(web_server.url + "/replay")
            page.set_input_files("#record-file", str(record))
            page.wait_for_selector("#viewer:not([hidden])")
            page.keyboard.press("ArrowRight")
            found[f"replay {size['width']} {theme}"] = serious(page)
            assert seat.problems.real() == []
            context.close()
    assert {where: v for where, v in found.items() if v} == {}


def test_every_page_fits_both_screens_with_two_to_eight_players(web_server: Server,
                                                                browser: Any) -> None:
    for size in (DESKTOP, PHONE):
        touch = size == PHONE
        context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
        seat = Seat(page, tap=touch)
        for players in range(2, 9):
            make_table(web_server, seats=["person"] + ["simple"] * (players - 1),
                       seed=players).open(page, 0, tap=touch)
            page.wait_for_selector("#game:not([hidden])")
            page.wait_for_selector("#hand button.card")
            for where in ("table", "scores"):
                if where == "scores" and touch:
                    seat.press("#side-button")
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= size["width"], (players, size, where, width)
                if players in (2, 8):
                    page.screenshot(path=f"/tmp/shots/fit-{size['width']}-{players}-{where}.png")
            page.goto(web_server.url + "/")
            page.wait_for_selector("#my-tables li[data-status]")
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        assert seat.problems.real() == []
        context.close()
