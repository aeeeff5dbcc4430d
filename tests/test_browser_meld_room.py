"""Every seat's melds fully readable however many lie on the table (js/table/meldroom.js): Ann's
page at tables made at positions with 12 to 14 melds on the table, 2 to 8 players, on a
desktop and a phone, measured in Chromium by the cards' boxes. Every meld card lies wholly
inside its seat's melds box or wholly scrolled out of it, never cut; a seat whose melds scroll
says so under them, and scrolls by whole rows from the keyboard, which finds the melds it
lays off on; each card shows its corner (rank and suit) beside the next; the hand, the turn's
buttons, the stock, the pile and every seat's panel stay in view."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from browserkit import (
    DESKTOP,
    PHONE,
    Seat,
    Server,
    choose_move,
    make_table,
    new_page,
    opening,
    serious,
    sheet_open,
)
from rummy500.game import Game
from rummy500.kinds import Phase

# Players: the table's seed and the melds on the table where Ann's page opens, at her turn.
CROWDED = {2: (5, 12), 3: (7, 12), 4: (10, 12), 5: (1, 14), 6: (6, 14), 7: (5, 14), 8: (2, 14)}

GEOMETRY = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
    const shown = (el) => el.getClientRects().length > 0;
    const groups = [...document.querySelectorAll('#melds .seat-melds')].map((g) => {
        const r = g.getBoundingClientRect();
        const cue = document.querySelector(`#melds .meld-more[data-for="${g.dataset.seat}"]`);
        return {
            seat: g.dataset.seat, fit: g.dataset.fit || '0',
            // The scrollport: what the box shows of its melds.
            view: { left: r.left + g.clientLeft, top: r.top + g.clientTop,
                    right: r.left + g.clientLeft + g.clientWidth,
                    bottom: r.top + g.clientTop + g.clientHeight },
            scrolls: g.scrollHeight > g.clientHeight + 1,
            cue: cue && shown(cue) ? { text: cue.textContent, ...box(cue) } : null,
            cards: [...g.querySelectorAll('.card-meld')].filter(shown).map((c) => ({
                face: c.dataset.card || 'ghost', ...box(c) })),
            // Each meld's fan, card by card: the corner must show beside the next card.
            fans: [...g.querySelectorAll('.meld-cards')].map((fan) =>
                [...fan.querySelectorAll(':scope > .meld-card')].filter(shown).map((m) => {
                    const card = m.querySelector('.card');
                    const corner = card.querySelector('.corner');
                    const font = corner ? parseFloat(getComputedStyle(corner).fontSize) : null;
                    return { face: card.dataset.card || null, ...box(card), cornerFont: font,
                             cornerRight: corner ? corner.getBoundingClientRect().right : null };
                })) };
    });
    const all = (selector) => [...document.querySelectorAll(selector)].filter(shown).map(box);
    const board = document.querySelector('#play > .board');
    return { groups, hand: all('#hand .card'), buttons: all('#actions button'),
             panels: all('#players .player'), piles: all('#stock .card, #pile .card'),
             board: { scrolls: board.scrollHeight > board.clientHeight + 1 },
             page: { scrollTop: document.scrollingElement.scrollTop,
                     scrollHeight: document.scrollingElement.scrollHeight,
                     width: document.documentElement.scrollWidth },
             width: innerWidth, height: innerHeight };
}"""


def crowded_table(server: Server, players: int) -> Any:
    seed, melds = CROWDED[players]

    def wanted(game: Game) -> bool:
        return (game.turn == 0 and game.deal.phase == Phase.DRAW
                and len(game.deal.melds) >= melds)

    return make_table(server, seats=["person"] + ["simple"] * (players - 1), seed=seed,
                      moves=opening(seed, players, wanted, limit=400))


def open_page(browser: Any, table: Any, size: dict[str, int]) -> tuple[Any, Any, Seat]:
    touch = size == PHONE
    context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
    seat = table.open(page, 0, tap=touch)
    page.wait_for_selector("#game:not([hidden]) #hand .card")
    page.wait_for_selector("#actions button")
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    return context, page, seat


def inside(rect: dict[str, float], box: dict[str, float]) -> bool:
    return (rect["left"] >= box["left"] - 1 and rect["right"] <= box["right"] + 1
            and rect["top"] >= box["top"] - 1 and rect["bottom"] <= box["bottom"] + 1)


def scrolled_out(rect: dict[str, float], box: dict[str, float]) -> bool:
    return rect["bottom"] <= box["top"] + 1 or rect["top"] >= box["bottom"] - 1


def check_melds(shape: dict[str, Any], where: str) -> None:
    """No meld card cut by its seat's box; the cards out of view said under the box; each
    card's corner readable beside the next."""
    for group in shape["groups"]:
        hidden = 0
        for card in group["cards"]:
            assert inside(card, group["view"]) or scrolled_out(card, group["view"]), \
                (where, "a card cut by its seat's box", group["seat"], card, group["view"])
            hidden += not inside(card, group["view"])
        if hidden:
            cue = group["cue"]
            assert group["scrolls"] and cue is not None, (where, "no mark of more", group)
            assert "more" in cue["text"] or "above" in cue["text"], (where, cue)
            # Under the box, not over its cards, and on the screen.
            assert cue["top"] >= group["view"]["bottom"] - 1, (where, cue, group["view"])
            assert cue["top"] >= 0 and cue["bottom"] <= shape["height"], (where, cue)
            # The last resort: the most compact cards did not fit either.
            assert group["fit"] == "3", (where, group["seat"], group["fit"])
        for fan in group["fans"]:
            for card, following in itertools.pairwise(fan):
                if card["face"] is None or abs(card["top"] - following["top"]) > 1:
                    continue
                assert card["cornerFont"] >= 9.5, (where, card)
                assert card["cornerRight"] <= following["left"] + 1, \
                    (where, "a card's corner under the next", group["seat"], card, following)


def check_in_view(shape: dict[str, Any], where: str, desktop: bool) -> None:
    """The hand, the buttons, the stock and pile and the panels on the screen (a desktop: at
    once, nothing scrolled; a phone: on the page, its width)."""
    assert shape["page"]["width"] <= shape["width"], (where, shape["page"])
    assert shape["hand"] and shape["buttons"], where
    for rect in shape["hand"] + shape["buttons"] + shape["panels"] + shape["piles"]:
        assert rect["left"] >= -0.5 and rect["right"] <= shape["width"] + 0.5, (where, rect)
        if desktop:
            assert rect["top"] >= -0.5 and rect["bottom"] <= shape["height"] + 0.5, (where, rect)
    if desktop:
        assert shape["page"]["scrollTop"] == 0 and not shape["board"]["scrolls"], (where, shape)


def scroll_settled(page: Any, seat: str) -> float:
    """The scroll position of ``seat``'s melds once it stops moving."""
    read = f"document.querySelector('#melds .seat-melds[data-seat=\"{seat}\"]').scrollTop"
    last, deadline = -1.0, time.monotonic() + 5
    while time.monotonic() < deadline:
        now = page.evaluate(read)
        if now == last:
            return float(now)
        last = now
        page.wait_for_timeout(150)
    raise AssertionError("the melds never stopped scrolling")


def check_rows_by_keyboard(page: Any, shape: dict[str, Any], where: str) -> None:
    """A seat's melds that scroll take the focus and scroll by whole rows from the keyboard,
    and the mark under them shows the next row when clicked."""
    group = next(g for g in shape["groups"] if g["scrolls"])
    selector = f"#melds .seat-melds[data-seat=\"{group['seat']}\"]"
    page.focus(selector)
    page.keyboard.press("ArrowDown")
    assert scroll_settled(page, group["seat"]) > 0, (where, "the keyboard did not scroll")
    check_melds(page.evaluate(GEOMETRY), f"{where}, scrolled a row")
    page.keyboard.press("End")
    scroll_settled(page, group["seat"])
    check_melds(page.evaluate(GEOMETRY), f"{where}, scrolled to the end")
    page.evaluate(f"document.querySelector('{selector}').scrollTop = 0")
    scroll_settled(page, group["seat"])
    page.click(f"#melds .meld-more[data-for=\"{group['seat']}\"]")
    assert scroll_settled(page, group["seat"]) > 0, (where, "the mark did not scroll")
    check_melds(page.evaluate(GEOMETRY), f"{where}, the mark clicked")


def check_melds_as_buttons(page: Any, seat: Seat, where: str) -> None:
    """Ann draws: the melds are buttons to lay off on, still whole; the keyboard's last meld
    (G, then End), wherever its seat's melds had scrolled, is shown whole when focused."""
    seat.play("draw")
    page.wait_for_selector("#melds [role=toolbar] button.meld")
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    check_melds(page.evaluate(GEOMETRY), f"{where}, melds as buttons")
    page.keyboard.press("g")
    page.keyboard.press("End")
    focused = page.evaluate("""() => { const el = document.activeElement;
        const melds = [...document.querySelectorAll('#melds button.meld')];
        return melds.indexOf(el) === melds.length - 1
            ? el.closest('.seat-melds').dataset.seat : null; }""")
    assert focused is not None, (where, "End did not reach the last meld")
    scroll_settled(page, focused)
    whole = page.evaluate("""() => { const el = document.activeElement;
        const g = el.closest('.seat-melds'); const r = el.getBoundingClientRect();
        const b = g.getBoundingClientRect();
        const top = b.top + g.clientTop;
        return r.top >= top - 1 && r.bottom <= top + g.clientHeight + 1; }""")
    assert whole, (where, "the focused meld is not shown whole")
    page.screenshot(path=f"/tmp/shots/meld-room-{where.split()[0]}-1280-playing.png")
    check_melds(page.evaluate(GEOMETRY), f"{where}, the last meld focused")


@pytest.mark.parametrize("players", sorted(CROWDED))
def test_every_meld_card_is_whole_and_the_hand_in_view(web_server: Server, browser: Any,
                                                        players: int) -> None:
    table = crowded_table(web_server, players)
    for size in (DESKTOP, PHONE):
        desktop = size == DESKTOP
        where = f"{players} players, {'desktop' if desktop else 'phone'}"
        context, page, seat = open_page(browser, table, size)
        shape = page.evaluate(GEOMETRY)
        assert sum(len(g["cards"]) for g in shape["groups"]) >= 30, where
        page.screenshot(path=f"/tmp/shots/meld-room-{players}-{size['width']}.png")
        check_melds(shape, where)
        check_in_view(shape, where, desktop)
        scrolling = [g["seat"] for g in shape["groups"] if g["scrolls"]]
        if not desktop or players <= 3:
            # Room enough: every seat's melds whole without a scroll (compacted where needed).
            assert scrolling == [], (where, scrolling)
        elif scrolling:
            check_rows_by_keyboard(page, shape, where)
        if desktop:
            check_melds_as_buttons(page, seat, where)
        assert serious(page) == []
        assert seat.problems.real() == []
        context.close()


def test_a_crowded_seat_is_drawn_compact_before_it_scrolls(web_server: Server,
                                                           browser: Any) -> None:
    """The two-player table of the defect: the viewer's melds need two rows of cards their
    share of the board cannot hold at full size; they are drawn compact, all in view, and the
    compact cards are still readable; a phone shows them at their size (the page scrolls)."""
    table = crowded_table(web_server, 2)
    context, page, _seat = open_page(browser, table, DESKTOP)
    levels = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#melds .seat-melds')].map((g) => [g.dataset.seat, g.dataset.fit || '0']))""")
    assert levels["0"] != "0", levels
    heights = page.evaluate("""() => [...document.querySelectorAll(
        '#melds .seat-melds[data-seat="0"] .card[data-card]')]
        .map((c) => c.getBoundingClientRect().height)""")
    assert min(heights) >= 26, heights
    context.close()


PIECES = """() => Object.fromEntries([...document.querySelectorAll('#melds .seat-melds')]
  .map((g) => {
    const top = g.getBoundingClientRect().top + g.clientTop;
    return [g.dataset.seat, { scrolls: g.scrollHeight > g.clientHeight + 1,
        pieces: [...g.children].map((p) => { const r = p.getBoundingClientRect();
            return { cards: p.querySelectorAll('.card').length,
                     shown: r.top >= top - 1 && r.bottom <= top + g.clientHeight + 1 }; }) }];
}))"""


def test_a_meld_laid_where_the_melds_scroll_is_shown(web_server: Server, browser: Any) -> None:
    """The computer players meld and lay off at five seats whose melds scroll: each time, the
    piece that changed is scrolled into sight (the cards fly to where they can be seen), and
    no card is cut."""
    context, page, seat = open_page(browser, crowded_table(web_server, 5), DESKTOP)
    seen = 0
    deadline = time.monotonic() + 120
    while not seen and time.monotonic() < deadline and not sheet_open(page):
        before = page.evaluate(PIECES)
        seat.play(choose_move(seat, 0))
        while not seat.my_turn() and not sheet_open(page) and time.monotonic() < deadline:
            time.sleep(0.1)
        page.wait_for_function(
            "() => document.getAnimations().every(a => a.playState !== 'running')")
        after = page.evaluate(PIECES)
        for at, group in after.items():
            was = before.get(at, {"pieces": []})["pieces"]
            changed = [piece for i, piece in enumerate(group["pieces"])
                       if i >= len(was) or was[i]["cards"] != piece["cards"]]
            if group["scrolls"] and changed:
                seen += 1
                assert all(piece["shown"] for piece in changed), (at, group)
        check_melds(page.evaluate(GEOMETRY), "5 players, after the others played")
    assert seen, "no meld was laid where the melds scroll"
    assert seat.problems.real() == []
    context.close()
