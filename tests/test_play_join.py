"""``rummy500 play --join URL``: an online seat in the terminal game, against a real
``rummy500 serve`` process on loopback. The Textual app is driven with keys and clicks
(Textual's pilot); what the server accepted is read back from its HTTP API."""

from __future__ import annotations

import asyncio
import json
import socket
import stat
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RichLog

from joinkit import message, play_turns_until, screen_of, until
from rummy500.cards import parse_face
from rummy500.cli import main
from rummy500.commands import terminal_check
from rummy500.commands.play_join import join
from rummy500.net.client import TableConnection, split_table_url
from rummy500.session.seat_state import SeatState, TableMeld
from rummy500.tui.board import hand_keys
from rummy500.tui.remote import RemoteApp, RemoteTableScreen
from rummy500.tui.screens import SheetScreen
from rummy500.tui.tokens import HeldSeat, SeatTokens
from rummy500.tui.widgets import meld_words
from serverkit import ServerProcess, Servers, seat_body
from tuikit import shown_text

BIG = (100, 40)
RANDOM_BOT = "random"


def table_url(server: ServerProcess, table: str) -> str:
    return f"{server.base}/t/{table}"


def state_of(screen: RemoteTableScreen) -> SeatState:
    assert screen.state is not None
    return screen.state


def moves_told(screen: RemoteTableScreen) -> list[str | None]:
    return [entry.move for entry in state_of(screen).history]


def log_text(screen: RemoteTableScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)


async def my_turn(pilot: Pilot[Any], screen: RemoteTableScreen, phase: str) -> None:
    await until(pilot, lambda: screen.acting() and state_of(screen).phase == phase,
                f"my turn to {phase}")


@pytest.fixture
def serve(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


async def create(server: ServerProcess, body: dict[str, Any]) -> dict[str, Any]:
    return await server.api.create_table(body)


# -- playing --------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_moves_by_keys_reach_the_server_and_a_refusal_changes_nothing(
        serve: ServerProcess, tmp_path: Path) -> None:
    made = await create(serve, seat_body("person", RANDOM_BOT, seed=7))
    url = table_url(serve, made["table"])
    # The terminal joined this table before: its token is kept and used again.
    SeatTokens(tmp_path).put(serve.base, made["table"], HeldSeat(0, made["token"], "Ann"))
    joined = await join(url, tmp_path)
    assert (joined.seat, joined.token) == (0, made["token"])
    api = serve.api
    app = RemoteApp(joined)
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await my_turn(pilot, screen, "draw")
        before = (await api.summary(made["table"]))["seq"]
        hand = list(state_of(screen).hand or ())
        assert [item.face for item in screen.hand.items] == sorted(
            (parse_face(card) for card in hand), key=lambda f: (f == 15, f >> 4, f & 15))
        sizes = state_of(screen).public.hand_sizes
        assert sizes[1] == len(hand) and sizes[0] == len(hand)

        # h asks the server for a hint (POST /api/tables/<id>/hint).
        await pilot.press("h")
        await until(pilot, lambda: "Hint:" in message(screen), "the hint")
        hinted = message(screen).split("Hint: ", 1)[1].split(" (", 1)[0]
        assert hinted in (state_of(screen).legal or ())

        # d draws: the server stores it.
        await pilot.press("d")
        await my_turn(pilot, screen, "play")
        assert (await api.summary(made["table"]))["seq"] == before + 1
        drew = state_of(screen).history[-1]
        assert drew.move == "draw" and drew.seat == 0 and drew.drawn in (state_of(screen).hand
                                                                        or ())
        assert drew.text.startswith("You draw ") and drew.text != "You draw from the stock"
        assert len(state_of(screen).hand or ()) == len(hand) + 1

        # A typed move the server refuses: its words show, and nothing changes.
        seq = screen.seq
        absent = next(f"{rank}{suit}" for suit in "cdhs" for rank in "A23456789TJQK"
                      if f"{rank}{suit}" not in (state_of(screen).hand or ()))
        await pilot.press("colon")
        assert screen.query_one("#command", Input).has_focus
        screen.query_one("#command", Input).value = f"discard {absent}"
        await pilot.press("enter")
        await until(pilot, lambda: bool(screen.refusals), "the refusal")
        assert "✗" in message(screen)
        assert screen.refusals[-1].rstrip(".").lower() in message(screen).lower()
        assert (await api.summary(made["table"]))["seq"] == seq == screen.seq
        assert moves_told(screen)[-1] == "draw"

        # No undo online (Esc leaves the typed move).
        await pilot.press("escape")
        assert screen.hand.has_focus
        await pilot.press("u")
        assert "not taken back" in message(screen)
        assert screen.seq == seq

        # A card clicked and x discards it.
        screen.hand.focus()
        discarded = (state_of(screen).hand or ())[0]
        index = next(i for i, item in enumerate(screen.hand.items)
                     if item.face == parse_face(discarded))
        await pilot.click("#hand", offset=screen.hand.offset_of(index))
        assert len(screen.selected) == 1
        await pilot.press("x")
        await until(pilot, lambda: f"discard {discarded}" in moves_told(screen),
                    "the discard in the history")
        assert (await api.summary(made["table"]))["seq"] >= seq + 1

        # The computer player moves; then t takes the top of the pile.
        await my_turn(pilot, screen, "draw")
        top = state_of(screen).public.pile[-1]
        seq = screen.seq
        await pilot.press("t")
        await until(pilot, lambda: screen.seq > seq, "the take")
        assert moves_told(screen)[-1] == f"take {top}"
        assert top in (state_of(screen).hand or ())
        # The log tells the deal in the history's own words, the card drawn named to you.
        log = log_text(screen)
        assert all(entry.text in log for entry in state_of(screen).history)
        assert drew.text in log and "You discard" in log


def stored(screen: RemoteTableScreen, seq: int) -> bool:
    """The table has moved past ``seq`` and the screen's move is answered."""
    return screen.seq > seq and screen.pending is None


async def click_cards(pilot: Pilot[Any], screen: RemoteTableScreen, texts: list[str]) -> None:
    """Click the hand's cards showing ``texts``."""
    used: set[int] = set()
    for text in texts:
        face = parse_face(text)
        index = next(i for i, item in enumerate(screen.hand.items)
                     if i not in used and item.face == face)
        used.add(index)
        await pilot.click("#hand", offset=screen.hand.offset_of(index))
    assert len(screen.selected) == len(texts)


@pytest.mark.asyncio
async def test_meld_lay_off_and_discard_with_clicks_and_keys(serve: ServerProcess,
                                                             tmp_path: Path) -> None:
    """Seed 3: melds in the first turn, a lay-off a few turns later (each turn: a lay-off if
    one is legal, else a meld, else the first legal discard)."""
    made = await create(serve, seat_body("person", RANDOM_BOT, seed=3))
    SeatTokens(tmp_path).put(serve.base, made["table"], HeldSeat(0, made["token"]))
    app = RemoteApp(await join(table_url(serve, made["table"]), tmp_path))
    done: list[str] = []
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        while "layoff" not in done:
            await until(pilot, lambda: screen.acting() or screen.again_open(), "my move")
            assert not state_of(screen).over and len(done) < 40, done
            legal = state_of(screen).legal or ()
            seq = screen.seq
            if state_of(screen).phase == "draw":
                move = "draw"
                await pilot.press("d")
            elif lays := [m for m in legal if m.startswith("layoff")]:
                move = lays[0]
                _, card, meld = move.split()
                await click_cards(pilot, screen, [card])
                number = int(meld[1:])
                assert next(item for item in screen.melds.items
                            if item.number == number).marked  # the card fits there
                await pilot.click("#melds", offset=screen.melds.offset_of(number))
            elif melds := [m for m in legal if m.startswith("meld")]:
                move = melds[0]
                await click_cards(pilot, screen, move.split()[1:])
                await pilot.press("m")
            else:
                move = next(m for m in legal if m.startswith("discard"))
                await click_cards(pilot, screen, move.split()[1:])
                await pilot.press("x")
            await until(pilot, partial(stored, screen, seq), f"{move} stored")
            assert move in moves_told(screen) or state_of(screen).deal > 1, move
            assert not screen.refusals, screen.refusals
            done.append(move.split()[0])
        assert "meld" in done
        summary = await serve.api.summary(made["table"])
        assert summary["seq"] >= screen.seq
        assert [meld.id for meld in state_of(screen).public.melds] == [
            f"m{item.number}" for item in screen.melds.items]


@pytest.mark.asyncio
async def test_reconnects_after_the_server_comes_back(servers: Servers, sqlite_url: str,
                                                      tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    first = servers.start(sqlite_url, extra=("--port", str(port)))
    made = await create(first, seat_body("person", RANDOM_BOT, seed=3))
    SeatTokens(tmp_path).put(first.base, made["table"], HeldSeat(0, made["token"]))
    joined = await join(table_url(first, made["table"]), tmp_path)
    app = RemoteApp(joined)
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await my_turn(pilot, screen, "draw")
        first.kill()
        await until(pilot, lambda: screen.status == "reconnecting…", "the drop")
        assert screen.connection is None
        await pilot.press("d")  # not sent: no connection
        assert "not connected" in message(screen).lower()
        second = servers.start(sqlite_url, extra=("--port", str(port)))
        assert second.base == first.base
        await my_turn(pilot, screen, "draw")
        assert screen.status == ""
        seq = screen.seq
        await pilot.press("d")
        await until(pilot, lambda: screen.seq > seq, "the draw after reconnecting")
        assert (await second.api.summary(made["table"]))["seq"] >= seq + 1


@pytest.mark.asyncio
async def test_takes_an_open_seat_keeps_its_token_and_takes_it_again(
        serve: ServerProcess, tmp_path: Path) -> None:
    made = await create(serve, seat_body("person", "person", RANDOM_BOT, seed=5))
    url = table_url(serve, made["table"])
    joined = await join(url, tmp_path, name="Bob")
    assert joined.seat == 1 and joined.players == 3
    summary = await serve.api.summary(made["table"])
    assert summary["seats"][1]["name"] == "Bob" and summary["status"] == "playing"
    kept = tmp_path / "tables.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert json.loads(kept.read_text())["tables"][url]["token"] == joined.token
    again = await join(url, tmp_path)
    assert (again.seat, again.token) == (1, joined.token)
    # The token works: the seat's own state, hand and all.
    async with await TableConnection.open(serve.base, made["table"], again.token) as seat:
        assert seat.seat == 1 and len(seat.state["hand"]) > 0


@pytest.mark.asyncio
async def test_a_finished_deal_shows_its_score_sheet_over_the_table(
        serve: ServerProcess, tmp_path: Path) -> None:
    """The seat melds what it can and discards; when the deal ends the sheet comes up
    with the server's figures and the table as the deal ended; Enter goes back."""
    made = await create(serve, seat_body("person", "expert", seed=11))
    url = table_url(serve, made["table"])
    SeatTokens(tmp_path).put(serve.base, made["table"], HeldSeat(0, made["token"], "Ann"))
    joined = await join(url, tmp_path)
    app = RemoteApp(joined)
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await play_turns_until(pilot, screen,
                               lambda: screen.state is not None and bool(screen.state.deals),
                               "the deal's end")

        def sheet_shown() -> str:
            """The sheet's words as drawn so far (it comes up line by line)."""
            if not isinstance(app.screen, SheetScreen) or not app.screen.query(".keys"):
                return ""
            return "\n".join(shown_text(widget) for widget in app.screen.query("Words"))

        await until(pilot, lambda: "Enter or Esc: back to the table" in sheet_shown(),
                    "the score sheet, drawn to its last line")
        sheet_screen = app.screen
        assert isinstance(sheet_screen, SheetScreen) and sheet_screen.online
        sheet = sheet_screen.sheet
        assert sheet == state_of(screen).deals[0] and sheet.deal == 1
        assert sheet.sides == ("You", screen.names()[1])
        assert [sum(line.points for line in sheet.side_lines(side)) for side in (0, 1)] == list(
            sheet.scores)
        shown = sheet_shown()
        assert shown.startswith(sheet.text) and "Enter or Esc: back to the table" in shown
        assert all(line.text in shown for line in sheet.lines) and sheet.standing in shown
        log = log_text(screen).splitlines()
        assert sheet.text in log and log[log.index(sheet.text) + 1] == sheet.standing
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the table again")


# -- the command line's refusals ------------------------------------------------------------------


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["play", *argv])
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    return lines[0]


def test_join_with_local_set_up_flags_is_refused(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    url = "http://127.0.0.1:9/t/abc"
    line = refused(capsys, "--join", url, "--players", "3", "--preset", "wild")
    assert "--players" in line and "--preset" in line and "--join" in line
    assert "--resume" in refused(capsys, "--join", url, "--resume")
    assert "--join" in refused(capsys, "--seat", "1")
    assert "--join" in refused(capsys, "--name", "Bob", "--save-dir", str(tmp_path))


def test_join_errors_are_one_line(capsys: pytest.CaptureFixture[str], serve: ServerProcess,
                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terminal_check, "no_terminal", lambda: None)  # as in a terminal
    where = ("--save-dir", str(tmp_path))
    assert "not a table link" in refused(capsys, "--join", "http://127.0.0.1/x", *where)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert "cannot reach the server" in refused(
        capsys, "--join", f"http://127.0.0.1:{port}/t/abc", *where)
    assert "there is no table" in refused(capsys, "--join", f"{serve.base}/t/nosuchtable",
                                          *where)
    made = asyncio.run(serve.api.create_table(seat_body("person", RANDOM_BOT)))
    url = table_url(serve, made["table"])
    assert "no open seat" in refused(capsys, "--join", url, *where)
    assert "seat 0" in refused(capsys, "--join", url, "--seat", "0", *where)
    assert "no seat 7" in refused(capsys, "--join", url, "--seat", "7", *where)
    assert split_table_url(url) == (serve.base, made["table"])


# -- the state's cards for the widgets --------------------------------------------------------


def test_copies_are_told_apart_in_the_hand_and_melds_are_read_as_sent() -> None:
    keys = hand_keys(["7h", "Kc", "7h", "*", "*"], by_rank=False)
    assert len(set(keys)) == 5
    assert [face for face, _ in keys] == [parse_face(t) for t in ("Kc", "7h", "7h", "*", "*")]
    assert meld_words(TableMeld("m3", ("Qs", "*=Ks", "As"), (0, 1, 1), 0)) == "Q♠ *=K♠ A♠"
    assert meld_words(TableMeld("m2", ("*", "*", "*"), (0, 0, 0), 0)) == "* * *"
