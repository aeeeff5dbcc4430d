"""Issue 34, done when: a whole online game played from the terminal seat (``rummy500 play
--join``, Textual's pilot) beside a browser seat (Chromium), on a real server on loopback,
with a turn clock, a deal pause and talk, and undo against computer players with the browser
watching. The terminal runs in a thread of its own (its own event loop), since Playwright's
sync API holds the test thread's; each side waits on what the other does, as two people do.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.widgets import Input, RichLog, Static

from browserkit import DESKTOP, PHONE, Seat, Server, choose_move, new_page, serious, sheet_open
from joinkit import message, screen_of, until
from rummy500.commands.play_join import join
from rummy500.tui.remote import RemoteApp, RemoteTableScreen
from rummy500.tui.remote_pacing import OnlineSheet
from rummy500.tui.remote_talk import TalkScreen, talk_line
from rummy500.tui.tokens import HeldSeat, SeatTokens
from test_browser_talk_notice import open_seat
from tuikit import shown_text

SHOTS = Path("/tmp/rummy500-shots/terminal-online")
WIDE = (160, 50)
GAME_S = 420.0
"""The longest a whole short game may take on a busy machine."""


def log_text(screen: RemoteTableScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)


@dataclass
class Terminal:
    """What the terminal seat saw and did, read by the test's thread."""

    said: threading.Event = field(default_factory=threading.Event)
    heard: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None
    clock_seen: bool = False
    timed_out: bool = False
    undo_refusal: str = ""
    waits: list[str] = field(default_factory=list)
    sheets: int = 0
    moves: int = 0
    over_status: str = ""
    log: str = ""


def in_thread(terminal: Terminal, script: Callable[[], Any]) -> threading.Thread:
    def run() -> None:
        try:
            asyncio.run(script())
        except BaseException as error:  # handed to the test's thread
            terminal.error = error
        finally:
            terminal.done.set()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def pick(legal: list[str]) -> str:
    """A plain choice: meld, else lay off, else draw, else discard the first card offered."""
    return next((move for kind in ("meld", "layoff", "draw", "discard")
                 for move in legal if move.startswith(kind)), legal[0])


async def say(pilot: Any, app: RemoteApp, text: str) -> None:
    await pilot.press("c")
    await until(pilot, lambda: isinstance(app.screen, TalkScreen), "the talk box")
    app.screen.query_one("#talk", Input).value = text
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, TalkScreen), "the talk box closed")


async def close_sheet(pilot: Any, app: RemoteApp, screen: RemoteTableScreen,
                      sheet: OnlineSheet, terminal: Terminal) -> None:
    """Read whom a deal's sheet says the table waits for, keep a picture, close it (which
    says ``continue``)."""
    await until(pilot, lambda: bool(shown_text(sheet.waits).strip())
                or screen.state is None or not screen.state.waiting_for,
                "whom the sheet waits for", timeout=10)
    terminal.waits.append(shown_text(sheet.waits))
    terminal.sheets += 1
    app.save_screenshot(str(SHOTS / f"terminal-sheet-{terminal.sheets}.svg"))
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is not sheet, "the sheet closed")


async def terminal_game(url: str, home: Path, terminal: Terminal) -> None:
    """Ann's seat: says a line, lets one turn run out on the clock, asks for an undo, closes
    each deal's sheet (which says whom the table waits for), and plays to the game's end."""
    app = RemoteApp(await join(url, home))
    async with app.run_test(size=WIDE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.state is not None and bool(screen.state.hand),
                    "the deal", timeout=60)
        await say(pilot, app, "hello from the terminal")
        terminal.said.set()
        await until(pilot, lambda: screen.acting(), "my first turn", timeout=60)
        # The clock shows in the status line; nothing is played, so the stand-in plays.
        await until(pilot, lambda: "⏱" in shown_text(screen.query_one("#status", Static)),
                    "the clock in the status line")
        terminal.clock_seen = True
        await until(pilot, lambda: "Your time ran out" in log_text(screen), "the time-out",
                    timeout=60)
        terminal.timed_out = True
        asked_undo = False
        loop = asyncio.get_running_loop()
        end = loop.time() + GAME_S
        while not (screen.state is not None and screen.state.over):
            if loop.time() > end:
                raise AssertionError("the game did not end in time")
            if "» Bob says: hi Ann" in log_text(screen):
                terminal.heard.set()
            if isinstance(app.screen, OnlineSheet):
                await close_sheet(pilot, app, screen, app.screen, terminal)
                continue
            state = screen.state
            if (screen.acting() and screen.pending is None and state is not None
                    and state.legal and app.screen is screen):
                move = pick(list(state.legal))
                await screen.send(move)
                terminal.moves += 1
                await until(pilot, lambda: screen.pending is None, f"the answer to {move}")
                if not asked_undo and move.startswith(("meld", "discard")):
                    asked_undo = True
                    await pilot.press("u")
                    terminal.undo_refusal = message(screen)
                continue
            await pilot.pause()
            await asyncio.sleep(0.05)
        await until(pilot, lambda: "wins the game" in log_text(screen)
                    or "win the game" in log_text(screen) or "draw" in log_text(screen),
                    "the game's end in the log")
        await pilot.pause(0.5)
        terminal.over_status = shown_text(screen.query_one("#status", Static))
        terminal.log = log_text(screen)
        app.save_screenshot(str(SHOTS / "terminal-over.svg"))


def test_a_whole_online_game_from_the_terminal_beside_a_browser_seat(
        web_server: Server, browser: Any, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    made = web_server.post("/api/tables", {
        # A game of two deals (27 and 15 moves): a deal pause between them, and an end.
        "rules": {"preset": "classic", "target_score": None, "max_deals": 2}, "players": 3,
        "seed": 104,
        "turn_s": 8, "deal_pause_s": 120,
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person"},
                  {"kind": "bot", "bot": "simple"}]})
    table = made["table"]
    bob_seat = web_server.post(f"/api/tables/{table}/seats/1", {"name": "Bob"})
    SeatTokens(tmp_path).put(web_server.url, table, HeldSeat(0, made["token"], "Ann"))
    terminal = Terminal()
    thread = in_thread(terminal, lambda: terminal_game(f"{web_server.url}/t/{table}", tmp_path,
                                                       terminal))
    bob = open_seat(browser, web_server, table, 1, bob_seat["token"], DESKTOP)

    # Talk both ways: the terminal's line reaches the page, the page's the terminal's log.
    assert terminal.said.wait(90) or terminal.error, "the terminal's line"
    bob.page.wait_for_selector("#chat-lines li:has-text('hello from the terminal')")
    bob.page.fill("#chat-input", "hi Ann")
    bob.page.press("#chat-input", "Enter")

    sheets = 0
    deadline = time.monotonic() + GAME_S + 60
    while not terminal.done.is_set():
        assert time.monotonic() < deadline, "the game did not end in time"
        if sheet_open(bob.page):
            sheets += 1
            bob.page.screenshot(path=str(SHOTS / f"browser-sheet-{sheets}.png"))
            if sheets == 1:
                assert serious(bob.page) == []
            bob.page.click("#sheet-close")
            bob.page.wait_for_function("!document.querySelector('#sheet').open")
            continue
        if bob.my_turn():
            seq = bob.seq()
            try:
                bob.play(choose_move(bob, 1))
            except Exception:
                # The turn clock ran out meanwhile: the stand-in played and the table went on
                # (on a busy machine it may be Bob's turn again by now). Nothing changed: a fault.
                if bob.seq() == seq:
                    raise
            continue
        time.sleep(0.1)
    thread.join(10)
    if terminal.error is not None:
        raise terminal.error

    summary = web_server.get(f"/api/tables/{table}")
    assert summary["status"] == "over", summary
    assert terminal.clock_seen and terminal.timed_out
    assert terminal.heard.is_set(), "Bob's line in the terminal's log"
    assert "not taken back at a table with other people" in terminal.undo_refusal
    # Every deal's sheet came up in both faces; the terminal's said whom the table waited for.
    assert terminal.sheets >= 1 and sheets >= 1
    assert any("wait" in text.lower() for text in terminal.waits), terminal.waits
    # The stand-in's turn is told as the stand-in's, on both faces.
    assert "Your stand-in " in terminal.log
    assert "» You say: hello from the terminal" in terminal.log, terminal.log
    bob.page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')].some(li => "
        "/Ann's stand-in /.test(li.textContent))")
    assert "Seat 0" not in terminal.log
    bob.page.screenshot(path=str(SHOTS / "browser-over.png"))
    assert serious(bob.page) == []
    assert bob.problems.real() == []


async def undo_game(url: str, home: Path, terminal: Terminal) -> None:
    """Ann alone against computer players: a meld taken back with ``u`` (the server offers it
    as the browser does)."""
    app = RemoteApp(await join(url, home))
    async with app.run_test(size=WIDE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.acting() and screen.state is not None
                    and screen.state.phase == "draw", "my turn to draw", timeout=60)
        await pilot.press("d")
        await until(pilot, lambda: screen.acting() and screen.state is not None
                    and screen.state.phase == "play", "my turn to play")
        state = screen.state
        assert state is not None and state.legal is not None
        meld = next(move for move in state.legal if move.startswith("meld"))
        await screen.send(meld)
        await until(pilot, lambda: screen.pending is None and screen.state is not None
                    and bool(screen.state.can_undo), "the meld, undoable")
        terminal.said.set()  # the meld is on the table: the browser looks
        assert terminal.heard.wait(30)
        seq = screen.seq
        await pilot.press("u")
        await until(pilot, lambda: screen.seq > seq and screen.pending is None, "the undo")
        assert screen.state is not None and not screen.state.melds
        terminal.log = log_text(screen)
        app.save_screenshot(str(SHOTS / "terminal-undo.svg"))


def test_the_terminal_says_you_say() -> None:
    assert talk_line({"seat": 0, "name": "Ann", "text": "hi"}, 0) == "» You say: hi"
    assert talk_line({"seat": 1, "name": "Bob", "text": "hi"}, 0) == "» Bob says: hi"


def test_undo_against_computers_from_the_terminal_while_a_browser_watches(
        web_server: Server, browser: Any, tmp_path: Path) -> None:
    """Seed 3: a meld in Ann's first turn after a draw from the stock."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    made = web_server.post("/api/tables", {"players": 2, "seed": 3, "turn_s": 60,
                                           "seats": [{"kind": "person", "name": "Ann"},
                                                     {"kind": "bot", "bot": "random"}]})
    table = made["table"]
    SeatTokens(tmp_path).put(web_server.url, table, HeldSeat(0, made["token"], "Ann"))
    terminal = Terminal()
    thread = in_thread(terminal, lambda: undo_game(f"{web_server.url}/t/{table}", tmp_path,
                                                   terminal))
    _context, page = new_page(browser, PHONE, is_mobile=True, has_touch=True)
    watcher = Seat(page, tap=True)
    page.goto(f"{web_server.url}/t/{table}")
    page.tap("#watch-button")
    page.wait_for_selector("#game:not([hidden])")
    assert terminal.said.wait(90) or terminal.error, "the meld"
    page.wait_for_selector("#melds .meld")
    seq = watcher.seq()
    terminal.heard.set()
    watcher.wait_change(seq)
    page.wait_for_function("() => !document.querySelector('#melds .meld')")
    thread.join(60)
    if terminal.error is not None:
        raise terminal.error
    # Ann is told what she took back, in words (issue 34.8), the watcher whose moves they were.
    assert "You took back your meld of " in terminal.log, terminal.log
    assert "Ann took back" not in terminal.log
    page.wait_for_selector("#log li:has-text('Ann took back 1 move')")
    page.screenshot(path=str(SHOTS / "browser-watching-undo.png"))
    assert serious(page) == []
    assert watcher.problems.real() == []
