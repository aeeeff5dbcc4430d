"""Issue 32 feature 5 at the terminal's online seat (``rummy500 play --join``): the status
line counts the turn clock, then the time bank of the seat to move once the clock has run
out, says the stand-in played when both ran out, and says how many people watch; a seat
whose person left reads so. A real ``rummy500 serve`` on loopback; Textual's pilot."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import RichLog, Static

from joinkit import screen_of, until
from rummy500.commands.play_join import join
from rummy500.net.client import TableConnection
from rummy500.tui.remote import RemoteApp, RemoteTableScreen
from rummy500.tui.tokens import HeldSeat, SeatTokens
from serverkit import ServerProcess, seat_body
from tuikit import shown_text

BIG = (160, 40)


def status(screen: RemoteTableScreen) -> str:
    return shown_text(screen.query_one("#status", Static))


def log_text(screen: RemoteTableScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)


@pytest.mark.asyncio
async def test_the_status_line_counts_the_clock_then_the_bank(shared_sqlite: ServerProcess,
                                                              tmp_path: Path) -> None:
    made = await shared_sqlite.api.create_table(
        seat_body("person", "random", seed=7, turn_s=5, bank_s=4))
    SeatTokens(tmp_path).put(shared_sqlite.base, made["table"], HeldSeat(0, made["token"], "Ann"))
    app = RemoteApp(await join(f"{shared_sqlite.base}/t/{made['table']}", tmp_path))
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.acting(), "my turn")
        await until(pilot, lambda: "+ bank" in status(screen), "the clock and the bank")
        assert screen.clock_words().endswith(" + bank 4 s"), screen.clock_words()
        async with await TableConnection.open(shared_sqlite.base, made["table"], None):
            await until(pilot, lambda: "⏱ bank " in status(screen), "the bank running",
                        timeout=15)
            # Nothing is played: once the bank is spent too, the stand-in plays the turn.
            await until(pilot, lambda: "Your time ran out" in log_text(screen),
                        "the time-out line", timeout=20)
            assert screen.state is not None and screen.state.bank is not None
            assert screen.state.bank[0] == 0
            await until(pilot, lambda: screen.state is not None and screen.state.watchers == 1,
                        "the watcher counted", timeout=20)
            assert " · 1 watching" in screen.clock_words()
            await until(pilot, lambda: "1 watch" in status(screen), "the watcher shown")
            mine = [entry.text for entry in screen.state.history if entry.seat == 0]
            assert mine and all(text.startswith("Your stand-in ") for text in mine), mine
