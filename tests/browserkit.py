"""The browser tests' kit: Debian's Chromium driven by Playwright against a real ``rummy500
serve`` process on loopback, and a driver that plays a seat through the page as a person does
(clicks on cards, piles, melds and buttons), choosing among the legal moves the page offers.

The tests drive Debian's ``chromium-headless-shell`` (``/usr/bin/chromium-headless-shell``):
the same Chromium release and Blink as Debian's ``chromium``, built as the headless shell that
Playwright itself runs for headless pages, and about a third less CPU a page than the full
browser's headless mode (the suite is bound by the renderer's CPU). ``RUMMY500_BROWSER`` names
another Chromium to drive instead, such as ``/usr/bin/chromium``: the whole suite passes on
either. Without the browser the browser tests skip, except in CI (``RUMMY500_CI=1``), where
they fail.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from serverkit import start_server

CHROMIUM = Path(os.environ.get("RUMMY500_BROWSER") or "/usr/bin/chromium-headless-shell")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
WAIT_MS = 20_000
"""How long a page may take to show a change (computer players think up to a few seconds)."""
WATCH_CARD_MOTION = """() => {
    // The most card animations running at once, from now on (read back as window.cardMotion).
    window.cardMotion = 0;
    const tick = () => {
        const moving = document.getAnimations().filter(
            (a) => a.effect && a.effect.target && a.effect.target.classList.contains('card'));
        window.cardMotion = Math.max(window.cardMotion, moving.length);
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
}"""
"""A page script that keeps, as ``window.cardMotion``, the most cards moving at once."""


def need_chromium() -> None:
    """Skip without Chromium, or fail in CI, where the browser tests must run."""
    if CHROMIUM.exists():
        return
    message = (f"the browser tests need Debian's Chromium at {CHROMIUM} "
               "(apt-get install chromium-headless-shell, or RUMMY500_BROWSER=/usr/bin/chromium)")
    if os.environ.get("RUMMY500_CI") == "1":
        pytest.fail(message)
    pytest.skip(message)


class Server:
    """A ``rummy500 serve`` process (:func:`serverkit.start_server`) and its HTTP API."""

    def __init__(self, database: Path, pace: float = 0.05) -> None:
        self.process = start_server(f"sqlite:///{database}", database.parent, pace=pace)
        self.url = self.process.base

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body)

    def stop(self) -> None:
        self.process.stop()


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve") / "tables.db")
    yield running
    running.stop()


class Chromium:
    """The process's Chromium, kept from one browser test to the next (across modules) and
    closed before any other test runs: Playwright's sync API marks the thread's event loop
    as running while it is started, and the asyncio tests need that loop. It stands for
    Playwright's ``Browser`` (``browser.new_context(...)``), launched again when asked
    after a close."""

    def __init__(self) -> None:
        self.manager: Any = None
        self.launched: Any = None

    def get(self) -> Any:
        if self.launched is None:
            from playwright.sync_api import sync_playwright

            self.manager = sync_playwright()
            playwright = self.manager.start()
            self.launched = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                       headless=True, args=LAUNCH_ARGS)
        return self.launched

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # pytest and others look for their own marks: no launch
            raise AttributeError(name)
        return getattr(self.get(), name)

    def close(self) -> None:
        launched, manager = self.launched, self.manager
        self.launched = self.manager = None
        try:
            if launched is not None:
                launched.close()
        finally:
            if manager is not None:
                manager.__exit__(None, None, None)


_chromium = Chromium()


@pytest.fixture(scope="module")
def browser() -> Any:
    """Chromium (one launch for each run of browser tests in a row)."""
    need_chromium()
    return _chromium


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    if nextitem is None or nextitem.get_closest_marker("browser") is None:
        _chromium.close()


class Problems:
    """Every console error, page error and Content-Security-Policy report of a page."""

    def __init__(self, page: Any) -> None:
        self.seen: list[str] = []
        page.on("console", lambda m: self.seen.append(f"console {m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.seen.append(f"page error: {e}"))

    def real(self) -> list[str]:
        """The problems, leaving out a dropped connection's reports (tests drop them) and the
        server's answers that the page shows in words (409, 422: settings or a record that
        cannot be played)."""
        expected = ("ERR_INTERNET_DISCONNECTED", "WebSocket connection",
                    "status of 409", "status of 422")
        return [p for p in self.seen if not any(e in p for e in expected)]


MOTION: dict[str, Any] = {"reduced_motion": "no-preference"}
"""``new_page`` options of a test that looks at the cards' motion: the others' pages ask for
reduced motion, which spares Chromium the animations' frames (most of a page's CPU)."""


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP, **options: Any) -> tuple[Any, Any]:
    options.setdefault("reduced_motion", "reduce")
    context = browser.new_context(viewport=viewport, **options)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    return context, page


# -- playing a seat through the page ------------------------------------------------------------


class Seat:
    """One person at the table page: reads what the page shows and plays by clicking."""

    def __init__(self, page: Any, *, tap: bool = False) -> None:
        self.page = page
        self.problems = Problems(page)
        self.tap = tap
        """Tap (a touch screen) rather than click."""

    def press(self, selector: str) -> None:
        if self.tap:
            self.page.tap(selector)
        else:
            self.page.click(selector)

    def seq(self) -> int:
        value = self.page.evaluate("document.body.dataset.seq")
        return -1 if value is None else int(value)

    def my_turn(self) -> bool:
        """The page shows it is this seat's turn and is ready for a move (no dialog open: a
        deal sheet that has just opened covers the table)."""
        return bool(self.page.evaluate(
            "Boolean(document.querySelector('#status.yours')) && "
            "Boolean(document.querySelector('#actions button[data-action=hint]:enabled')) && "
            "!document.querySelector('dialog[open]')"))

    def legal(self) -> list[str]:
        values: list[str] = self.page.eval_on_selector_all(
            "#legal-list option", "els => els.map(e => e.value)")
        return values

    def hand(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all(
            "#hand button.card", "els => els.map(e => e.dataset.card)")
        return cards

    def pile(self) -> list[str]:
        cards: list[str] = self.page.eval_on_selector_all(
            "#pile .card", "els => els.map(e => e.dataset.card)")
        return cards

    def meld_seats(self) -> dict[str, set[int]]:
        """Each meld's id and the seats that laid its cards."""
        found: dict[str, list[int]] = self.page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('#melds .meld')].map(m => [
                m.querySelector('.meld-id').textContent,
                [...m.querySelectorAll('.meld-card')].map(c => Number(c.dataset.by))]))""")
        return {meld: set(seats) for meld, seats in found.items()}

    def log(self) -> list[str]:
        lines: list[str] = self.page.eval_on_selector_all(
            "#log li", "els => els.map(e => e.textContent)")
        return lines

    def message(self) -> str:
        text: str = self.page.inner_text("#message")
        return text

    def wait_change(self, seq: int) -> None:
        """Wait until the page shows a table change after ``seq``."""
        self.page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)

    def clear(self) -> None:
        while self.page.query_selector("#hand button.card[aria-pressed='true']"):
            self.press("#hand button.card[aria-pressed='true']")

    def select(self, cards: list[str]) -> None:
        """Select ``cards`` in the hand (a declared joker ``*=6h`` is the hand's ``*``)."""
        self.clear()
        for card in cards:
            face = "*" if card.startswith("*") else card
            self.press(f"#hand button.card[data-card='{face}'][aria-pressed='false']")

    def play(self, move: str) -> None:
        """Make ``move`` by clicking, as a person would, and wait for the table to change."""
        seq = self.seq()
        words = move.split()
        kind = words[0]
        if kind == "draw":
            self.press("#stock button")
        elif kind == "take":
            pile = self.pile()
            face, lower = words[1].removesuffix("/2"), words[1].endswith("/2")
            index = len(pile) - 1 - pile[::-1].index(face)
            if lower:  # take 7h/2: the lower of two copies
                index = pile.index(face)
            self.press(f"#pile button[data-index='{index}']")
        elif kind == "meld":
            self.select(words[1:])
            self.press("#actions button[data-action='meld']")
            self._choose(move)
        elif kind == "layoff":
            self.select([words[1]])
            self.press(f"#melds button[data-meld='{words[2]}']")
            self._choose(move)
        elif kind == "discard":
            self.select([words[1]])
            self.press("#actions button[data-action='discard']")
        else:
            self.press(f"#actions button[data-move='{move}']")
        self.wait_change(seq)

    def _choose(self, move: str) -> None:
        chooser = self.page.locator("#chooser")
        if chooser.is_visible():
            chooser.locator(f"button[data-move='{move}']").click()


def choose_move(seat: Seat, me: int) -> str:
    """:func:`plain_choice` among the moves the page offers, as it shows the table."""
    return plain_choice(seat.legal(), seat.pile(), seat.meld_seats(), me)


def plain_choice(legal: list[str], pile: list[str], meld_seats: dict[str, set[int]],
                 me: int) -> str:
    """A plain person's choice among the legal moves: take deep from the pile whenever
    possible, lay off on other players' melds first, meld the most cards, and discard the
    highest card otherwise."""
    def face(take: str) -> str:  # take 7h/2: the lower of two copies of 7h
        return take.split()[1].removesuffix("/2")

    takes = [m for m in legal if m.startswith("take ")]
    deep = [m for m in takes if pile and face(m) != pile[-1]]
    if deep:
        return min(deep, key=lambda m: pile.index(face(m)))
    if "draw" in legal:
        return "draw"
    if takes:
        return takes[0]
    claims = [m for m in legal if m.startswith("rummy ")]
    if claims:
        return claims[0]
    if "pass" in legal:
        return "pass"
    others = {meld for meld, seats in meld_seats.items() if seats - {me}}
    layoffs = [m for m in legal if m.startswith("layoff ") and "*" not in m]
    on_others = [m for m in layoffs if m.split()[2] in others]
    if on_others:
        return on_others[0]
    melds = [m for m in legal if m.startswith("meld ")]
    if melds:
        return max(melds, key=lambda m: len(m.split()))
    if layoffs:
        return layoffs[0]
    discards = [m for m in legal if m.startswith("discard ")]
    if discards:
        return max(discards, key=lambda m: "A23456789TJQK*".find(m.split()[1][0]))
    return legal[0]


# -- the lobby and joining ------------------------------------------------------------------------


def create_in_lobby(page: Any, server: Server, *, name: str, preset: str = "classic",
                    seats: list[str] | None = None, options: dict[str, Any] | None = None,
                    seed: int | None = None, takeover_s: int = 0) -> str:
    """Start a table from the lobby as a person does; the page lands at the table. ``seats``
    lists each seat as ``person`` or a computer player's name (the first person is you).
    Returns the invitation link the table page shows."""
    seats = seats or ["person", "expert"]
    page.goto(server.url + "/")
    page.select_option("#preset", preset)
    page.wait_for_function("p => document.querySelector('#preset-help').textContent.length > 0",
                           arg=preset)
    if options or seed is not None:
        page.click("#options-details summary")
    for option, value in (options or {}).items():
        field = page.locator(f"#opt-{option}")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill("" if value is None else str(value))
            field.dispatch_event("change")
    page.select_option("#players", str(len(seats)))
    for index, kind in enumerate(seats):
        page.select_option(f"#seat-kind-{index}", "person" if kind == "person" else "bot")
        if kind != "person":
            page.select_option(f"#seat-bot-{index}", kind)
    page.fill("#my-name", name)
    page.fill("#takeover", str(takeover_s))
    if seed is not None:
        page.fill("#seed", str(seed))
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#waiting:not([hidden]), #game:not([hidden])")
    link: str = page.input_value("#invite-link")
    return link


def join_by_link(page: Any, link: str, name: str) -> None:
    """Open an invitation link and take the first open seat under ``name``."""
    page.goto(link)
    page.wait_for_selector("#join:not([hidden])")
    field = page.locator("#join-seats input").first
    field.fill(name)
    page.locator("#join-seats button.primary").first.click()
    page.wait_for_selector("#waiting:not([hidden]), #game:not([hidden])")


def sheet_open(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector('#sheet').open"))


def play_deal(seats: dict[int, Seat], on_turn: Any = None, limit: int = 600) -> int:
    """Play the people's turns by :func:`choose_move` until a deal's score sheet opens;
    ``on_turn(seat, page)``, called before each move, may make the move itself (True).
    Returns the moves made."""
    made = 0
    deadline = time.monotonic() + 300
    while made < limit and time.monotonic() < deadline:
        if any(sheet_open(seat.page) for seat in seats.values()):
            return made
        for number, seat in seats.items():
            if seat.my_turn():
                if not (on_turn and on_turn(number, seat)):
                    seat.play(choose_move(seat, number))
                made += 1
                break
        else:
            time.sleep(0.1)
    raise AssertionError(f"no deal ended after {made} moves")


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page, in words, and a page wider
    than the screen: what a page must never show."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = [f"{v['id']} ({v['impact']}): {v['help']}: "
             + "; ".join(str(n.get("target")) for n in v["nodes"][:4])
             for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    width, shown = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    if width > shown:
        found.append(f"the page is {width}px wide on a {shown}px screen")
    return found


# -- a table that starts at a chosen position ----------------------------------------------------


class Table:
    """A table made through the API (:func:`make_table`): its id and each person seat's
    token, by seat."""

    def __init__(self, server: Server, table: str, tokens: dict[int, str],
                 names: dict[int, str]) -> None:
        self.server, self.id, self.tokens, self.names = server, table, tokens, names
        self.link = f"{server.url}/t/{table}"
        """The invitation link (the table page)."""

    def open(self, page: Any, seat: int, *, tap: bool = False) -> Seat:
        """``seat``'s table page in ``page``, as the browser that took the seat sees it (its
        token kept where the page keeps it), waiting until it shows the table."""
        page.goto(self.server.url + "/api/rules")  # the origin, cheaply, to reach its storage
        page.evaluate("""([table, seat, token, name]) => {
            const held = JSON.parse(localStorage.getItem('rummy500.seats') || '{}');
            held[table] = { seat, token, name, since: Date.now() };
            localStorage.setItem('rummy500.seats', JSON.stringify(held));
            localStorage.setItem('rummy500.name', name);
        }""", [self.id, seat, self.tokens[seat], self.names.get(seat, "")])
        page.goto(self.link)
        page.wait_for_selector("#waiting:not([hidden]), #game:not([hidden])")
        return Seat(page, tap=tap)


def make_table(server: Server, *, seats: list[str], seed: int, preset: str = "classic",
               options: dict[str, Any] | None = None, moves: list[str] | None = None,
               names: list[str] | None = None, takeover_s: int = 0, deal_pause_s: int = 60,
               join: bool = True) -> Table:
    """A table made through the API (no lobby): ``seats`` as :func:`create_in_lobby`'s,
    rules ``preset`` with RULES.md ``options`` over it (``{"target_score": None}``),
    ``moves`` played as its first deal starts (the server's ``moves``, docs/protocol.md);
    each person seat named from ``names`` (Ann, Bob, Cleo… by default) and, with
    ``join``, taken, so the game starts at once. ``deal_pause_s`` as the lobby's default."""
    names = names or ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
    body: dict[str, Any] = {
        "rules": {"preset": preset, **(options or {})}, "players": len(seats), "seed": seed,
        "takeover_s": takeover_s, "deal_pause_s": deal_pause_s,
        "seats": [{"kind": "person", "name": names[index]} if kind == "person"
                  else {"kind": "bot", "bot": kind} for index, kind in enumerate(seats)]}
    if moves:
        body["moves"] = moves
    made = server.post("/api/tables", body)
    tokens = {made["seat"]: made["token"]}
    people = {index: names[index] for index, kind in enumerate(seats) if kind == "person"}
    for index, name in people.items():
        if join and index not in tokens:
            taken = server.post(f"/api/tables/{made['table']}/seats/{index}", {"name": name})
            tokens[index] = taken["token"]
    return Table(server, made["table"], tokens, people)


def opening(seed: int, players: int, wanted: Any, *, preset: str = "classic",
            options: dict[str, Any] | None = None, bot: str = "simple", back: int = 0,
            limit: int = 1000) -> list[str]:
    """The moves ``bot`` makes for every seat of a table seeded ``seed`` (as the server
    deals it) until ``wanted(game)`` holds, less the last ``back`` of them: for
    :func:`make_table`'s ``moves`` (``wanted``: :func:`deal_over` for a table some moves
    before a deal's end)."""
    import random

    from rummy500.bots import make_bot
    from rummy500.game import Game
    from rummy500.rules import make_rules

    game = Game(make_rules(preset, **(options or {})), players, rng=random.Random(seed),
                auto_deal=False)
    game.start_deal()
    bots = [make_bot(bot, seed + seat) for seat in range(players)]
    moves: list[str] = []
    while not wanted(game):
        if len(moves) >= limit or game.finished:
            raise AssertionError(f"no position as wanted after {len(moves)} moves")
        move = str(bots[game.turn].decide(game.view(game.turn)).move)
        game.play(move)
        moves.append(move)
        if game.deal.over and not game.finished:
            game.start_deal()
    return moves[:len(moves) - back]


def person_to_move(wanted: Any, people: tuple[int, ...] = (0, 1)) -> tuple[Any, list[int]]:
    """An :func:`opening`'s ``wanted`` that holds where ``wanted`` does with one of
    ``people`` to move, and the list it writes that seat into once found."""
    mover: list[int] = []

    def found(game: Any) -> bool:
        if game.turn in people and wanted(game):
            mover.append(game.turn)
            return True
        return False

    return found, mover


def deal_over(deal: int) -> Any:
    """An :func:`opening`'s ``wanted``: deal number ``deal`` is over."""
    return lambda game: game.finished or len(game.deals) > deal
