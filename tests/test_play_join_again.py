""""Play again" in the terminal (``rummy500 play --join``): when the online game is over and
another person has made the next game, the log says so and ``n`` (in the key bar then)
takes this seat's own seat there; the screen follows the new table, its token kept. Against
a real ``rummy500 serve`` process, driven by Textual's pilot."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual.widgets import RichLog

from joinkit import play_turns_until, until
from rummy500.commands.play_join import join
from rummy500.net.client import TableConnection
from rummy500.tui.remote import RemoteApp, RemoteTableScreen
from rummy500.tui.screens import SheetScreen
from rummy500.tui.tokens import HeldSeat, SeatTokens
from serverkit import ServerProcess, play_out

BIG = (100, 40)


@pytest.fixture
def serve(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


def table_screen(app: RemoteApp) -> RemoteTableScreen | None:
    screen = app.screen
    return screen if isinstance(screen, RemoteTableScreen) else None


def log_text(screen: RemoteTableScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)


def shown_keys(app: RemoteApp) -> set[str]:
    return {binding.key for (_, binding, enabled, _) in app.screen.active_bindings.values()
            if enabled and binding.show}


@pytest.mark.asyncio
async def test_n_joins_the_next_game_in_place(serve: ServerProcess, tmp_path: Path) -> None:
    api = serve.api
    made = await api.create_table({
        "rules": {"preset": "classic", "max_deals": 1}, "players": 3, "seed": 21,
        "takeover_s": 0, "seats": [{"kind": "person", "name": "Ann"},
                                   {"kind": "person", "name": "Bob"},
                                   {"kind": "bot", "bot": "random"}]})
    table = made["table"]
    bob = await api.take_seat(table, 1, "Bob")
    SeatTokens(tmp_path).put(serve.base, table, HeldSeat(0, made["token"], "Ann"))
    joined = await join(f"{serve.base}/t/{table}", tmp_path)
    assert joined.directory == tmp_path
    app = RemoteApp(joined)
    async with app.run_test(size=BIG) as pilot:
        screen = app.screen
        assert isinstance(screen, RemoteTableScreen)
        bob_seat = await TableConnection.open(serve.base, table, bob["token"])
        bob_plays = asyncio.ensure_future(play_out(bob_seat, random.Random(2)))
        # The terminal seat plays its turns until the game is over.
        await play_turns_until(pilot, screen, lambda: screen.again_open(), "the end", timeout=90)
        await asyncio.wait_for(bob_plays, 60)
        await until(pilot, lambda: isinstance(app.screen, SheetScreen), "the last sheet")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table again")
        assert "n" in shown_keys(app)  # over: n plays again
        assert "Press n to play again" in log_text(screen)

        # Bob makes the next game: the log says so.
        following = await api.again(table, bob["token"])
        assert following["seat"] == 1
        await until(pilot, lambda: "A new game is ready" in log_text(screen), "the news")
        assert screen.state is not None and screen.state.next == following["table"]
        assert "n" in shown_keys(app)

        await pilot.press("n")
        await until(pilot, lambda: (table_screen(app) is not None
                                    and table_screen(app) is not screen), "the new table")
        new_screen = table_screen(app)
        assert new_screen is not None
        assert new_screen.joined.table == following["table"] and new_screen.joined.seat == 0
        assert app.joined is new_screen.joined
        await until(pilot, lambda: new_screen.state is not None and bool(new_screen.state.hand),
                    "the new deal")
        assert new_screen.state is not None
        assert not new_screen.state.over and new_screen.state.next is None
        assert "n" not in shown_keys(app)  # the new game goes on: no n in the key bar
        held = SeatTokens(tmp_path).get(serve.base, following["table"])
        assert held is not None and held.seat == 0 and held.token == new_screen.joined.token
        summary = await api.summary(following["table"])
        assert summary["status"] == "playing"
        assert [(s["name"], s["open"]) for s in summary["seats"][:2]] == [
            ("Ann", False), ("Bob", False)]
        await bob_seat.close()
