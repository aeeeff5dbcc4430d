"""The bugs of issue 32 that a person met at the browser table, each shown by a page:

1. late in a deal, with melds in three rows and more at 1280×800, the hint, a refused move's
   reason and the wild joker's choice show above the hand, not under it;
2. the log (and the talk) scroll and can be reached by keyboard (axe's
   ``scrollable-region-focusable``);
3. in the dark theme, Next deal, Close and Play again keep their contrast under the pointer;
5. a deal's sheet opens at its heading, with its button in sight;
6. one minus sign (−15) everywhere, the sheet's and the score table's totals too;
7. after a discard or a lay-off by keyboard the focus stays at the table;
8. at eight players on a desktop the seats stay in sight however far the melds go;
9. the small slips: the lobby's count of changed options while typing, Lay off with no meld
   on the table, a seat kept for its player after Play again, no "Skip to your hand" for a
   spectator, a hint that writes a declared joker as the log does.

(4, the turn clock running out, is told elsewhere.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from browserkit import (
    DESKTOP,
    PHONE,
    Seat,
    Server,
    create_in_lobby,
    deal_over,
    join_by_link,
    make_table,
    new_page,
    opening,
    play_deal,
    serious,
)
from rummy500.game import Game
from rummy500.position import PLAY_PHASE

SHOWN = """(selector) => {
    // Whether the element is on the screen and on top there: at its centre and near two of
    // its corners the page's hit test finds it (not the hand, a scrolled-away part, a panel).
    const el = document.querySelector(selector);
    if (!el) return 'missing';
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return 'not drawn';
    if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
        return `off the screen: ${Math.round(r.top)}..${Math.round(r.bottom)}`;
    }
    const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 3, r.top + 3],
                    [r.right - 3, r.bottom - 3]];
    for (const [x, y] of points) {
        const at = document.elementFromPoint(x, y);
        if (!at || !(el === at || el.contains(at))) {
            const by = at ? at.outerHTML.slice(0, 60) : 'nothing';
            return `covered at ${Math.round(x)},${Math.round(y)} by ${by}`;
        }
    }
    return 'shown';
}"""
"""A page script: ``shown`` when the element is on the screen and nothing covers it, else why."""

MELD_ROWS = """() => new Set([...document.querySelectorAll('#melds .meld')]
    .map((m) => Math.round(m.getBoundingClientRect().top))).size"""

FILL_MELDS = """(rows) => {
    // Copies of the table's melds until they lie in `rows` rows (or forty melds): a table late
    // in a deal. The copies last until the melds are drawn again.
    const list = document.querySelector('#melds .meld').parentElement;  // a seat's melds
    const first = list.querySelectorAll('.meld');
    const count = () => new Set([...list.querySelectorAll('.meld')]
        .map((m) => Math.round(m.getBoundingClientRect().top))).size;
    let n = 0;
    while (count() < rows && list.children.length < 40) {
        list.append(first[n % first.length].cloneNode(true));
        n += 1;
    }
    return count();
}"""


def start(browser: Any, server: Server, size: dict[str, int] = DESKTOP, *,
          seats: list[str] | None = None, seed: int, wanted: Callable[[Game], bool] | None = None,
          back: int = 0, preset: str = "classic", options: dict[str, Any] | None = None,
          color_scheme: str = "light") -> tuple[Any, Any, Seat]:
    """Ann's page (seat 0) at ``size``, at a table made through the API that starts where
    ``wanted`` first holds (less ``back`` moves: :func:`browserkit.opening`), or at its
    first deal."""
    seats = seats or ["person", "expert"]
    moves = [] if wanted is None else opening(seed, len(seats), wanted, preset=preset,
                                              options=options, back=back)
    table = make_table(server, seats=seats, seed=seed, preset=preset, options=options,
                       moves=moves)
    touch = size == PHONE
    context, page = new_page(browser, size, is_mobile=touch, has_touch=touch,
                             color_scheme=color_scheme)
    seat = table.open(page, 0, tap=touch)
    page.wait_for_selector("#game:not([hidden])")
    return context, page, seat


def my_play(game: Game) -> bool:
    """Seat 0 (Ann) is to meld, lay off or discard."""
    return game.turn == 0 and game.deal.phase == PLAY_PHASE


def legal(game: Game) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def shown(page: Any, selector: str) -> str:
    result: str = page.evaluate(SHOWN, selector)
    return result


def phase(page: Any) -> str:
    value: str = page.evaluate("document.body.dataset.phase")
    return value


# -- 1. what speaks to the player shows above the hand --------------------------------------------


def joker_choices(legal: list[str]) -> list[str]:
    """The melds of one set of cards in which a joker may stand for more than one card."""
    ways: dict[tuple[str, ...], list[str]] = {}
    for move in legal:
        if move.startswith("meld ") and "*=" in move:
            cards = tuple(sorted("*" if c.startswith("*") else c for c in move.split()[1:]))
            ways.setdefault(cards, []).append(move)
    return next((moves for moves in ways.values() if len(moves) > 1), [])


def test_1_hint_refusal_and_joker_choice_show_above_the_hand_late_in_a_deal(
        web_server: Server, browser: Any) -> None:
    context, page, seat = start(browser, web_server, preset="wild", seed=11, wanted=lambda g: (
        my_play(g) and bool(g.deal.melds) and bool(joker_choices(legal(g)))))
    assert phase(page) == "play" and joker_choices(seat.legal())

    # The melds of a late deal: three rows and more.
    assert page.evaluate(FILL_MELDS, 4) >= 3
    page.wait_for_selector("#actions button[data-action=hint]:enabled")  # the turn is shown
    page.keyboard.press("i")
    page.wait_for_selector("#message .hint button")
    assert page.evaluate("document.activeElement.textContent") == "Play it"
    assert shown(page, "#message .hint") == "shown"
    assert shown(page, "#message .hint button") == "shown"  # Enter plays what is seen

    page.fill("#move-input", "meld Kc Kd")
    page.press("#move-input", "Enter")
    page.wait_for_selector("#message .refusal")
    assert "Not played" in page.inner_text("#message")
    assert shown(page, "#message .refusal") == "shown"
    page.press("#move-input", "Escape")

    choices = joker_choices(seat.legal())
    seat.select(choices[0].split()[1:])  # drawn again: the melds are the table's
    page.evaluate(FILL_MELDS, 4)
    page.keyboard.press("m")
    page.wait_for_selector("#chooser:not([hidden])")
    assert "joker stands for" in page.inner_text("#chooser")
    assert shown(page, "#chooser") == "shown"
    assert shown(page, "#chooser button[data-move]") == "shown"
    assert page.evaluate("document.activeElement.dataset.move") in choices
    page.screenshot(path="/tmp/issue32-1-chooser.png")
    assert seat.problems.real() == []
    context.close()


# -- 2. the log reached by keyboard ----------------------------------------------------------------


def test_2_a_long_log_and_talk_can_be_reached_by_keyboard(web_server: Server,
                                                          browser: Any) -> None:
    for size in (DESKTOP, PHONE):
        # A few moves before the end of the first deal: a long log.
        context, page, seat = start(browser, web_server, size,
                                    seats=["person", "expert", "expert", "expert"], seed=5,
                                    wanted=deal_over(1), back=6)
        play_deal({0: seat})
        page.click("#sheet-close")
        for n in range(12):  # enough talk to scroll
            page.fill("#chat-input", f"line {n} of a long talk")
            page.press("#chat-input", "Enter")
        page.wait_for_function("() => document.querySelectorAll('#chat-lines li').length >= 12")
        scrolls = page.evaluate("""() => ['#log', '#chat-lines'].map((s) => {
            const el = document.querySelector(s); return el.scrollHeight > el.clientHeight; })""")
        assert scrolls == [True, True], "the log and the talk must scroll for this test"
        assert serious(page) == [], size
        page.focus("#log")
        assert page.evaluate("document.activeElement.id") == "log"
        before = page.evaluate("document.querySelector('#log').scrollTop")
        page.keyboard.press("Home")
        page.wait_for_function("t => document.querySelector('#log').scrollTop < t", arg=before)
        assert seat.problems.real() == []
        context.close()


# -- 3, 5, 6: the end of a deal in the dark theme ------------------------------------------------

CONTRAST = """(selector) => {
    // The contrast of the element's text on its background, as WCAG counts it.
    const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = (text) => {
        const [r, g, b] = rgb(text).map((v) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(document.querySelector(selector));
    const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
}"""

SHEET_PLACE = """() => {
    // Where the sheet stands in its dialog as it opens.
    const dialog = document.querySelector('#sheet');
    const box = dialog.getBoundingClientRect();
    const heading = document.querySelector('#sheet-heading').getBoundingClientRect();
    const focused = document.activeElement.getBoundingClientRect();
    return { scrolled: dialog.scrollTop, tall: dialog.scrollHeight > dialog.clientHeight,
             headingTop: heading.top, top: box.top, bottom: box.bottom,
             focused: document.activeElement.id, focusedTop: focused.top,
             focusedBottom: focused.bottom, screen: innerHeight };
}"""


def hovered_contrast(page: Any, selector: str) -> float:
    page.hover(selector)
    page.wait_for_timeout(100)
    value: float = page.evaluate(CONTRAST, selector)
    return value


@pytest.fixture(scope="module")
def two_deals(web_server: Server, browser: Any) -> Iterator[dict[str, Any]]:
    """The end of each deal of a two-deal game (a table a few moves before it), four players,
    in the dark theme at 1280×800: for each sheet, where it stood as it opened, its words and
    the score table's, and its buttons' contrast under the pointer."""
    context = page = seat = None
    sheets: list[dict[str, Any]] = []
    problems: list[str] = []
    for deal in (1, 2):  # a table a few moves before the end of each deal
        if context is not None:
            context.close()
        context, page, seat = start(browser, web_server,
                                    seats=["person", "expert", "expert", "expert"], seed=7,
                                    options={"max_deals": 2, "target_score": None},
                                    wanted=deal_over(deal), back=6, color_scheme="dark")
        play_deal({0: seat})
        page.wait_for_selector("#sheet[open] #sheet-close")
        page.wait_for_timeout(200)
        sheet: dict[str, Any] = {"place": page.evaluate(SHEET_PLACE),
                                 "text": page.inner_text("#sheet"),
                                 "scores": page.inner_text("#scores")}
        page.screenshot(path=f"/tmp/issue32-sheet-{len(sheets) + 1}.png")
        buttons = {"#sheet-close": page.inner_text("#sheet-close")}
        if page.query_selector("#sheet-again button[data-action=again]"):
            buttons["#sheet-again button[data-action=again]"] = "Play again"
        sheet["contrast"] = {name: hovered_contrast(page, selector)
                             for selector, name in buttons.items()}
        sheets.append(sheet)
        problems += seat.problems.real()
    yield {"sheets": sheets, "problems": problems}
    assert context is not None
    context.close()


def test_3_dark_theme_buttons_keep_their_contrast_under_the_pointer(
        two_deals: dict[str, Any]) -> None:
    contrasts = {name: value for sheet in two_deals["sheets"]
                 for name, value in sheet["contrast"].items()}
    assert set(contrasts) == {"Next deal", "Close", "Play again"}
    low = {name: round(value, 2) for name, value in contrasts.items() if value < 4.5}
    assert low == {}
    assert two_deals["problems"] == []


def test_5_a_sheet_opens_at_its_heading_with_its_button_in_sight(
        two_deals: dict[str, Any]) -> None:
    for sheet in two_deals["sheets"]:
        place = sheet["place"]
        assert place["tall"], "the sheet must be taller than the screen for this test"
        assert place["scrolled"] == 0, place
        assert place["headingTop"] >= place["top"], place
        assert place["focused"] == "sheet-close"
        assert place["focusedTop"] >= place["top"], place
        assert place["focusedBottom"] <= place["bottom"], place


def test_6_one_minus_sign_on_the_sheets_and_the_score_table(two_deals: dict[str, Any]) -> None:
    words = [text for sheet in two_deals["sheets"] for text in (sheet["text"], sheet["scores"])]
    assert any(re.search(r"−\d", text) for text in words), "a negative score is needed here"
    hyphens = [line for text in words for line in text.splitlines() if re.search(r"-\d", line)]
    assert hyphens == []


# -- 7. the focus after a move by keyboard --------------------------------------------------------


FOCUS = """() => { const el = document.activeElement;
    return { tag: el ? el.tagName : null, inHand: Boolean(el && el.closest('#hand')),
             inMelds: Boolean(el && el.closest('#melds')) }; }"""


def key_to_card(seat: Seat, card: str) -> None:
    """Go to the hand by key and select ``card`` with the arrows and Space."""
    page = seat.page
    page.keyboard.press("h")
    page.keyboard.press("Home")
    for _ in range(seat.hand().index(card)):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == card
    page.keyboard.press("Space")


def test_7_the_focus_stays_at_the_table_after_a_discard_or_a_lay_off_by_keyboard(
        web_server: Server, browser: Any) -> None:
    context, page, seat = start(browser, web_server, seed=3, wanted=lambda g: my_play(g) and any(
        m.startswith("layoff ") and "*" not in m for m in legal(g)))
    layoff = next(m for m in seat.legal() if m.startswith("layoff ") and "*" not in m)
    card, meld = layoff.split()[1:]
    seq = seat.seq()
    key_to_card(seat, card)
    page.keyboard.press("l")
    if page.evaluate(FOCUS)["inMelds"]:  # more than one meld: the arrows choose, Enter lays off
        page.keyboard.press("Home")
        while page.evaluate("document.activeElement.dataset.meld") != meld:
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    seat.wait_change(seq)
    assert seat.log()[-1].startswith("You lay off"), seat.log()[-1]
    page.wait_for_timeout(300)
    focus = page.evaluate(FOCUS)
    assert focus["tag"] == "BUTTON" and (focus["inHand"] or focus["inMelds"]), focus

    discard = max(d for d in seat.legal() if d.startswith("discard ")).split()[1]
    seq = seat.seq()
    key_to_card(seat, discard)
    page.keyboard.press("x")
    seat.wait_change(seq)
    page.wait_for_timeout(300)
    focus = page.evaluate(FOCUS)
    assert focus["tag"] == "BUTTON" and focus["inHand"], focus
    assert seat.problems.real() == []
    context.close()


# -- 8. eight players on a desktop ----------------------------------------------------------------

SEATS_IN_SIGHT = """() => {
    const play = document.querySelector('#play').getBoundingClientRect();
    const tops = [...document.querySelectorAll('#players .player')]
        .map((p) => p.getBoundingClientRect().top);
    return { playTop: play.top, seatsTop: Math.min(...tops) };
}"""


def test_8_eight_players_on_a_desktop_keep_the_seats_in_sight(web_server: Server,
                                                              browser: Any) -> None:
    context, page, seat = start(browser, web_server, seats=["person"] + ["expert"] * 7, seed=4,
                                wanted=lambda g: my_play(g) and bool(g.deal.melds))
    assert phase(page) == "play" and page.query_selector("#melds .meld")
    # More melds than the table shows at once; the keyboard goes to the last one.
    assert page.evaluate(FILL_MELDS, 6) >= 5
    page.keyboard.press("g")
    page.keyboard.press("End")
    focused = page.evaluate("""() => { const melds = [...document.querySelectorAll('#melds .meld')];
        return melds.indexOf(document.activeElement) === melds.length - 1; }""")
    assert focused, "the last meld has the focus"
    assert shown(page, ":focus") == "shown"
    place = page.evaluate(SEATS_IN_SIGHT)
    assert place["seatsTop"] >= place["playTop"] - 0.5, place
    page.screenshot(path="/tmp/issue32-8-players.png")
    assert seat.problems.real() == []
    context.close()


# -- 9. small slips --------------------------------------------------------------------------------


def test_9_the_lobby_counts_changed_options_while_typing(web_server: Server,
                                                         browser: Any) -> None:
    context, page = new_page(browser)
    page.goto(web_server.url + "/")
    page.wait_for_function("() => document.querySelector('#preset-help').textContent.length > 0")
    page.click("#options-details summary")
    assert page.inner_text("#changed-count") == "none changed"
    page.click("#opt-target_score", click_count=3)
    page.keyboard.type("250")
    page.wait_for_function(
        "() => document.querySelector('#changed-count').textContent === '1 changed'", timeout=2000)
    assert page.evaluate("document.activeElement.id") == "opt-target_score"
    context.close()


def test_9_lay_off_waits_for_a_meld_on_the_table(web_server: Server, browser: Any) -> None:
    context, page, seat = start(browser, web_server, seed=3,
                                wanted=lambda g: my_play(g) and not g.deal.melds)
    assert phase(page) == "play"
    assert page.query_selector("#melds .meld") is None, "no meld may be on the table here"
    seat.select([seat.hand()[0]])
    assert page.is_disabled("#actions button[data-action=layoff]")
    assert not page.is_disabled("#actions button[data-action=discard]")
    assert seat.problems.real() == []
    context.close()


def test_9_after_play_again_a_seat_is_kept_for_its_player(web_server: Server,
                                                          browser: Any) -> None:
    ann_context, ann_page = new_page(browser)
    bob_context, bob_page = new_page(browser)
    options: dict[str, Any] = {"max_deals": 1, "target_score": None}
    table = make_table(web_server, seats=["person", "person", "simple"], seed=3, options=options,
                       moves=opening(3, 3, deal_over(1), options=options, back=6))
    ann, bob = table.open(ann_page, 0), table.open(bob_page, 1)
    for page in (ann_page, bob_page):
        page.wait_for_selector("#game:not([hidden])")
    play_deal({0: ann, 1: bob})
    ann_page.wait_for_selector("#sheet-again button[data-action=again]")
    old = ann_page.url
    ann_page.click("#sheet-again button[data-action=again]")
    ann_page.wait_for_url(lambda url: url != old and "/t/" in url)
    ann_page.wait_for_selector("#waiting:not([hidden])")
    waiting = ann_page.inner_text("#waiting-seats")
    assert "kept for Bob" in waiting and "open" not in waiting, waiting

    stranger_context, stranger = new_page(browser)
    stranger.goto(ann_page.url)
    stranger.wait_for_selector("#join:not([hidden])")
    row = stranger.locator("#join-seats li").nth(1)
    assert "kept for Bob" in row.inner_text()
    assert row.locator("button").count() == 0  # not a seat a stranger may take
    assert ann.problems.real() == [] and bob.problems.real() == []
    for context in (ann_context, bob_context, stranger_context):
        context.close()


def test_9_a_spectator_is_not_offered_a_hand_to_skip_to(web_server: Server,
                                                        browser: Any) -> None:
    context, page = new_page(browser)
    link = create_in_lobby(page, web_server, name="Ann", seats=["person", "person"], seed=3)
    bob_context, bob_page = new_page(browser)
    join_by_link(bob_page, link, "Bob")
    watch_context, watch = new_page(browser)
    watch.goto(link)
    watch.click("#watch-button")
    watch.wait_for_selector("#game:not([hidden])")
    watch.wait_for_selector("#players .player")
    skips = watch.eval_on_selector_all(
        "a.skip", "els => els.filter((a) => !a.hidden).map((a) => [a.textContent, a.hash])")
    assert all("hand" not in text and target != "#hand" for text, target in skips), skips
    page.wait_for_selector("#players .player")
    assert page.eval_on_selector("a.skip", "a => [a.hidden, a.hash]") == [False, "#hand"]
    for each in (context, bob_context, watch_context):
        each.close()


def test_9_a_hint_writes_a_declared_joker_as_the_log_does(web_server: Server,
                                                          browser: Any) -> None:
    context, page, seat = start(browser, web_server, preset="wild", seed=3, wanted=my_play)
    assert phase(page) == "play"
    answer = {"seq": seat.seq(), "move": "meld 5c 6c *=7c", "reason": "three in a row"}
    page.route("**/hint", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(answer)))
    page.wait_for_selector("#actions button[data-action=hint]:enabled")  # the turn is shown
    page.keyboard.press("i")
    page.wait_for_selector("#message .hint button")
    hint = page.inner_text("#message .hint")
    assert "meld 5♣ 6♣ joker(7♣)" in hint and "joker as" not in hint, hint
    assert seat.problems.real() == []
    context.close()
