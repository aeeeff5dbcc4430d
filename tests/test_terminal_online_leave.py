"""``q`` at the terminal's online seat (``rummy500 play --join``), as the browser's "Leave
table" offers it: step away (the seat stays Ann's and the same link takes it again), leave
the table for good (the ``leave`` frame: a computer player plays the seat, Bob is told and
plays on), or stay (nothing changes). A real ``rummy500 serve`` on loopback, the terminal
driven by Textual's pilot, Bob a second client of the protocol."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from joinkit import message, screen_of, until
from rummy500.commands.play_join import farewell, join
from rummy500.net.client import Closed, TableConnection
from rummy500.tui.confirm import ConfirmScreen
from rummy500.tui.remote import ONLINE_KEY_HELP, RemoteApp
from rummy500.tui.remote_leave import LeaveScreen
from rummy500.tui.screens import RulesScreen
from rummy500.tui.tokens import HeldSeat, SeatTokens
from serverkit import ServerProcess, seat_body
from tuikit import shown_text

pytestmark = pytest.mark.asyncio

BIG = (100, 40)
SHOTS = Path("/tmp/rummy500-shots/terminal-online")
LEFT = "Ann left the table: a computer player plays the seat for the rest of the game."


async def ann_and_bob(serve: ServerProcess, home: Path, *, bob: bool = True,
                      ) -> tuple[str, str, str | None]:
    """A table of Ann (the terminal's seat, her token kept in ``home``) and Bob (seated when
    ``bob``, which starts the game): its link, Ann's token and Bob's."""
    body = seat_body("person", "person", seed=11)
    body["seats"][0]["name"] = "Ann"
    made = await serve.api.create_table(body)
    table = made["table"]
    SeatTokens(home).put(serve.base, table, HeldSeat(0, made["token"], "Ann"))
    bob_token = (await serve.api.take_seat(table, 1, "Bob"))["token"] if bob else None
    return f"{serve.base}/t/{table}", made["token"], bob_token


async def at_a_started_game(serve: ServerProcess, home: Path,
                            ) -> tuple[str, str, str, TableConnection, RemoteApp]:
    """Ann's terminal (not yet run) and Bob's protocol client at a started game: the
    table's link and id, Ann's token, Bob's connection and Ann's app."""
    url, ann_token, bob_token = await ann_and_bob(serve, home)
    assert bob_token is not None
    table = url.rsplit("/", 1)[1]
    bob = await TableConnection.open(serve.base, table, bob_token)
    return url, table, ann_token, bob, RemoteApp(await join(url, home))


async def closed(app: RemoteApp, timeout: float = 30.0) -> None:
    """Until the app has exited (the pilot does not answer once it has)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while app.is_running:
        if loop.time() > end:
            raise AssertionError("the terminal did not close")
        await asyncio.sleep(0.02)


async def dealt(pilot: Pilot[Any], app: RemoteApp) -> None:
    screen = screen_of(app)
    await until(pilot, lambda: screen.state is not None and bool(screen.state.hand)
                and screen.connection is not None, "the deal")


def seat_of(summary: dict[str, Any], seat: int) -> tuple[str, bool]:
    entry = summary["seats"][seat]
    return entry["kind"], bool(entry.get("left"))


def seat_moves_since_leaving(state: dict[str, Any]) -> list[str]:
    """The words of seat 0's moves after the leave (in its deal), or in the deal after."""
    history = state["history"]
    left = next((at for at, entry in enumerate(history) if entry.get("left")), -1)
    return [entry["text"] for entry in history[left + 1:]
            if entry.get("seat") == 0 and "move" in entry]


def shown_words(screen: Screen[Any]) -> str:
    return " ".join(" ".join(shown_text(words).split()) for words in screen.query(Static))


async def test_cancel_changes_nothing_and_leaving_for_good_hands_the_seat_to_a_computer(
        shared_sqlite: ServerProcess, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    serve = shared_sqlite
    url, table, ann_token, bob, app = await at_a_started_game(serve, tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await dealt(pilot, app)
        screen = screen_of(app)
        footer = {binding.key: binding.description
                  for (_, binding, enabled, _) in screen.active_bindings.values()
                  if enabled and binding.show}
        assert footer["q"] == "Leave"
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the keys' help")
        assert isinstance(app.screen, RulesScreen) and app.screen.keys == ONLINE_KEY_HELP
        assert "q leave" in ONLINE_KEY_HELP and "for good" in ONLINE_KEY_HELP
        await pilot.press("escape")

        # q, then Esc: the table as it was, the seat still Ann's and connected.
        seq = screen.seq
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "the question")
        dialog = app.screen
        assert isinstance(dialog, LeaveScreen)
        words = shown_words(dialog)
        assert "Step away" in words and f"rummy500 play --join {url} takes the seat" in words
        assert "Leave the table for good" in words
        assert "A computer player takes your seat for the rest of the game" in words
        assert "The others play on against it" in words
        SHOTS.mkdir(parents=True, exist_ok=True)
        app.save_screenshot(str(SHOTS / "leave-dialog.svg"))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table again")
        await pilot.pause(0.3)
        assert app.is_running and screen.connection is not None and screen.seq == seq
        assert seat_of(await serve.api.summary(table), 0) == ("person", False)

        # q, then g: the seat is the computer's and the terminal closes.
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "the question")
        await pilot.press("g")
        await closed(app)
    assert app.left_for_good and not app.unknown_seat
    assert farewell(app, tmp_path) == 0
    assert "for good" in capsys.readouterr().out
    assert SeatTokens(tmp_path).get(serve.base, table) is None  # it acts no more

    # Bob is told, and plays on against the computer player in Ann's seat.
    while not any(entry.get("left") for entry in bob.state["history"]):
        await bob.next(30)
    assert [e["text"] for e in bob.state["history"] if e.get("left")] == [LEFT]
    assert (bob.state["seats"][0]["kind"], bob.state["seats"][0]["left"]) == ("bot", True)
    assert seat_of(await serve.api.summary(table), 0) == ("bot", True)
    rng = random.Random(5)
    while not seat_moves_since_leaving(bob.state):
        if bob.state.get("legal"):
            assert (await bob.move(rng.choice(bob.state["legal"])))["type"] == "ack"
        else:
            await bob.next(60)
    assert all(text.startswith("Ann's stand-in ") for text in seat_moves_since_leaving(
        bob.state)), bob.state["history"]
    with pytest.raises(Closed) as refused:
        await TableConnection.open(serve.base, table, ann_token)
    assert refused.value.code == 4401
    await bob.close()


async def test_stepping_away_keeps_the_seat_and_the_link_takes_it_again(
        shared_sqlite: ServerProcess, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    serve = shared_sqlite
    url, table, ann_token, bob, app = await at_a_started_game(serve, tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await dealt(pilot, app)
        hand = screen_of(app).state.hand  # type: ignore[union-attr]
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "the question")
        await pilot.press("a")
        await closed(app)
    assert not app.left_for_good
    assert farewell(app, tmp_path) == 0
    assert "takes your seat again" in capsys.readouterr().out
    assert seat_of(await serve.api.summary(table), 0) == ("person", False)
    assert not [e for e in bob.state["history"] if e.get("left")]

    again = await join(url, tmp_path)
    assert (again.seat, again.token) == (0, ann_token)
    back = RemoteApp(again)
    async with back.run_test(size=BIG) as pilot:
        await dealt(pilot, back)
        state = screen_of(back).state
        assert state is not None and state.seat == 0 and state.hand == hand
        # Enter steps away too: the gentler choice.
        await pilot.press("q")
        await until(pilot, lambda: isinstance(back.screen, LeaveScreen), "the question")
        await pilot.press("enter")
        await closed(back)
    assert not back.left_for_good
    assert seat_of(await serve.api.summary(table), 0) == ("person", False)
    await bob.close()


async def test_before_the_game_starts_only_stepping_away_is_asked_and_a_refusal_is_words(
        shared_sqlite: ServerProcess, tmp_path: Path) -> None:
    serve = shared_sqlite
    url, ann_token, _ = await ann_and_bob(serve, tmp_path, bob=False)
    table = url.rsplit("/", 1)[1]
    # The client's leave, refused by the server: nothing to hand over yet.
    async with await TableConnection.open(serve.base, table, ann_token) as other:
        answer = await other.leave(30)
    assert (answer["type"], answer["code"]) == ("refused", "not_playing")
    assert "has not started" in answer["message"]

    app = RemoteApp(await join(url, tmp_path))
    async with app.run_test(size=BIG) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.state is not None, "the welcome")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        words = shown_words(app.screen)
        assert "takes the seat again" in words and "for good" not in words
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table again")

        # Bob sits down (the game starts) and Ann's other window, the browser, leaves for
        # good while the terminal asks: its own leave is refused, said in words.
        bob = await serve.api.take_seat(table, 1, "Bob")
        bob_seat = await TableConnection.open(serve.base, table, bob["token"])
        await dealt(pilot, app)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "the question")
        async with await TableConnection.open(serve.base, table, ann_token) as browser:
            assert (await browser.leave(30))["type"] == "ack"
        await pilot.press("g")
        await until(pilot, lambda: bool(screen.refusals), "the refusal")
        assert screen.refusals[-1].startswith("leaving was refused: ")
        assert "Traceback" not in message(screen)
        assert message(screen).startswith("✗ Leaving was refused: ")
        assert not app.left_for_good
        await pilot.press("q")  # no seat to leave any more: the terminal closes
        await closed(app)
    await bob_seat.close()
