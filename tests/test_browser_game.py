"""Two people in two browsers and a computer player play a whole deal of 500 Rum at one table,
started from the lobby and joined by its link: a deep take from the pile, a lay-off on the
other person's meld, a refused move that changes nothing, a hint played, a reload in the
middle of a turn, and the score sheet at the end of the deal on both screens."""

from __future__ import annotations

import re
from typing import Any

from browserkit import Seat, Server, choose_move, create_in_lobby, join_by_link, new_page, play_deal


def test_two_people_and_a_computer_play_a_deal(web_server: Server, browser: Any) -> None:
    ann_context, ann_page = new_page(browser)
    bob_context, bob_page = new_page(browser)
    ann, bob = Seat(ann_page), Seat(bob_page)
    link = create_in_lobby(ann_page, web_server, name="Ann", seats=["person", "person", "expert"],
                           seed=4)
    assert re.fullmatch(re.escape(web_server.url) + r"/t/[A-Za-z0-9_-]{22,}", link)
    assert ann_page.is_visible("#waiting")
    join_by_link(bob_page, link, "Bob")
    for page in (ann_page, bob_page):
        page.wait_for_selector("#game:not([hidden])")
    assert "Bob" in ann_page.inner_text("#players") and "Expert" in ann_page.inner_text("#players")

    done: dict[str, Any] = {"deep": [], "layoff_other": [], "refused": False, "reloaded": False,
                            "hinted": False}

    def on_turn(number: int, seat: Seat) -> bool:
        page = seat.page
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "draw" and not done["refused"]:
            refuse(seat)
            done["refused"] = True
        if phase == "play" and number == 1 and not done["reloaded"]:
            reload_mid_turn(seat)
            done["reloaded"] = True
        if phase == "play" and number == 0 and not done["hinted"]:
            play_hint(seat)
            done["hinted"] = True
            return True
        move = choose_move(seat, number)
        hand = seat.hand()
        pile = seat.pile()
        other_person = 1 - number
        theirs = {m for m, seats in seat.meld_seats().items() if other_person in seats}
        seat.play(move)
        if move.startswith("take ") and move.split()[1] != pile[-1]:
            taken = len(pile) - pile.index(move.split()[1])
            assert len(seat.hand()) == len(hand) + taken
            assert len(seat.pile()) == len(pile) - taken
            assert seat.log()[-1].startswith("You take") and "above it" in seat.log()[-1]
            done["deep"].append(move)
        if move.startswith("layoff ") and move.split()[2] in theirs:
            meld = move.split()[2]
            assert {number, other_person} <= seat.meld_seats()[meld]
            assert seat.log()[-1].startswith(f"You lay off {pretty(move.split()[1])} on {meld}")
            done["layoff_other"].append(move)
        return True

    moves = play_deal({0: ann, 1: bob}, on_turn)
    assert moves > 10
    assert done["deep"], "nobody took from deep in the pile"
    assert done["layoff_other"], "neither person laid off on the other's meld"
    assert done["refused"] and done["reloaded"] and done["hinted"]

    for page in (ann_page, bob_page):
        page.wait_for_selector("#sheet[open]")
        assert "Deal 1 is over" in page.inner_text("#sheet h2")
        sides = page.eval_on_selector_all(
            "#sheet table.sheet tbody.sheet-side",
            "sides => sides.map(s => [...s.rows].map(r => [r.className, ...[...r.children]"
            ".map(c => c.textContent)]))")
        names = ["Ann", "You", "Expert"] if page is bob_page else ["You", "Bob", "Expert"]
        assert [rows[0] for rows in sides] == [["side-name", name] for name in names]
        panel = page.eval_on_selector_all("#scores tfoot td",
                                          "cells => cells.map(c => c.textContent)")
        assert [rows[-1] for rows in sides] == [["total", "Total", t] for t in panel]
        for rows in sides:  # each side's lines add up to its score for the deal
            lines = [number(row[2]) for row in rows[1:-2]]
            assert rows[-2][:2] == ["sum", "This deal"] and sum(lines) == number(rows[-2][2])
            assert rows[1][0] == "on_table" and rows[1][1].endswith(": on the table")
        assert [number(rows[-2][2]) for rows in sides] == [int(t) for t in panel]
        page.click("#sheet-close")
        assert not page.evaluate("document.querySelector('#sheet').open")
        if page is ann_page:  # Bob still reads: the finished deal stays on Ann's table
            assert page.is_visible("#dealend") and "Deal 1 is over" in page.inner_text("#status")
    for page in (ann_page, bob_page):  # both have closed the sheet: the next deal
        page.wait_for_function("() => /Deal 2/.test(document.querySelector('#status').textContent)")
        assert page.is_hidden("#dealend")
    for seat in (ann, bob):
        assert seat.problems.real() == []
    ann_context.close()
    bob_context.close()


def number(text: str) -> int:
    """A signed score as the page writes it (``+35``, ``−10``)."""
    return int(text.replace("−", "-").replace("+", ""))


def pretty(card: str) -> str:
    """A card as the page writes it: ``Tc`` is 10♣."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[card[1]]


def refuse(seat: Seat) -> None:
    """A move the engine refuses: the page says why and nothing changes."""
    page = seat.page
    before = (seat.seq(), seat.hand(), seat.pile())
    card = seat.hand()[0]
    page.fill("#move-input", f"discard {card}")
    page.press("#move-input", "Enter")
    page.wait_for_selector("#message .refusal")
    said = seat.message()
    assert said.startswith(f"Not played: discard {card}")
    assert "draw" in said  # the engine's reason: a turn starts with a draw
    assert (seat.seq(), seat.hand(), seat.pile()) == before
    dim = page.query_selector("#pile button.card.dim")
    if dim is not None:  # a pile card no meld can use: taking it is refused with the reason
        dim.click()
        page.wait_for_function("() => document.querySelector('#message').textContent"
                               ".startsWith('Not played: take')")
        assert (seat.seq(), seat.hand(), seat.pile()) == before


def reload_mid_turn(seat: Seat) -> None:
    """After the draw, a reload puts the person back in the same turn with the same hand,
    and the log says what it said before, word for word (the card drawn too)."""
    page = seat.page
    before = (seat.seq(), seat.hand(), seat.pile(), page.inner_text("#melds"))
    log = seat.log()
    assert any(line.startswith("You draw ") and "from the stock" in line
               and line != "You draw from the stock" for line in log) or any(
        line.startswith("You take ") for line in log)
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_function("s => Number(document.body.dataset.seq) === s", arg=before[0])
    page.wait_for_selector("#actions button[data-action=hint]:enabled")
    assert (seat.seq(), seat.hand(), seat.pile(), page.inner_text("#melds")) == before
    assert seat.log() == log
    assert page.evaluate("document.body.dataset.phase") == "play"
    assert "Your turn" in page.inner_text("#status")


def play_hint(seat: Seat) -> None:
    """The hint says the expert's move and why; playing it makes that move."""
    page = seat.page
    seq = seat.seq()
    page.click("#actions button[data-action=hint]")
    page.wait_for_selector("#message .hint")
    said = seat.message()
    assert said.startswith("Hint: ")
    assert len(said) > len("Hint: discard 7♥. ")  # a reason follows the move
    page.click("#message .hint button")
    seat.wait_change(seq)


def test_a_click_on_a_pile_card_names_its_copy(web_server: Server, browser: Any) -> None:
    """The pile card clicked is the card taken: the lower of two copies is `take 7h/2`."""
    context, page = new_page(browser)
    page.goto(web_server.url + "/")
    texts = page.evaluate(
        "import('/static/js/moves.js').then(m => [['7h', '2c', '7h', 'Kd'], ['*', '5s', '*']]"
        ".flatMap(pile => pile.map((_, i) => m.takeText(pile, i))))")
    assert texts == ["take 7h/2", "take 2c", "take 7h", "take Kd", "take *", "take 5s", "take *"]
    context.close()
