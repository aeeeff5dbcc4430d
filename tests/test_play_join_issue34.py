"""Issue 34: what the browser table has and the terminal's online seat lacked: the turn
clock (and who played a turn the clock ran out on), ``continue`` at a deal's end and whom
the table waits for, talk, undo against computer players, and one status line while the
server is away. A real ``rummy500 serve`` on loopback; the seat driven by Textual's pilot."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.widgets import Input, RichLog, Static

from joinkit import message, play_turns_until, screen_of, until
from rummy500.commands.play_join import join
from rummy500.net.client import TableConnection
from rummy500.tui.remote import RemoteApp, RemoteTableScreen
from rummy500.tui.remote_pacing import OnlineSheet
from rummy500.tui.remote_talk import TalkScreen
from rummy500.tui.tokens import HeldSeat, SeatTokens
from serverkit import ServerProcess, Servers, seat_body
from tuikit import shown_text

BIG = (100, 40)


def status(screen: RemoteTableScreen) -> str:
    return shown_text(screen.query_one("#status", Static))


def log_text(screen: RemoteTableScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)


async def seated(server: ServerProcess, body: dict[str, Any],
                 tmp_path: Path) -> tuple[RemoteApp, dict[str, Any]]:
    made = await server.api.create_table(body)
    SeatTokens(tmp_path).put(server.base, made["table"], HeldSeat(0, made["token"], "Ann"))
    return RemoteApp(await join(f"{server.base}/t/{made['table']}", tmp_path)), made


@pytest.mark.asyncio
async def test_the_turn_clock_counts_down_warns_and_says_who_played_the_turn(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    app, made = await seated(shared_sqlite, seat_body("person", "random", seed=7, turn_s=6),
                             tmp_path)
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.acting(), "my turn")
        await until(pilot, lambda: "⏱" in status(screen), "the clock in the status line")
        await until(pilot, lambda: "stand-in plays this turn for you" in message(screen),
                    "the warning", timeout=10)
        # Nothing is played: the stand-in plays the turn, and the log says so.
        await until(pilot, lambda: screen.state is not None and any(
            entry.seat == 0 for entry in screen.state.history), "the stand-in's move",
            timeout=20)
        await until(pilot, lambda: "Your time ran out" in log_text(screen), "the time-out line")
        # The stand-in's draw is not told as the person's own ("You drew 5♥." stayed in the
        # message line): the state just before and just after it, as the seat took them.
        await until(pilot, lambda: screen.state is not None and any(
            entry.move == "draw" and entry.seat == 0 and entry.drawn
            for entry in screen.state.history), "a draw by the stand-in", timeout=30)
        state = screen.state
        assert state is not None
        at = next(i for i, entry in enumerate(state.history)
                  if entry.move == "draw" and entry.seat == 0 and entry.drawn)
        screen.tell_drawn(msgspec.structs.replace(state, history=state.history[:at]),
                          msgspec.structs.replace(state, history=state.history[:at + 1]))
        told = str(screen.note)
        assert told.startswith("Your stand-in drew ") and "You drew" not in told, told
        assert screen.state is not None
        mine = [entry.text for entry in screen.state.history if entry.seat == 0]
        assert mine and all(text.startswith("Your stand-in ") for text in mine), mine
        log = log_text(screen)
        assert log.index("Your time ran out") < log.index(mine[0])
        await until(pilot, lambda: "Hurry" not in message(screen), "the warning gone")
    # Everyone else reads whose stand-in played (the browser's log reads the same words).
    async with await TableConnection.open(shared_sqlite.base, made["table"], None) as watcher:
        texts = [entry["text"] for entry in watcher.state["history"] if entry.get("seat") == 0]
        assert texts and all(text.startswith("Seat 1's stand-in ") for text in texts), texts


@pytest.mark.asyncio
async def test_closing_a_deals_sheet_says_continue_and_the_sheet_says_who_is_awaited(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    app, _ = await seated(shared_sqlite, seat_body("person", "expert", seed=11,
                                                   deal_pause_s=600), tmp_path)
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await play_turns_until(pilot, screen,
                               lambda: screen.state is not None and bool(screen.state.deals),
                               "the deal's end")
        await until(pilot, lambda: isinstance(app.screen, OnlineSheet), "the score sheet")
        await until(pilot, lambda: screen.state is not None and 0 in screen.state.waiting_for,
                    "the pause waiting for this seat")
        sheet = app.screen
        assert isinstance(sheet, OnlineSheet)
        await until(pilot, lambda: "wait for you" in shown_text(sheet.waits), "whom it waits for")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the table again")
        await until(pilot, lambda: screen.state is not None and not screen.state.waiting_for,
                    "the server hearing continue", timeout=10)


@pytest.mark.asyncio
async def test_talk_from_other_seats_shows_apart_and_c_says_a_line(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    api = shared_sqlite.api
    made = await api.create_table({"players": 3, "seed": 5, "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bob"},
        {"kind": "bot", "bot": "random"}]})
    bob = await api.take_seat(made["table"], 1, "Bob")
    async with await TableConnection.open(shared_sqlite.base, made["table"],
                                          bob["token"]) as bob_seat:
        await bob_seat.send({"type": "chat", "id": "b1", "text": "before you came"})
        await until_frame(bob_seat, "chat")
        SeatTokens(tmp_path).put(shared_sqlite.base, made["table"],
                                 HeldSeat(0, made["token"], "Ann"))
        app = RemoteApp(await join(f"{shared_sqlite.base}/t/{made['table']}", tmp_path))
        async with app.run_test(size=BIG) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: "» Bob says: before you came" in log_text(screen),
                        "the welcome's line")
            await bob_seat.send({"type": "chat", "id": "b2", "text": "hi Ann"})
            await bob_seat.send({"type": "react", "id": "b3", "what": "nice"})
            await until(pilot, lambda: "» Bob says: hi Ann" in log_text(screen), "Bob's line")
            await until(pilot, lambda: "» Bob: " in log_text(screen), "Bob's reaction")
            assert log_text(screen).count("before you came") == 1
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, TalkScreen), "the talk box")
            app.screen.query_one("#talk", Input).value = "hello Bob"
            await pilot.press("enter")
            heard = await until_frame(bob_seat, "chat", text="hello Bob")
            assert heard["seat"] == 0 and heard["name"] == "Ann"
            await until(pilot, lambda: "» You say: hello Bob" in log_text(screen), "my own line")


async def until_frame(connection: TableConnection, kind: str, **fields: Any) -> dict[str, Any]:
    async def wait() -> dict[str, Any]:
        while True:
            frame = await connection.next()
            if frame.get("type") == kind and all(frame.get(k) == v for k, v in fields.items()):
                return frame
    return await asyncio.wait_for(wait(), 15)


@pytest.mark.asyncio
async def test_u_takes_back_a_move_against_computer_players(shared_sqlite: ServerProcess,
                                                            tmp_path: Path) -> None:
    """Seed 3: a meld in the first turn, after a draw from the stock (which stands)."""
    app, _ = await seated(shared_sqlite, seat_body("person", "random", seed=3), tmp_path)
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.acting() and screen.state is not None
                    and screen.state.phase == "draw", "my turn to draw")
        await pilot.press("d")
        await until(pilot, lambda: screen.acting() and screen.state is not None
                    and screen.state.phase == "play", "my turn to play")
        await pilot.press("u")  # a draw from the stock stands
        assert "not taken back" in message(screen)
        state = screen.state
        assert state is not None and state.legal is not None
        meld = next(move for move in state.legal if move.startswith("meld"))
        hand = len(state.hand or ())
        await screen.send(meld)
        await until(pilot, lambda: screen.pending is None and screen.state is not None
                    and bool(screen.state.can_undo), "the meld, undoable")
        seq = screen.seq
        await pilot.press("u")
        await until(pilot, lambda: screen.seq > seq and screen.pending is None, "the undo")
        assert screen.state is not None and len(screen.state.hand or ()) == hand
        assert screen.state.history[-1].move == "draw"
        assert "took back" in log_text(screen)


@pytest.mark.asyncio
async def test_while_the_server_is_away_one_status_and_no_moves(servers: Servers,
                                                                sqlite_url: str,
                                                                tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    first = servers.start(sqlite_url, extra=("--port", str(port)))
    app, _ = await seated(first, seat_body("person", "random", seed=3), tmp_path)
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.acting(), "my turn")
        first.kill()
        await until(pilot, lambda: screen.connection is None, "the drop")
        await pilot.press("d")
        await asyncio.sleep(5)  # a few tries to reconnect
        await pilot.pause()
        assert log_text(screen).count("Connection lost") == 1, log_text(screen)
        assert "You to" not in status(screen) and "reconnecting" in status(screen)
        assert not screen.legal and "Not connected" in message(screen)
        servers.start(sqlite_url, extra=("--port", str(port)))
        await until(pilot, lambda: screen.acting(), "my turn again", timeout=20)
        assert "Not connected" not in message(screen) and "You to" in status(screen)
        assert log_text(screen).count("Connected again") == 1
