"""Issue 34, item 8, at an online seat (a real ``rummy500 serve`` on loopback, Textual's
pilot): a waiting table shows no deal 0 nor stock 0, the message says whose turn it is in
the status line's words, a draw says the card drawn, and the line that the game is over
comes after the last move and the last sheet in the log."""

from __future__ import annotations

from pathlib import Path

import pytest

from joinkit import message, play_turns_until, screen_of, until
from rummy500.commands.play_join import join
from rummy500.net.client import TableConnection
from rummy500.tui.board import whose_turn
from rummy500.tui.remote import RemoteApp
from rummy500.tui.screens import SheetScreen
from rummy500.tui.tokens import HeldSeat, SeatTokens
from serverkit import ServerProcess, seat_body
from test_play_join_issue34 import status

BIG = (100, 40)


@pytest.mark.asyncio
async def test_a_waiting_table_and_whose_turn_in_the_status_lines_words(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    api = shared_sqlite.api
    made = await api.create_table(seat_body("person", "person", seed=8))
    SeatTokens(tmp_path).put(shared_sqlite.base, made["table"], HeldSeat(0, made["token"], "Ann"))
    app = RemoteApp(await join(f"{shared_sqlite.base}/t/{made['table']}", tmp_path))
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.state is not None, "the welcome")
        await until(pilot, lambda: "waiting for player" in status(screen), "the waiting table")
        assert "deal 0" not in status(screen) and "stock" not in status(screen)
        bob = await api.take_seat(made["table"], 1, "Bob")
        async with await TableConnection.open(shared_sqlite.base, made["table"], bob["token"]):
            await until(pilot, lambda: screen.state is not None and screen.state.turn is not None,
                        "the deal")
            state = screen.state
            assert state is not None and "deal 1" in status(screen)
            if state.turn == 1:  # Bob's turn: the message says it as the status line does
                assert message(screen) == whose_turn(state, screen.names()) + "."
                assert message(screen) == "Bob to draw."
            else:
                await pilot.press("d")
                await until(pilot, lambda: message(screen).startswith("You drew "),
                            "the card drawn")


@pytest.mark.asyncio
async def test_a_draw_is_told_and_the_game_over_line_comes_last(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    made = await shared_sqlite.api.create_table(
        {**seat_body("person", "random", seed=5), "rules": {"preset": "classic",
                                                            "max_deals": 1}})
    SeatTokens(tmp_path).put(shared_sqlite.base, made["table"], HeldSeat(0, made["token"], "Ann"))
    app = RemoteApp(await join(f"{shared_sqlite.base}/t/{made['table']}", tmp_path))
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.acting() and screen.state is not None
                    and screen.state.phase == "draw", "my turn to draw")
        await pilot.press("d")
        await until(pilot, lambda: message(screen).startswith("You drew "), "the card drawn")
        await play_turns_until(pilot, screen, lambda: screen.again_open(), "the end",
                               timeout=120)
        await until(pilot, lambda: isinstance(app.screen, SheetScreen), "the last sheet")
        await pilot.press("escape")
        state = screen.state
        assert state is not None and state.over
        lines = screen.log_lines
        over = next(i for i, line in enumerate(lines) if line.startswith("Press n to play again"))
        assert over > lines.index(state.deals[-1].standing), lines[-8:]
        assert over > lines.index(state.history[-1].text), lines[-8:]
