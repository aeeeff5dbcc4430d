"""The wild game in a browser: two people and a computer player, and the two things the
``wild`` preset adds to a turn, both played through the page's own controls: wild jokers, whose
card the page asks the person to declare among the engine's choices (in a meld, then laid off
on a meld), and the rummy-call window, where the claims the pile offers are buttons beside
*Pass*. Each is played at a table made where it can happen (:func:`browserkit.opening`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browserkit import Seat, Server, make_table, new_page, opening, person_to_move
from rummy500.game import Game
from rummy500.position import PLAY_PHASE, RUMMY_PHASE


def declared_jokers(seat: Seat) -> list[str]:
    """The wild jokers on the table, as the melds show them (``*=6h``)."""
    cards: list[str] = seat.page.eval_on_selector_all(
        "#melds .meld-card .card.joker", "els => els.map(e => e.dataset.card)")
    return cards


def meld_with_joker(seat: Seat, move: str) -> bool:
    """Select the meld's cards and press Meld: when the joker may stand for more than one card
    the page asks which, offering exactly the engine's legal melds of those cards; choosing one
    makes that meld. Says whether the page asked."""
    page = seat.page
    cards = move.split()[1:]
    same = sorted("*" if c.startswith("*") else c for c in cards)
    offered = [m for m in seat.legal() if m.startswith("meld ")
               and sorted("*" if c.startswith("*") else c for c in m.split()[1:]) == same]
    before = declared_jokers(seat)
    seq = seat.seq()
    seat.select(cards)
    seat.press("#actions button[data-action='meld']")
    if len(offered) > 1:
        chooser = page.locator("#chooser")
        chooser.wait_for(state="visible")
        assert "joker stands for" in chooser.inner_text()
        shown = chooser.locator("button[data-move]").evaluate_all(
            "els => els.map(e => e.dataset.move)")
        assert sorted(shown) == sorted(offered)
        labels = chooser.locator("button[data-move]").all_inner_texts()
        assert all(label.strip() for label in labels)
        chooser.locator(f"button[data-move='{move}']").click()
    seat.wait_change(seq)
    assert page.is_hidden("#chooser")
    declared = next(c for c in cards if c.startswith("*="))
    after = declared_jokers(seat)
    assert after.count(declared) == before.count(declared) + 1
    joker = page.locator(f"#melds .card.joker[data-card='{declared}']").first
    assert (joker.get_attribute("aria-label") or "").startswith("joker as ")
    star = joker.locator(".corner .star")  # told apart from a natural card, not by colour,
    assert star.is_visible() and star.inner_text() == "★"  # in the corner a fan shows
    assert seat.log()[-1].startswith("You meld")
    return len(offered) > 1


def claim_in_rummy_window(seat: Seat, other: Seat) -> str:
    """A rummy call is open for this seat: the page says so and shows each claim the engine
    lists as a button, with Pass; the other person sees who may call. Claims the first."""
    page = seat.page
    legal = seat.legal()
    claims = [m for m in legal if m.startswith("rummy ")]
    assert claims and "pass" in legal
    assert "Rummy!" in page.inner_text("#status")
    buttons = page.eval_on_selector_all("#actions button[data-move]",
                                        "els => els.map(e => e.dataset.move)")
    assert sorted(buttons) == sorted([*claims, "pass"])
    assert page.query_selector("#actions button[data-action='discard']") is None
    other.page.wait_for_function("() => / may call rummy/.test(document.querySelector("
                                 "'#status').textContent)")
    seq = seat.seq()
    hand = len(seat.hand())
    claim = claims[0]
    seat.press(f"#actions button[data-move='{claim}']")
    seat.wait_change(seq)
    assert seat.log()[-1].startswith("You call rummy")
    assert len(seat.hand()) <= hand  # the claimed cards go to the table, none to the hand
    return claim


def joker_choice(legal: list[str]) -> str | None:
    """A meld with a joker that may stand for more than one card, when there is one."""
    ways: dict[tuple[str, ...], list[str]] = {}
    for move in legal:
        if move.startswith("meld ") and "*=" in move:
            cards = tuple(sorted("*" if c.startswith("*") else c for c in move.split()[1:]))
            ways.setdefault(cards, []).append(move)
    return next((moves[0] for moves in ways.values() if len(moves) > 1), None)


def joker_layoff_choice(legal: list[str]) -> list[str]:
    """The lay-offs of a joker onto one meld where it may stand for more than one card."""
    ways: dict[str, list[str]] = {}
    for move in legal:
        if move.startswith("layoff *="):
            ways.setdefault(move.split()[2], []).append(move)
    return next((moves for moves in ways.values() if len(moves) > 1), [])


def lay_off_joker(seat: Seat, options: list[str]) -> None:
    """Select the joker and press the meld: the page asks which card it stands for there."""
    page = seat.page
    meld = options[0].split()[2]
    seq = seat.seq()
    seat.select(["*"])
    seat.press(f"#melds button.meld.target[data-meld='{meld}']")
    chooser = page.locator("#chooser")
    chooser.wait_for(state="visible")
    assert f"On {meld}, the joker stands for" in chooser.inner_text()
    shown = chooser.locator("button[data-move]").evaluate_all("els => els.map(e => e.dataset.move)")
    assert sorted(shown) == sorted(options)
    chooser.locator(f"button[data-move='{options[-1]}']").click()
    seat.wait_change(seq)
    declared = options[-1].split()[1]
    # On the meld, or in front of the seat as its lay-off onto another seat's meld.
    assert seat.page.locator(f"#melds [data-meld='{meld}'] .card[data-card='{declared}']") \
        .count() == 1
    assert seat.log()[-1].startswith("You lay off joker as ")


def legal(game: Game) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def at(server: Server, browser: Any,
       wanted: Callable[[Game], bool]) -> tuple[dict[int, Seat], int]:
    """Ann's and Bob's pages at a wild table (with a computer player) made where ``wanted``
    first holds, a person to move; and which of them moves, once the page shows it."""
    found, mover = person_to_move(wanted)
    table = make_table(server, preset="wild", seats=["person", "person", "expert"], seed=SEED,
                       moves=opening(SEED, 3, found, preset="wild"))
    seats = {}
    for number in (0, 1):
        _, page = new_page(browser)
        seats[number] = table.open(page, number)
        page.wait_for_selector("#game:not([hidden])")
    seats[mover[0]].page.wait_for_function(
        "() => document.querySelectorAll('#legal-list option').length > 0")
    return seats, mover[0]


def close(seats: dict[int, Seat]) -> None:
    for seat in seats.values():
        assert seat.problems.real() == []
        seat.page.context.close()


def test_wild_jokers_and_the_rummy_call_window(web_server: Server, browser: Any) -> None:
    # Each at a table made where it can happen: a meld whose joker may stand for more than
    # one card, such a joker laid off, and a rummy call the pile offers.
    seats, number = at(web_server, browser, lambda g: g.deal.phase == PLAY_PHASE
                       and joker_choice(legal(g)) is not None)
    seat = seats[number]
    move = joker_choice(seat.legal())
    assert move is not None
    assert meld_with_joker(seat, move), "the page must ask which card the joker stands for"
    close(seats)

    seats, number = at(web_server, browser, lambda g: g.deal.phase == PLAY_PHASE
                       and bool(joker_layoff_choice(legal(g))))
    seat = seats[number]
    lay_off_joker(seat, joker_layoff_choice(seat.legal()))
    close(seats)

    seats, number = at(web_server, browser, lambda g: g.deal.phase == RUMMY_PHASE
                       and any(m.startswith("rummy ") for m in legal(g)))
    assert claim_in_rummy_window(seats[number], seats[1 - number]).startswith("rummy ")
    close(seats)


SEED = 5
