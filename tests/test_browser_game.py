"""Two people in two browsers and a computer player at one table, started from the lobby and
joined by its link: a refused move that changes nothing, a reload in the middle of a turn and
a hint played in the first turns; then, at tables made later in a deal (browserkit.opening), a
deep take from the pile, a lay-off on the other person's meld, and the score sheet at the end
of the deal on both screens."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from browserkit import (
    Seat,
    Server,
    choose_move,
    create_in_lobby,
    deal_over,
    join_by_link,
    make_table,
    new_page,
    opening,
    person_to_move,
    play_deal,
)
from rummy500.cards import face_of, face_str
from rummy500.game import Game
from rummy500.position import DRAW_PHASE, PLAY_PHASE


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

    # The first turns: a refused move, a reload in the middle of Bob's turn, Ann's hint.
    done = {"refused": False, "reloaded": False, "hinted": False}

    def first_turns(number: int, seat: Seat) -> bool:
        phase = seat.page.evaluate("document.body.dataset.phase")
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
        seat.play(choose_move(seat, number))
        return True

    play_turns({0: ann, 1: bob}, first_turns, lambda: all(done.values()))
    for context in (ann_context, bob_context):
        context.close()

    # Later in a deal, at tables made there: a deep take, a lay-off on the other person's
    # meld, and the deal's end.
    me, seat = mover_at(web_server, browser, lambda g: g.deal.phase == DRAW_PHASE
                        and deep_take(g) is not None)
    pile, hand = seat.pile(), seat.hand()
    move = choose_move(seat, me)
    assert move.startswith("take ") and move.split()[1] != pile[-1], move
    seat.play(move)
    taken = len(pile) - pile.index(move.split()[1])
    assert len(seat.hand()) == len(hand) + taken
    assert len(seat.pile()) == len(pile) - taken
    assert seat.log()[-1].startswith("You take") and "above it" in seat.log()[-1]
    close(seat)

    me, seat = mover_at(web_server, browser, lambda g: g.deal.phase == PLAY_PHASE
                        and bool(layoffs_on_other(g)))
    other_person = 1 - me
    theirs = {m for m, seats in seat.meld_seats().items() if other_person in seats}
    move = next(m for m in seat.legal() if m.startswith("layoff ") and "*" not in m
                and m.split()[2] in theirs)
    seat.play(move)
    meld = move.split()[2]
    assert {me, other_person} <= seat.meld_seats()[meld]
    assert seat.log()[-1].startswith(f"You lay off {pretty(move.split()[1])} on {meld}")
    close(seat)

    ann, bob = at_table(web_server, browser, deal_over(1), back=3)  # Bob goes out
    ann_page, bob_page = ann.page, bob.page
    play_deal({0: ann, 1: bob})
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
        assert [number(rows[-2][2]) for rows in sides] == [number(t) for t in panel]
        page.click("#sheet-close")
        assert not page.evaluate("document.querySelector('#sheet').open")
        if page is ann_page:  # Bob still reads: the finished deal stays on Ann's table
            assert page.is_visible("#dealend") and "Deal 1 is over" in page.inner_text("#status")
    for page in (ann_page, bob_page):  # both have closed the sheet: the next deal
        page.wait_for_function("() => /Deal 2/.test(document.querySelector('#status').textContent)")
        assert page.is_hidden("#dealend")
    close(ann, bob)


SEATS = ["person", "person", "expert"]


def at_table(server: Server, browser: Any, wanted: Callable[[Game], bool],
             back: int = 0) -> tuple[Seat, Seat]:
    """Ann's and Bob's pages at a table like the lobby's (seed 4) made where ``wanted``
    first holds, less ``back`` moves."""
    table = make_table(server, seats=SEATS, seed=4, moves=opening(4, 3, wanted, back=back))
    seats = []
    for number in (0, 1):
        _, page = new_page(browser)
        seats.append(table.open(page, number))
        page.wait_for_selector("#game:not([hidden])")
    return seats[0], seats[1]


def mover_at(server: Server, browser: Any, wanted: Callable[[Game], bool]) -> tuple[int, Seat]:
    """The page of the person to move at a table like the lobby's (seed 4) made where
    ``wanted`` first holds with Ann or Bob to move, once it shows their turn."""
    found, movers = person_to_move(wanted)
    table = make_table(server, seats=SEATS, seed=4, moves=opening(4, 3, found))
    _, page = new_page(browser)
    seat = table.open(page, movers[0])
    page.wait_for_function("() => document.querySelector('#status.yours') !== null")
    return movers[0], seat


def close(*seats: Seat) -> None:
    for seat in seats:
        assert seat.problems.real() == []
        seat.page.context.close()


def play_turns(seats: dict[int, Seat], on_turn: Callable[[int, Seat], bool],
               done: Callable[[], bool]) -> None:
    """Play the people's turns by ``on_turn`` until ``done()``."""
    deadline = time.monotonic() + 120
    while not done():
        assert time.monotonic() < deadline, "the first turns never came to an end"
        for number, seat in seats.items():
            if seat.my_turn():
                on_turn(number, seat)
                break
        else:
            time.sleep(0.1)


def deep_take(game: Game) -> str | None:
    """A take of a card below the pile's top, when one is legal."""
    top = face_str(face_of(game.deal.pile[-1])) if game.deal.pile else None
    return next((str(m) for m in game.legal_moves() if str(m).startswith("take ")
                 and str(m).split()[1].removesuffix("/2") != top), None)


def layoffs_on_other(game: Game) -> list[str]:
    """The lay-offs (no joker) the mover may make on a meld of the other person's cards."""
    other = 1 - game.turn
    theirs = {meld.name for meld in game.deal.melds if any(c.seat == other for c in meld.cards)}
    return [str(m) for m in game.legal_moves() if str(m).startswith("layoff ")
            and "*" not in str(m) and str(m).split()[2] in theirs]


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
