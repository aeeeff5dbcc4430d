"""Real ``rummy500 serve`` processes for the server tests: on loopback, on a free port,
over a SQLite file or a scratch PostgreSQL database.

``server`` (on SQLite, then on PostgreSQL) and ``shared_sqlite`` (the modules' ``lone``)
are shared: one process of each kind for each pytest(-xdist) worker, for the tests that
make their own tables, read nothing the whole server counts (its connections, tables or
metrics) and stop nothing. A test that restarts, kills or limits a server, or reads what it
counts, starts its own with ``servers.start`` (or ``own_server``).

PostgreSQL is the machine's (127.0.0.1:5432, or ``RUMMY500_TEST_POSTGRES``).
``postgres_url`` is a new database for the one test, dropped afterwards (for a test that
counts the rows of a table, or drops the database); ``database_url`` and the shared
server use databases made once for each worker (tests leave their tables behind there,
each under new ids). Where PostgreSQL is unreachable the tests are skipped, except in CI
(``RUMMY500_CI=1``), where they fail.

The test servers take frames as fast as they come (``--frames-per-second`` is lifted for
them: :data:`TEST_FLAGS`); a test of that limit gives :data:`RATE_LIMITED`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rummy500.game import Game
from rummy500.net.client import TableConnection
from rummy500.server import process as _process
from rummy500.server.process import ServerProcess as ServerProcess  # for the tests
from rummy500.server.process import start_server as start_server_process
from rummy500.server.settings import ServerSettings

_testing: list[pytest.Item] = []
"""The test being run (its setup, call and teardown)."""


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> None:
    _testing[:] = [item]


def _marked_start_command(*args: Any, **kwargs: Any) -> ServerProcess:
    """:func:`rummy500.server.process.start_command`, only in a test marked ``server``:
    the tiers (tests/conftest.py) read the fixtures a test uses, so a test that starts a
    server must ask for one that does (``servers`` at least)."""
    if _testing and _testing[0].get_closest_marker("server") is None:
        pytest.fail(f"{_testing[0].nodeid} starts a server without asking for a fixture that "
                    "does (servers, server, shared_sqlite, ...): it would run in the fast tier",
                    pytrace=False)
    return _start_command(*args, **kwargs)


_start_command = _process.start_command
_process.start_command = _marked_start_command

POSTGRES_ADMIN = os.environ.get("RUMMY500_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def postgres_unreachable(reason: str) -> None:
    if os.environ.get("RUMMY500_CI") == "1":
        pytest.fail(f"PostgreSQL is needed in CI: {reason}")
    pytest.skip(f"PostgreSQL is unreachable: {reason}")


@contextmanager
def scratch_database() -> Iterator[str]:
    """A new PostgreSQL database (its URL), dropped at the end."""
    try:
        import psycopg
    except ImportError as error:
        postgres_unreachable(str(error))
    name = f"rummy500_test_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        postgres_unreachable(str(error))
    base = POSTGRES_ADMIN.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh scratch PostgreSQL database of the test's own, dropped after it."""
    with scratch_database() as url:
        yield url


@pytest.fixture(scope="session")
def worker_postgres_url() -> Iterator[str]:
    """A scratch PostgreSQL database for this worker's ``database_url`` tests, made once."""
    with scratch_database() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test that takes this runs once on SQLite (a new file) and once on PostgreSQL
    (the worker's database, where the test's processes are the only ones while it runs)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    url: str = request.getfixturevalue("worker_postgres_url")
    return url


TEST_FLAGS = ("--allow-seeds", "--tables-per-hour", "100000", "--open-tables-per-address",
              "100000", "--connections-per-address", "100000", "--hints-per-minute", "100000",
              "--replays-per-minute", "100000", "--chat-lines-per-seat", "100000",
              "--chat-lines-per-address", "100000", "--frames-per-second", "100000")
"""The tests' servers take seeds (reproducible games) and leave the limits per address
(all tests come from 127.0.0.1) and the frames a second out of the way; a test of a limit
gives it again after these (the last value given wins)."""
RATE_LIMITED = ("--frames-per-second", str(ServerSettings().frames_per_second))
"""The default limit of frames a second, for a server whose test is about it."""


def start_server(database: str, log_dir: Path, *, pace: float = 0.0,
                 extra: tuple[str, ...] = ()) -> ServerProcess:
    """A serve process for the tests (:func:`rummy500.server.process.start_server` with
    :data:`TEST_FLAGS` before ``extra``)."""
    return start_server_process(database, log_dir, pace=pace, extra=(*TEST_FLAGS, *extra))


class Servers:
    """The serve processes of one test, stopped at its end."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.started: list[ServerProcess] = []

    def start(self, database: str, *, pace: float = 0.0,
              extra: tuple[str, ...] = ()) -> ServerProcess:
        server = start_server(database, self.log_dir, pace=pace, extra=extra)
        self.started.append(server)
        return server

    def stop_all(self) -> None:
        """Stop each (SIGTERM, then kill -9 after 30 s) while the next test begins: a
        process takes about a second to go. The session waits for them at its end."""
        for server in self.started:
            stopping = threading.Thread(target=server.stop, daemon=True)
            stopping.start()
            _stopping.append(stopping)


_stopping: list[threading.Thread] = []
"""The serve processes of tests that have ended, going."""


def pytest_sessionfinish() -> None:
    for stopping in _stopping:
        stopping.join(60)


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    started = Servers(tmp_path / "logs")
    yield started
    started.stop_all()


@pytest.fixture
def own_server(servers: Servers, database_url: str) -> ServerProcess:
    """A serve process of the test's own, on SQLite, then on PostgreSQL: for a test that
    reads what the whole server counts."""
    return servers.start(database_url)


class SharedServer:
    """One worker's serve process on one database, for the tests that can share it:
    started when a test first asks for it."""

    def __init__(self, database: str, log_dir: Path) -> None:
        self.database = database
        self.log_dir = log_dir
        self.process: ServerProcess | None = None

    def get(self) -> ServerProcess:
        if self.process is not None and not self.process.running():
            gone, self.process = self.process, None  # the next test gets a new one
            raise AssertionError(f"the shared server on {self.database} has gone:\n"
                                 f"{gone.errors()}")
        if self.process is None:
            self.process = start_server(self.database, self.log_dir)
        return self.process

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()


@pytest.fixture(scope="session")
def shared_sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedServer]:
    folder = tmp_path_factory.mktemp("shared-sqlite")
    shared = SharedServer(f"sqlite:///{folder / 'tables.db'}", folder / "logs")
    yield shared
    shared.stop()


@pytest.fixture(scope="session")
def shared_postgresql_server(tmp_path_factory: pytest.TempPathFactory,
                             ) -> Iterator[SharedServer]:
    with scratch_database() as url:
        shared = SharedServer(url, tmp_path_factory.mktemp("shared-postgresql") / "logs")
        yield shared
        shared.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest) -> ServerProcess:
    """The worker's shared serve process on SQLite, then on PostgreSQL (the module's words
    say who may share it)."""
    shared: SharedServer = request.getfixturevalue(f"shared_{request.param}_server")
    return shared.get()


@pytest.fixture
def shared_sqlite(shared_sqlite_server: SharedServer) -> ServerProcess:
    """The worker's shared serve process on SQLite."""
    return shared_sqlite_server.get()


def metrics_url(server: ServerProcess) -> str:
    """Where ``server`` serves GET /metrics: on a port of its own, which it names at start."""
    for line in server.lines:
        if "metrics on " in line:
            return line.split("metrics on ", 1)[1].strip()
    raise AssertionError(f"{server.base} did not say where its metrics are: {server.lines}")


async def summary_once(server: ServerProcess, table: str,
                       done: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """The table's summary from ``server`` once ``done`` holds for it: a process learns what
    another changed by the database's notice, a moment later (at most 10 s)."""
    for _ in range(200):
        summary = await server.api.summary(table)
        if done(summary):
            return summary
        await asyncio.sleep(0.05)
    raise AssertionError(f"{server.base} never reached {what}: {summary}")


async def http_answer(base: str, path: str, method: str = "GET",
                      data: bytes | None = None) -> tuple[int, dict[str, Any]]:
    """The status and JSON answer of one request to ``base + path``, an error's too (the Api
    raises on errors and does not tell 200 from 201); a POST without ``data`` sends ``{}``."""
    if method == "POST" and data is None:
        data = b"{}"

    def send() -> tuple[int, dict[str, Any]]:
        request = urllib.request.Request(base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    return await asyncio.to_thread(send)


# -- playing -------------------------------------------------------------------------------


async def play_out(connection: TableConnection, rng: random.Random, *, until_seq: int | None = None,
                   pause: float = 0.0, timeout: float = 120.0) -> int:
    """Play random legal moves for this seat until the game is over (or the table reaches
    ``until_seq``); the number of moves made. ``pause``: a wait before each move (the test
    servers take moves as fast as they come)."""
    made = 0
    while not connection.state.get("over") and (until_seq is None or connection.seq < until_seq):
        legal = connection.state.get("legal")
        if legal:
            if pause:
                await asyncio.sleep(pause)
            answer = await connection.move(rng.choice(legal), timeout=timeout)
            if answer["type"] == "ack":
                made += 1
            elif answer.get("code") != "stale":
                raise AssertionError(f"a legal move was not made: {answer}")
        else:
            await connection.next(timeout)
    return made


def seat_body(*kinds: str, **extra: Any) -> dict[str, Any]:
    """A POST /api/tables body: ``person`` or a bot name per seat."""
    seats = [{"kind": "person"} if kind == "person" else {"kind": "bot", "bot": kind}
             for kind in kinds]
    return {"players": len(kinds), "seats": seats, **extra}


# -- the truth -----------------------------------------------------------------------------


def public_event(event: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """An update's event without its words (which differ from reader to reader): the seat
    and move, or the deal and dealer, that every reader is told alike."""
    if event is None:
        return None
    return {key: event[key] for key in ("seat", "move", "deal", "dealer") if key in event}


TABLE_FIELDS = ("next", "chat", "waiting_for", "pause_left", "clock", "can_undo", "bank",
                "watchers")
"""What the server adds to a state beyond the engine's view of the seat: the next game,
the talk, the pacing and how many watch (docs/protocol.md)."""


def engine_part(state: Mapping[str, Any]) -> dict[str, Any]:
    """A state without :data:`TABLE_FIELDS`: what the engine's ``seat_state`` gives."""
    return {key: value for key, value in state.items() if key not in TABLE_FIELDS}


def moves_of(state: Mapping[str, Any]) -> list[str]:
    """The moves of the deal in play, from a state's history (its first entry is the deal)."""
    return [entry["move"] for entry in state["history"] if "move" in entry]


def replay_changes(record: Mapping[str, Any], *, swap_copies: bool = False,
                   ) -> Iterator[tuple[int, Game, dict[str, Any] | None]]:
    """A finished table's changes, replayed by the engine from its record
    (GET /api/tables/<id>/record): for each ``seq`` from 0, the game right after that
    change (one :class:`Game`, changed in place between yields) and the change's public
    event as docs/protocol.md writes it (None for change 0, the table waiting).

    ``swap_copies``: in a two-pack game every card is the other pack's copy of the
    record's (the faces, and so the record, are the same). At the end the game is checked
    against :func:`rummy500.record.replay` of the whole record.
    """
    from rummy500.moves import parse_move
    from rummy500.record import cards_from_faces, replay
    from rummy500.rules import rules_from_record

    rules = rules_from_record(record["rules"])
    players: int = record["players"]
    rounds: list[dict[str, Any]] = record["rounds"]
    swap = 64 if swap_copies and rules.deck_count(players) == 2 else 0

    def physical(faces: list[str]) -> list[int]:
        return [card ^ swap for card in cards_from_faces(faces, rules, players)]

    game = Game(rules, players, dealer=rounds[0]["dealer"], auto_deal=False,
                rng=random.Random(0))
    seq = 0
    yield seq, game, None
    for number, round_data in enumerate(rounds, 1):
        deal = game.start_deal(physical(round_data["deck"]),
                               [physical(order) for order in round_data.get("restock", [])],
                               round_data["dealer"])
        deal.set_restocks(deal.restock_orders, None)
        seq += 1
        yield seq, game, {"deal": number, "dealer": deal.dealer}
        for text in round_data["moves"]:
            seat = game.turn
            game.play(parse_move(text))
            seq += 1
            yield seq, game, {"seat": seat, "move": text}
    truth = replay(record)
    assert game.finished and truth.finished
    assert (game.totals, game.results, game.winner) == (truth.totals, truth.results,
                                                        truth.winner)


def with_states(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``frames`` with each welcome and update carrying, under ``state``, the whole state
    its client holds after it (version 3 updates folded as :mod:`rummy500.net.protocol` folds
    them), in version 2's form, and under ``sent`` the frame as it came: so one check holds
    frames of either version."""
    from rummy500.net.protocol import apply_frame
    from rummy500.session.seat_state import version2

    state: dict[str, Any] = {}
    seq = -1
    shown = []
    for frame in frames:
        state, seq = apply_frame(state, seq, frame)
        if frame.get("type") in ("welcome", "update"):
            frame = {**frame, "state": version2(dict(state)), "sent": frame}
        shown.append(frame)
    return shown
