"""Issue 34, items 7 and 8, at the local table (Textual's pilot): where the focus goes after
a typed move and on Tab, q asked first while the game is on and working over a deal's sheet,
the final sheet closed to look at the final table, Ctrl+Q saying it saved; and the words of
the table (the player bar, the pile, undo, whose turn, the sheet's keys, the melds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RichLog
from textual.widgets._footer import FooterKey

from rummy500.tui.app import PlayApp
from rummy500.tui.confirm import ConfirmScreen
from rummy500.tui.screens import SheetScreen
from rummy500.tui.table import TableScreen
from tuikit import (
    BIG,
    app_at,
    app_for,
    message,
    played_from,
    quick,
    saving_game,
    settle,
    shown_text,
    table_of,
    type_move,
)


def footer_keys(app: PlayApp) -> set[str]:
    return {key.key for key in app.screen.query(FooterKey)}


def going_out(deals: int) -> PlayApp:
    """Ann takes 6♥, melds 6♥ 7♥ 8♥ 9♥ and goes out by discarding 5♠."""
    return app_at(quick(seed=1, options={"max_deals": deals, "hand_size_two": 4}),
                  ["7h 8h 9h 5s", "2c 3d 4s Jc"], pile="Ad 6h", stock="Tc Td Ts")


async def go_out(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    for move in ("take 6h", "meld 6h 7h 8h 9h", "discard 5s"):
        await type_move(pilot, move)
    for _ in range(500):
        if isinstance(pilot.app.screen, SheetScreen):
            return
        await pilot.pause(0.01)
    raise AssertionError("no score sheet")


# -- item 7: focus and keys -----------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_typed_move_gives_the_keys_back() -> None:
    app = app_for(quick(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = table_of(app)
        count = len(table.session.made)
        await type_move(pilot, "draw")
        await settle(pilot)
        assert str(table.session.made[count].move) == "draw"
        assert table.hand.has_focus
        assert table.query_one("#command", Input).value == ""
        assert "x" in footer_keys(app)  # the key bar is back
        await pilot.press("d")  # a key, not a letter in the box
        assert table.query_one("#command", Input).value == ""
        assert message(app).startswith("✗ ")
        await type_move(pilot, "meld 2c")  # a refused move keeps the box, to be corrected
        assert table.query_one("#command", Input).has_focus


@pytest.mark.asyncio
async def test_tab_goes_round_the_hand_the_pile_the_melds_and_the_log() -> None:
    app = app_for(quick(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        table = table_of(app)
        assert table.hand.has_focus
        seen = []
        for _ in range(4):
            await pilot.press("tab")
            seen.append(app.focused.id if app.focused else None)
        assert seen == ["pile", "melds", "log", "hand"]
        await pilot.press("shift+tab")
        assert isinstance(app.focused, RichLog)
        await pilot.press("colon")
        await pilot.press("tab")  # out of the move box: to the hand
        assert table.hand.has_focus


@pytest.mark.asyncio
async def test_q_asks_before_leaving_a_game_in_progress(tmp_path: Path) -> None:
    app = saving_game(tmp_path, "-o", "max_deals=1")
    async with app.run_test() as pilot:
        await settle(pilot)
        session = table_of(app).session
        await pilot.press("q")
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        assert "--resume" in "\n".join(shown_text(w) for w in screen.query("Words"))
        await pilot.press("n")
        assert isinstance(app.screen, TableScreen) and app.is_running
        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value is session


@pytest.mark.asyncio
async def test_ctrl_q_saves_and_says_so(tmp_path: Path) -> None:
    app = saving_game(tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        session = table_of(app).session
        await pilot.press("ctrl+q")
        await pilot.pause()
    # The command prints where the game is saved for the session it is given back.
    assert app.return_value is session


@pytest.mark.asyncio
async def test_the_final_sheet_closes_on_the_final_table_and_a_plays_again() -> None:
    app = going_out(1)
    async with app.run_test(size=BIG) as pilot:
        await go_out(pilot)
        sheet = app.screen
        assert isinstance(sheet, SheetScreen) and sheet.sheet.last
        keys = shown_text(sheet.query(".keys").first())
        assert "Esc: look at the table" in keys and "a: play again" in keys
        session = table_of(app).session
        await pilot.press("enter")  # not a new game at once
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and table_of(app).session is session
        assert "a: play again" in message(app)
        assert "a" in footer_keys(app)
        await pilot.press("a")
        await pilot.pause()
        assert table_of(app).session is not session


@pytest.mark.asyncio
async def test_esc_closes_the_final_sheet() -> None:
    app = going_out(1)
    async with app.run_test(size=BIG) as pilot:
        await go_out(pilot)
        session = table_of(app).session
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and table_of(app).session is session
        await pilot.press("q")  # the game is over: nothing to ask
        await pilot.pause()
    assert app.return_value is session


@pytest.mark.asyncio
async def test_q_works_over_a_deals_sheet_in_the_middle_of_the_game() -> None:
    app = going_out(2)
    async with app.run_test(size=BIG) as pilot:
        await go_out(pilot)
        sheet = app.screen
        assert isinstance(sheet, SheetScreen) and not sheet.sheet.last
        assert "Enter: on to deal 2" in shown_text(sheet.query(".keys").first())
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")  # stay: the sheet comes back
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value is not None and not app.return_value.finished


# -- item 8: words ----------------------------------------------------------------------------


def test_undo_says_in_words_what_was_taken_back_and_whose_moves_followed() -> None:
    from rummy500.moves import parse_move
    from rummy500.tui.told import taken_back

    assert taken_back(parse_move("discard 4h"), ["Expert", "Expert"]) == (
        "You took back your discard of 4♥, and 2 moves after it by Expert.")
    assert taken_back(parse_move("layoff *=9h m2"), []) == (
        "You took back your lay-off of *=9♥ on m2.")


@pytest.mark.asyncio
async def test_the_tables_words_read_as_meant() -> None:
    app = going_out(1)
    async with app.run_test(size=BIG) as pilot:
        await settle(pilot)
        table = table_of(app)
        players = str(table.query_one("#players").render())
        assert "0 melded" in players and "table 0" not in players
        assert table.pile.border_title == "Pile · 3 cards, oldest first"
        table.show_pile([], True)
        assert table.pile.border_title == "Pile · empty"
        table.show_pile([1], True)
        assert table.pile.border_title == "Pile · 1 card"
        table.update_table()
        await pilot.press("m")  # nothing picked, nothing drawn: the reason is the draw
        assert message(app).startswith("✗ Draw first"), message(app)
        await pilot.press("x")
        assert message(app).startswith("✗ Draw first"), message(app)
        await type_move(pilot, "take 6h")
        await type_move(pilot, "meld 6h 7h 8h 9h")
        players = str(table.query_one("#players").render())
        assert "30 melded" in players
        assert "m1 6♥ 7♥ 8♥ 9♥ (You)" in str(table.melds.render())
        await pilot.press("u")
        assert message(app) == "You took back your meld of 6♥ 7♥ 8♥ 9♥."


@pytest.mark.asyncio
async def test_resume_keeps_the_hands_order(tmp_path: Path) -> None:
    app = saving_game(tmp_path)
    async with app.run_test() as pilot:
        await settle(pilot)
        await pilot.press("s")
        assert table_of(app).by_rank
        await pilot.press("ctrl+q")
        await pilot.pause()
    resumed = played_from("--save-dir", str(tmp_path), "--resume", "--delay", "0")
    async with resumed.run_test() as pilot:
        await settle(pilot)
        table = table_of(resumed)
        assert table.by_rank and "by rank" in str(table.hand.border_title)
