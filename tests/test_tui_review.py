"""The terminal game at 80 × 24 (issue 9, items 9 and 16-19): names shown as written, a
save folder that cannot be written, the log's wrapped lines, where the focus stays, the
score sheet line by line, resizing, the command line's refusals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, RichLog, Static

from rummy500.commands.play import add_arguments, prepare
from rummy500.session.saves import SaveStore
from rummy500.session.settings import PERSON, default_settings
from rummy500.tui.app import PlayApp
from rummy500.tui.screens import CoverScreen, SheetScreen
from rummy500.tui.table import TableScreen
from rummy500.tui.widgets import FlowBar
from tuikit import app_for, args_for, quick, settle, shown_text, table_of, type_move

SMALL = (80, 24)


def text_of(app: PlayApp, selector: str) -> str:
    widget = table_of(app).query_one(selector)
    assert isinstance(widget, (Static, FlowBar))
    return str(widget.render())


@pytest.mark.asyncio
async def test_names_written_like_markup_are_shown_as_written() -> None:
    settings = default_settings(seats=(PERSON, PERSON), options={"max_deals": 1}, seed=8,
                                names=("[/]", "[bold]Bob"))
    app = app_for(settings)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CoverScreen)
        await pilot.press("enter")
        await settle(pilot)
        players = text_of(app, "#players")
        assert "[/]" in players and "[bold]Bob" in players


@pytest.mark.asyncio
async def test_a_save_folder_that_cannot_be_written_does_not_stop_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SaveStore(tmp_path)
    app = app_for(quick(seed=3), store)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)

        def refuse(*args: Any, **kwargs: Any) -> None:
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(store, "_write", refuse)
        session = table_of(app).session
        count = len(session.made)
        await pilot.press("d")
        await settle(pilot)
        assert str(session.made[count].move) == "draw"  # made, though not saved
        message = text_of(app, "#message")
        assert "cannot be saved" in message and "Permission denied" in message
    store.close()


@pytest.mark.asyncio
async def test_wrapped_log_lines_keep_every_letter_at_80_columns() -> None:
    app = app_for(quick(seed=3))
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        table = table_of(app)
        log = table.query_one("#log", RichLog)
        token = "".join(chr(97 + n % 26) for n in range(400))  # folded at the very edge
        for _ in range(3):  # the first long lines come before the log needs its scrollbar
            table.notice(token)
            await pilot.pause()
        await pilot.pause()
        assert log.show_vertical_scrollbar
        visible = log.region.width - log.styles.gutter.width - log.scrollbar_size_vertical
        shown = [strip.text.rstrip() for strip in log.lines]
        assert all(len(line) <= visible for line in shown), (visible, max(map(len, shown)))
        assert "".join(shown).endswith(token * 3)  # not a letter lost


@pytest.mark.asyncio
async def test_the_focus_is_on_the_hand_across_a_hot_seat_hand_over() -> None:
    settings = default_settings(seats=(PERSON, PERSON), options={"max_deals": 1}, seed=8,
                                names=("Ann", "Bob"))
    app = app_for(settings)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the first player is ready
        await settle(pilot)
        table = table_of(app)
        session = table.session
        seat = session.to_move
        assert seat is not None
        await type_move(pilot, "draw")
        discard = next(m for m in session.view(seat).legal_moves() if m.kind == "discard")
        await type_move(pilot, str(discard))
        assert isinstance(app.screen, CoverScreen)
        await pilot.press("enter")  # the other player is ready
        await settle(pilot)
        assert table_of(app).hand.has_focus


@pytest.mark.asyncio
async def test_the_score_sheet_shows_every_line_and_the_hands_left() -> None:
    app = app_for(quick(seed=2, options={"stock_exhausted": "end", "hand_size_two": 24},
                        seats=(PERSON, "simple")))
    rng = random.Random(1)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(400):
            await settle(pilot)
            if isinstance(app.screen, SheetScreen):
                break
            table = table_of(app)
            seat = table.viewer
            assert seat is not None
            moves = table.session.view(seat).legal_moves()
            melds = [m for m in moves if m.kind in ("meld", "layoff")]
            assert table.session.play(seat, rng.choice(melds or moves)) is None
            table.after_move(table.session.made[-1])
        screen = app.screen
        assert isinstance(screen, SheetScreen)
        sheet = screen.sheet
        assert sheet == table_of(app).session.state(0).deals[0]
        assert {line.what for line in sheet.lines} >= {"on_table", "in_hand"}
        shown = "\n".join(shown_text(words) for words in screen.query("Words"))
        for line in sheet.lines:
            assert line.text in shown
        assert shown.startswith(sheet.text) and sheet.standing in shown
        left = " ".join(shown_text(words) for words in screen.query(".hands"))
        assert left.startswith("Cards left in hand:")
        for name, hand in zip(screen.names, sheet.hands, strict=True):
            assert (f"{name}: " in left) == bool(hand)
        from textual.containers import Vertical
        box = screen.query_one(Vertical)
        assert box.max_scroll_y == 0  # at 80 x 24 the whole sheet, keys included, is in view


@pytest.mark.asyncio
async def test_resizing_keeps_the_turn_line_and_the_key_bar() -> None:
    app = app_for(quick(seed=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table_of(app).notice("".join(chr(97 + n % 26) for n in range(300)))
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        table = table_of(app)
        status = table.query_one("#status")
        assert status.region.height == 1 and status.region.width == 80
        assert "to draw" in str(status.render_line(0).text)
        log = table.query_one("#log", RichLog)
        visible = log.region.width - log.styles.gutter.width - log.scrollbar_size_vertical
        assert log.lines and all(strip.cell_length <= visible for strip in log.lines)
        footer = table.query_one("Footer")
        assert footer.region.bottom == 24 and footer.region.height == 1
        assert "Draw" in "".join(str(key.render()) for key in footer.query("FooterKey"))


def test_resume_refuses_a_new_set_up(tmp_path: Path) -> None:
    answer = prepare(args_for("--save-dir", str(tmp_path), "--resume", "--preset", "wild"))
    assert isinstance(answer, str)
    assert "--preset cannot be given with it" in answer


def test_a_player_with_one_card_has_1_card() -> None:
    from rummy500.narrate import plural
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"


def test_the_set_up_arguments_exist() -> None:
    import argparse
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--resume"]).resume


def test_the_quit_message_names_rummy500_only_when_it_is_on_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummy500.commands.program import program

    launched = tmp_path / "bin" / "rummy500"
    launched.parent.mkdir()
    launched.write_text("#!/bin/sh\n")
    launched.chmod(0o755)
    monkeypatch.setattr("sys.argv", [str(launched), "play"])
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    assert program() == str(launched)
    monkeypatch.setenv("PATH", str(launched.parent))
    assert program() == "rummy500"


@pytest.mark.asyncio
async def test_partners_are_marked_and_computer_players_say_how_strong_they_are() -> None:
    settings = default_settings("partnership", {"max_deals": 1}, seats=(PERSON, "random",
                                "simple", "random"), seed=5, budget=0.05)
    app = app_for(settings)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        players = " ".join(text_of(app, "#players").split())
        assert "your partner" in players
        from rummy500.bots import strength
        assert strength("simple") in players and strength("random") in players


@pytest.mark.asyncio
async def test_after_the_new_game_screen_the_keys_work_on_the_new_table(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    app = app_for(quick(seed=3), store)
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot)
        first = table_of(app).session
        await pilot.press("n")
        await pilot.pause()
        from rummy500.tui.setup import SetupScreen
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        await settle(pilot)
        table = table_of(app)
        assert table.session is not first and isinstance(app.screen, TableScreen)
        assert app.focused is not None and table in app.focused.ancestors_with_self
        count = len(table.session.made)
        seat = table.viewer
        await pilot.press("colon")
        assert table.query_one("#command", Input).has_focus
        await type_move(pilot, "draw")
        await settle(pilot)
        assert any(str(m.move) == "draw" and m.seat == seat for m in table.session.made[count:])
        assert table.hand.has_focus
    store.close()
