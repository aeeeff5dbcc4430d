"""Issue 32 feature 2, a table and not a row: the seats around the table at 2 to 8 players on
a desktop and a touch phone, measured in Chromium by their boxes. The viewer's panel is at the
foot, the seat opposite (a partner) at the top, the others up the left side and down the right;
each seat's melds lie in its own area; no name is cut, tags are 12 px and more; nothing goes
sideways; axe finds nothing serious; the card size setting makes the cards larger."""

from __future__ import annotations

import time
from typing import Any

import pytest

from browserkit import (
    DESKTOP,
    MOTION,
    PHONE,
    Seat,
    Server,
    choose_move,
    create_in_lobby,
    make_table,
    new_page,
    serious,
    sheet_open,
)
from positionkit import after_rounds

GEOMETRY = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                 cx: r.left + r.width / 2, cy: r.top + r.height / 2 }; };
    const panels = [...document.querySelectorAll('#players .player')].map((p) => ({
        seat: Number(p.dataset.seat), at: p.dataset.at, me: p.classList.contains('me'),
        partner: p.classList.contains('partner'), ...box(p),
        name: p.querySelector('.player-name').textContent,
        nameCut: (() => { const n = p.querySelector('.player-name');
            return n.scrollWidth > n.clientWidth + 1 || n.getClientRects().length === 0; })(),
        tags: [...p.querySelectorAll('.tag')].filter((t) => t.getClientRects().length)
            .map((t) => parseFloat(getComputedStyle(t).fontSize)) }));
    const melds = [...document.querySelectorAll('#melds .seat-melds')].map((g) => ({
        seat: Number(g.dataset.seat), ...box(g),
        pieces: [...g.querySelectorAll('.meld, .meld-layoff')].map((m) => box(m)) }));
    return { panels, melds, board: box(document.querySelector('#play > .board')),
             piles: box(document.querySelector('.piles')),
             hand: box(document.querySelector('#mine')),
             scrollWidth: document.documentElement.scrollWidth, width: innerWidth };
}"""


def play_turns(seat: Seat, turns: int, seconds: float = 120) -> None:
    """Play ``turns`` of this seat's turns (the plain choice), then wait for its next turn."""
    deadline = time.monotonic() + seconds
    made = 0
    while time.monotonic() < deadline:
        if sheet_open(seat.page):
            seat.page.click("#sheet-close")
            continue
        if seat.my_turn():
            if made >= turns:
                break
            seat.play(choose_move(seat, 0))
            made += 1
        else:
            time.sleep(0.05)
    seat.page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running')")


def table(browser: Any, server: Server, size: dict[str, int], players: int,
          motion: bool = False, **create: Any) -> tuple[Any, Any, Seat]:
    touch = size == PHONE
    context, page = new_page(browser, size, is_mobile=touch, has_touch=touch,
                             **(MOTION if motion else {}))
    seat = Seat(page, tap=touch)
    # ``simple`` answers at once and melds whatever it can: the seats' melds come soon.
    create_in_lobby(page, server, name="Ann", seats=["person"] + ["simple"] * (players - 1),
                    **create)
    page.wait_for_selector("#game:not([hidden])")
    return context, page, seat


def table_at(browser: Any, server: Server, size: dict[str, int], players: int,
             seed: int) -> tuple[Any, Any, Seat]:
    """Ann's page at a table made three rounds into its deal (:func:`positionkit.after_rounds`),
    at her turn: seats with melds and fewer cards, without a page playing to there."""
    touch = size == PHONE
    context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
    made = make_table(server, seats=["person"] + ["simple"] * (players - 1), seed=seed,
                      moves=after_rounds(seed, players, 3))
    seat = made.open(page, 0, tap=touch)
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    return context, page, seat


def check_places(shape: dict[str, Any], players: int, wide: bool) -> None:
    """The viewer at the foot, the top seats above the sides, left seats left of right ones,
    each seat's melds in its own area, names whole, tags readable, nothing sideways."""
    assert shape["scrollWidth"] <= shape["width"], shape["scrollWidth"]
    panels = {p["seat"]: p for p in shape["panels"]}
    assert len(panels) == players
    me = next(p for p in shape["panels"] if p["me"])
    assert me["at"] == "me" and me["seat"] == 0
    by_side: dict[str, list[dict[str, Any]]] = {}
    for panel in shape["panels"]:
        by_side.setdefault(panel["at"], []).append(panel)
        assert not panel["nameCut"], panel["name"]
        assert all(size >= 12 for size in panel["tags"]), (panel["name"], panel["tags"])
        assert panel["left"] >= -0.5 and panel["right"] <= shape["width"] + 0.5, panel
    expected = {2: (0, 1), 3: (1, 0), 4: (1, 1), 6: (2, 1), 8: (2, 3)}[players]
    assert len(by_side.get("left", [])) == expected[0] == len(by_side.get("right", []))
    assert len(by_side.get("top", [])) == expected[1]
    for panel in shape["panels"]:
        if panel["at"] != "me":
            assert panel["bottom"] <= me["top"] + 0.5, ("above the viewer", panel)
    for left in by_side.get("left", []):
        for right in by_side.get("right", []):
            assert left["right"] <= right["left"], ("left of right", left, right)
    for top in by_side.get("top", []):
        for side in by_side.get("left", []) + by_side.get("right", []):
            assert top["bottom"] <= side["top"] + 0.5, ("the top above the sides", top, side)
    if wide:
        # The stock and the pile between the sides, below the top.
        for left in by_side.get("left", []):
            assert left["right"] <= shape["piles"]["left"] + 0.5
        for right in by_side.get("right", []):
            assert right["left"] >= shape["piles"]["right"] - 0.5
    # Seat numbers go round: the seat after the viewer at the foot of the left side, the
    # one before the viewer at the foot of the right.
    if by_side.get("left"):
        assert max(by_side["left"], key=lambda p: p["top"])["seat"] == 1
        assert max(by_side["right"], key=lambda p: p["top"])["seat"] == players - 1
    for group in shape["melds"]:
        panel = panels[group["seat"]]
        if panel["at"] in ("left", "right"):
            # In the panel's column, below it.
            assert group["left"] >= panel["left"] - 1 and group["right"] <= panel["right"] + 1, \
                (group, panel)
        if panel["at"] != "me":
            assert group["top"] >= panel["bottom"] - 0.5, (group, panel)
        assert group["bottom"] <= shape["hand"]["top"] + 0.5, ("the melds above the hand", group)
        for piece in group["pieces"]:
            assert piece["left"] >= group["left"] - 1 and piece["right"] <= group["right"] + 1


@pytest.mark.parametrize("players", [2, 4, 8])
def test_seats_around_the_table_on_a_desktop_and_a_phone(web_server: Server, browser: Any,
                                                         players: int) -> None:
    for size in (DESKTOP, PHONE):
        context, page, seat = table_at(browser, web_server, size, players, seed=4)
        check_places(page.evaluate(GEOMETRY), players, size == DESKTOP)
        assert serious(page) == []
        assert seat.problems.real() == []
        context.close()


def test_the_partner_sits_opposite(web_server: Server, browser: Any) -> None:
    context, page, seat = table(browser, web_server, DESKTOP, 4, preset="partnership", seed=2)
    shape = page.evaluate(GEOMETRY)
    partner = next(p for p in shape["panels"] if p["partner"])
    me = next(p for p in shape["panels"] if p["me"])
    assert partner["at"] == "top" and partner["seat"] == 2
    assert abs(partner["cx"] - shape["board"]["cx"]) < 40, (partner, shape["board"])
    assert partner["bottom"] < shape["piles"]["top"] < me["top"]
    assert seat.problems.real() == []
    context.close()


@pytest.mark.parametrize("players", [3, 6])
def test_no_sideways_scroll_at_three_and_six(web_server: Server, browser: Any,
                                            players: int) -> None:
    for size in (DESKTOP, PHONE):
        context, page, _seat = table_at(browser, web_server, size, players, seed=6)
        check_places(page.evaluate(GEOMETRY), players, size == DESKTOP)
        context.close()


def test_each_meld_lies_before_the_seat_that_laid_it(web_server: Server, browser: Any) -> None:
    context, page, seat = table(browser, web_server, DESKTOP, 4, seed=3)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and page.evaluate(
            "document.querySelectorAll('#melds .meld, #melds .meld-layoff').length") < 3:
        play_turns(seat, 1)
    laid = page.evaluate("""() => [...document.querySelectorAll('#melds .seat-melds')].map((g) => {
        const by = (s) => [...g.querySelectorAll(s)].map((c) => Number(c.dataset.by));
        return { seat: Number(g.dataset.seat), own: by('.meld .meld-card:not(.elsewhere)'),
                 layoffs: by('.meld-layoff .meld-card') }; })""")
    assert laid, "no meld was laid"
    for group in laid:
        assert set(group["own"] + group["layoffs"]) == {group["seat"]}, group
    # Every card of the table is in front of the seat that laid it, once.
    cards = page.evaluate("document.querySelectorAll('#melds .card[data-card]').length")
    assert cards == sum(len(g["own"]) + len(g["layoffs"]) for g in laid)
    assert serious(page) == []  # the melds as lists, between turns
    # The viewer's turn to meld and lay off: every seat's melds one toolbar, and axe content.
    seat.play(choose_move(seat, 0))
    page.wait_for_selector("#melds [role=toolbar] button.meld")
    assert serious(page) == []
    page.keyboard.press("g")
    page.keyboard.press("End")
    assert page.evaluate("""() => {
        const melds = [...document.querySelectorAll('#melds button.meld')];
        return melds.indexOf(document.activeElement) === melds.length - 1; }""")
    assert seat.problems.real() == []
    context.close()


WATCH_MELD_FLIGHTS = """() => {
    // Each card flight to the table's melds, as it starts: where it starts (the card where it
    // lands, read with its animation at rest, moved by the flight's first translation: its
    // transform grows from the top left corner) and the panel of the seat that laid the card.
    window.meldFlights = [];
    const seen = new WeakSet();
    const tick = () => {
        for (const a of document.getAnimations()) {
            const card = a.effect && a.effect.target;
            if (!card || seen.has(a) || !card.matches('#melds .card[data-card]')) continue;
            seen.add(a);
            const move = /translate\\(([-\\d.e]+)px, ([-\\d.e]+)px\\)/.exec(
                a.effect.getKeyframes()[0].transform || '');
            if (!move) continue;
            const by = card.closest('.meld-card').dataset.by;
            const panel = document.querySelector(`#players .player[data-seat="${by}"]`);
            const p = panel.getBoundingClientRect();
            const now = a.currentTime;
            a.currentTime = a.effect.getComputedTiming().endTime;  // at rest: where it lands
            const r = card.getBoundingClientRect();
            a.currentTime = now;
            window.meldFlights.push({ by: Number(by), fromLeft: r.left + Number(move[1]),
                fromTop: r.top + Number(move[2]), panelLeft: p.left, panelTop: p.top });
        }
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
}"""


def test_cards_fly_to_the_melds_from_the_seat_that_laid_them(web_server: Server,
                                                            browser: Any) -> None:
    context, page, seat = table(browser, web_server, DESKTOP, 4, motion=True, seed=3)
    page.evaluate(WATCH_MELD_FLIGHTS)
    from_panel: list[dict[str, Any]] = []
    deadline = time.monotonic() + 180
    while not from_panel and time.monotonic() < deadline:
        play_turns(seat, 1)
        flights = page.evaluate("window.meldFlights")
        from_panel = [f for f in flights if f["by"] != 0
                      and abs(f["fromLeft"] - f["panelLeft"]) < 2
                      and abs(f["fromTop"] - f["panelTop"]) < 2]
    assert from_panel, "no card flew to the melds from the panel of the seat that laid it"
    assert seat.problems.real() == []
    context.close()


def test_the_card_size_setting_makes_the_cards_larger(web_server: Server, browser: Any) -> None:
    context, page, seat = table(browser, web_server, DESKTOP, 2, seed=4)
    width = "() => document.querySelector('#hand .card').getBoundingClientRect().width"
    normal = page.evaluate(width)
    page.click("#settings-button")
    page.select_option("#setting-cardSize", "large")
    page.keyboard.press("Escape")
    assert page.evaluate(width) > normal * 1.1
    page.reload()
    page.wait_for_selector("#game:not([hidden]) #hand .card")
    assert page.evaluate(width) > normal * 1.1, "the setting is kept"
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    assert seat.problems.real() == []
    context.close()
