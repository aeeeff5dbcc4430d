"""One model through one board: for the same game and seat, the online terminal seat
(``rummy500 play --join``, its state from a real ``rummy500 serve``) shows exactly what the
local terminal table shows (the same game, dealt from the table's seed and played with the
moves the server told): the status
line, the players, the pile, the melds, the hand, the prompt and the log (each deal's
history and sheet, word for word). Both screens are drawn by Textual and read as text."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from joinkit import until
from rummy500.commands.play_join import join
from rummy500.game import Game
from rummy500.net.client import TableConnection
from rummy500.rules import rules_from_record
from rummy500.session.session import TableSession
from rummy500.session.settings import PERSON, TableSettings
from rummy500.tui.app import PlayApp
from rummy500.tui.board import Board
from rummy500.tui.remote import RemoteApp, RemoteTableScreen
from rummy500.tui.screens import SheetScreen
from rummy500.tui.table import TableScreen
from rummy500.tui.tokens import HeldSeat, SeatTokens
from serverkit import ServerProcess
from tuikit import shown_text

SIZE = (110, 44)


@pytest.fixture
def serve(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


def board_text(screen: Board) -> dict[str, Any]:
    """What a table screen shows, as text (the title of the status line aside: the online
    one says "online")."""
    def text(selector: str) -> str:
        return " ".join(str(screen.query_one(selector).render()).split())

    shown: dict[str, Any] = {selector: text(selector)
                             for selector in ("#players", "#pile", "#melds", "#hand", "#message")}
    status = " ".join(shown_text(screen.query_one("#status")).split())
    shown["status"] = status.replace(screen.TITLE_TEXT, "500 Rum", 1)
    shown["titles"] = (str(screen.pile.border_title), str(screen.hand.border_title))
    own = {line for _, line in screen.notices}  # the connection's own lines
    shown["log"] = [line for line in screen.log_lines if line not in own]
    return shown


async def online_board(server: ServerProcess, table: str, directory: Path) -> dict[str, Any]:
    app = RemoteApp(await join(f"{server.base}/t/{table}", directory))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, RemoteTableScreen)
                    and app.screen.acting(), "the online seat's turn")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RemoteTableScreen)
        screen.update_table()
        await pilot.pause()
        return board_text(screen)


def same_game(rules: dict[str, Any], players: int, seed: int,
              events: list[dict[str, Any]]) -> Game:
    """The server's game (docs/protocol.md): dealt from the table's seed, each change made
    as its event tells it."""
    game = Game(rules_from_record(rules), players, rng=random.Random(seed), auto_deal=False)
    for event in events:
        if "deal" in event:
            game.start_deal()
        else:
            assert game.turn == event["seat"]
            game.play(event["move"])
    return game


async def local_board(game: Game, seats: list[str], names: list[str],
                      options: dict[str, Any]) -> dict[str, Any]:
    settings = TableSettings(preset=str(options["preset"]), options={
        key: value for key, value in options.items() if key != "preset"},
        seats=tuple(seats), names=tuple(names), seed=1, budget=0.05)
    session = TableSession(settings, game)
    app = PlayApp(settings, None, session=session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.acting()
        await pilot.pause()
        return board_text(screen)


def my_choice(legal: list[str]) -> str:
    """Lay cards down when possible, else draw, else discard."""
    return next((move for kind in ("meld", "layoff", "draw", "discard")
                 for move in legal if move.startswith(kind)), legal[0])


@pytest.mark.asyncio
@pytest.mark.parametrize(("rules", "bots", "seed"), [
    ({"preset": "classic", "max_deals": 2, "target_score": None}, ["random"], 4),
    ({"preset": "wild", "max_deals": 2, "target_score": None}, ["random", "random"], 5),
    ({"preset": "partnership", "max_deals": 2, "target_score": None},
     ["random", "random", "random"], 6),
], ids=["classic", "wild", "partnership"])
async def test_the_online_board_shows_what_the_local_board_shows(
        serve: ServerProcess, tmp_path: Path, rules: dict[str, Any], bots: list[str],
        seed: int) -> None:
    api = serve.api
    made = await api.create_table({
        "rules": rules, "players": 1 + len(bots), "seed": seed, "takeover_s": 0,
        "seats": [{"kind": "person", "name": "Ann"},
                  *({"kind": "bot", "bot": bot} for bot in bots)]})
    table = made["table"]
    SeatTokens(tmp_path).put(serve.base, table, HeldSeat(0, made["token"], "Ann"))
    summary = await api.summary(table)
    names = [seat["name"] for seat in summary["seats"]]
    seats = [PERSON, *bots]
    compared: list[dict[str, Any]] = []
    async with await TableConnection.open(serve.base, table, made["token"],
                                          keep_frames=True) as me:
        turns = 0
        while not me.state["over"] and len(compared) < 3:
            await asyncio.wait_for(until_my_turn(me), 60)
            if me.state["over"]:
                break
            turns += 1
            melds = bool(me.state["melds"])
            if (turns == 1 or (melds and len(compared) == 1 and me.state["phase"] == "play")
                    or (me.state["deal"] == 2 and len(compared) == 2)):
                online = await online_board(serve, table, tmp_path)
                welcome = next(frame for frame in me.frames if frame["type"] == "welcome")
                events = [*welcome["state"]["history"], *(
                    frame["event"] for frame in me.frames if frame["type"] == "update")]
                game = same_game(rules, len(seats), seed, events)
                local = await local_board(game, seats, names, rules)
                assert online == local
                compared.append(online)
            answer = await me.move(my_choice(me.state["legal"]))
            assert answer["type"] == "ack", answer
    assert len(compared) == 3, [shown["status"] for shown in compared]
    assert compared[0]["log"][0].startswith("Deal 1: ")
    last = compared[-1]  # joined in deal 2: deal 1's sheet, then deal 2's history
    assert last["log"][0].startswith("Deal 1 is over: ") and last["log"][2].startswith("Deal 2: ")
    shown_melds = [shown["#melds"] for shown in compared]
    assert any(text.startswith("m1 ") for text in shown_melds), shown_melds


async def until_my_turn(me: TableConnection) -> None:
    while not (me.state.get("legal") or me.state.get("over")):
        await me.next()


def test_a_sheet_screen_reads_the_state_alone() -> None:
    """The sheet over an online table is the state's sheet: nothing is added up by the
    screen (every figure shown is one of the sheet's)."""
    from rummy500.session.seat_state import DealSheet, SheetLine

    lines = (SheetLine(0, 0, "on_table", 40, "You: on the table"),
             SheetLine(0, 0, "in_hand", -5, "You: in hand"),
             SheetLine(1, 1, "on_table", 0, "Bob: on the table"),
             SheetLine(1, 1, "in_hand", -30, "Bob: in hand"))
    sheet = DealSheet(1, 0, "You went out", "Deal 1 is over: You went out.", lines, (99, -7),
                      (99, -7), ((), ("Kc",)), (40, 0), (5, 30), "You lead with 99 (to 500).",
                      ("You", "Bob"))
    screen = SheetScreen(sheet, ["You", "Bob"], online=True)
    assert screen.sheet.scores == (99, -7)  # as sent, though its lines add up otherwise
