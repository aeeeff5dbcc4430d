"""Issue 32, features 1 and 6, in Chromium: the end of a deal stays on the table (its melds as
they lay, every hand face up with its points) until the sheet is closed and everyone has
continued, a reload during the pause included; then the next deal. From five players the
sheet is a grid that fits a desktop screen; nothing scrolls sideways; axe finds nothing
serious; no console error. Screenshots go to /tmp/dealend-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browserkit import (
    DESKTOP,
    PHONE,
    Server,
    make_table,
    new_page,
    play_deal,
    serious,
    sheet_open,
)
from positionkit import at_last_turn

DEAL_END = """() => {
    // What the finished deal on the table shows, seat by seat.
    const box = document.querySelector('#dealend');
    if (!box || box.hidden) return null;
    const seats = [...box.querySelectorAll('.dealend-seat')].map((li) => ({
        seat: Number(li.dataset.seat),
        cards: [...li.querySelectorAll('.card')].map((c) => c.dataset.card),
        inHand: li.querySelector('.in-hand').textContent,
        onTable: li.querySelector('.on-table').textContent,
        shown: li.getBoundingClientRect().height > 0 }));
    return { heading: box.querySelector('h2').textContent,
             melds: box.querySelectorAll('.meld').length,
             seats, board: Boolean(document.querySelector('#play .board')?.offsetParent),
             hand: Boolean(document.querySelector('#mine')?.offsetParent) };
}"""

WIDE = "() => document.documentElement.scrollWidth"

WRAPPED_SCORES = """() => [...document.querySelectorAll('#scores table.scores td')].filter((td) => {
    // A cell whose text lies on more than one line.
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size > 1;
}).map((td) => td.textContent)"""

SEEDS = {2: 22, 4: 28, 8: 22}
"""For each number of players, a seed whose first deal, started at Ann's last turn
(:func:`positionkit.at_last_turn`: 62, 84 and 92 moves in), ends 5, 3 and 6 moves later as
the page's Ann and ``simple`` play it (found by playing the seeds offline)."""


def in_hand_points(sheet_text: str, names: list[str]) -> dict[str, str]:
    """Each seat's points in hand as its sheet's lines write them (``Ann: in hand −15``)."""
    found: dict[str, str] = {}
    for name in names:
        match = re.search(rf"{re.escape(name)}: in hand\s+([−+]?\d+)", sheet_text)
        if match:
            found[name] = match[1]
    return found


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_finished_deal_stays_on_the_table_until_continued(
        web_server: Server, browser: Any, size: dict[str, int], players: int) -> None:
    touch = size == PHONE
    context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
    seed = SEEDS[players]
    table = make_table(web_server, seats=["person"] + ["simple"] * (players - 1), seed=seed,
                       moves=at_last_turn(seed, players))
    seat = table.open(page, 0, tap=touch)
    page.wait_for_selector("#game:not([hidden])")
    name = f"{players}-{'phone' if touch else 'desktop'}"

    play_deal({0: seat})
    page.wait_for_selector("#sheet[open] #sheet-close")
    page.wait_for_timeout(300)
    shown = page.evaluate(DEAL_END)
    assert shown is not None, "the finished deal is not on the table under its sheet"
    assert shown["heading"].startswith("Deal 1 is over: ")
    assert [s["seat"] for s in shown["seats"]] == list(range(players))
    assert not shown["board"] and not shown["hand"], "the next deal shows beside the finished one"
    assert shown["melds"] > 0
    if "went out" in shown["heading"]:  # (a deal may end with the stock)
        assert [s for s in shown["seats"] if not s["cards"]], "who went out holds no card"
    sheet_text = page.inner_text("#sheet")
    if players >= 5:  # a grid: a column for each side, and the whole fits a desktop screen
        columns = page.eval_on_selector_all("#sheet table.sheet.grid thead th",
                                            "cells => cells.length")
        assert columns == players
        assert not page.query_selector("#sheet table.sheet.lines")
        if not touch:
            fit = page.evaluate("""() => { const d = document.querySelector('#sheet');
                return [d.scrollHeight, d.clientHeight]; }""")
            assert fit[0] <= fit[1], f"{players} players: the sheet is taller than the screen {fit}"
    else:
        names = page.eval_on_selector_all(
            "#sheet tbody.sheet-side tr.in_hand th", "cells => cells.map(c => c.textContent)")
        points = in_hand_points(sheet_text, [n.split(":")[0] for n in names])
        on_table = {s["seat"]: s["inHand"].split()[0] for s in shown["seats"]}
        assert sorted(points.values()) == sorted(on_table.values())
    assert page.evaluate(WIDE) <= size["width"]
    assert serious(page) == []
    page.screenshot(path=f"/tmp/dealend-{name}-sheet.png")

    # A reload during the pause: no sheet again, the finished deal and the Continue button.
    page.reload()
    page.wait_for_selector("#dealend:not([hidden]) .dealend-seat")
    page.wait_for_selector("#continue-button")
    assert not sheet_open(page)
    again = page.evaluate(DEAL_END)
    assert again["seats"] == shown["seats"] and again["melds"] == shown["melds"]
    assert "over" in page.inner_text("#status")
    assert page.evaluate(WIDE) <= size["width"]
    assert serious(page) == []
    if players <= 4:
        assert page.evaluate(WRAPPED_SCORES) == [], "a score wraps in the score table"
    page.screenshot(path=f"/tmp/dealend-{name}-table.png", full_page=touch)
    # The score panel's points on the table are the finished deal's, not the next deal's 0s.
    laid = ", ".join(s["onTable"].split()[0] for s in again["seats"])
    scores_line = page.inner_text("#scores p.small")
    assert scores_line.startswith("On the table in deal 1: "), scores_line
    assert [part.rsplit(" ", 1)[-1] for part in scores_line[:-1].split(": ", 1)[1].split(", ")] \
        == laid.split(", ")

    seat.press("#continue-button")  # everyone has continued: the next deal
    page.wait_for_selector("#dealend", state="hidden")
    page.wait_for_function("() => /Deal 2/.test(document.querySelector('#status').textContent)")
    page.wait_for_selector("#hand .card")
    assert page.inner_text("#scores p.small").startswith("On the table this deal: ")
    assert seat.problems.real() == []
    context.close()
