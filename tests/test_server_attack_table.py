"""The second attack on the server, at the table (issue 30, findings 4 to 9), against a real
``rummy500 serve`` on loopback, as a stranger on the internet would try it: a game nobody
ends, undo to preview the computer players' replies, chat floods from many connections,
chat line numbers across tables, names that cannot be read or pass for someone else, and
Play again tables beyond ``--tables-per-hour``."""

from __future__ import annotations

import asyncio
import random
import time
import unicodedata
from typing import Any

import pytest

from rummy500.game import DEAD_DEALS
from rummy500.net.client import ServerError, TableConnection
from rummy500.rules import DEAL_LIMIT
from serverkit import ServerProcess, Servers, moves_of, play_out, seat_body
from talkkit import answer_to, frame_of, send

pytestmark = pytest.mark.asyncio

RATE_PAUSE = 0.06
"""Between two frames of one connection: under its limit of 20 a second."""


@pytest.fixture
def lone(servers: Servers, sqlite_url: str) -> ServerProcess:
    return servers.start(sqlite_url)


async def refusal(call: Any) -> ServerError:
    """The error a call to the API answers with (it must fail)."""
    try:
        await call
    except ServerError as error:
        return error
    raise AssertionError("the server took it")


# -- 4. a game nobody ends ------------------------------------------------------------------


def quiet(legal: list[str]) -> str:
    """A move that puts no card on the table: draw, end the deal, pass, else a discard."""
    for wanted in ("draw", "end", "pass"):
        if wanted in legal:
            return wanted
    return next(move for move in legal if move.startswith("discard"))


async def test_a_game_in_which_nobody_melds_ends(lone: ServerProcess) -> None:
    """Two people who never meld, every deal ending on the stock: the game ends after
    DEAD_DEALS deals, the leader winning, and its welcome holds those deals' sheets only."""
    made = await lone.api.create_table(seat_body(
        "person", "person", seed=30, rules={"preset": "classic", "hand_size_two": 20}))
    bo_seat = await lone.api.take_seat(made["table"], 1, "Bo")
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    bo = await TableConnection.open(lone.base, made["table"], bo_seat["token"])
    seats = {0: ann, 1: bo}
    started = time.monotonic()
    while not ann.state.get("over"):
        assert ann.state["deal"] <= DEAD_DEALS, "the game went on past its dead deals"
        assert time.monotonic() - started < 120
        mover = next((c for c in seats.values() if c.state.get("legal")), None)
        if mover is None:
            await ann.next(30)
            continue
        await asyncio.sleep(RATE_PAUSE)
        answer = await mover.move(quiet(mover.state["legal"]))
        assert answer["type"] == "ack", answer
        other = bo if mover is ann else ann
        await other.until(mover.seq, 30)
    summary = await lone.api.summary(made["table"])
    assert summary["status"] == "over" and summary["deal"] == DEAD_DEALS
    totals = summary["totals"]
    assert all(total < 0 for total in totals)  # every hand counted against its holder
    record = await lone.api.record(made["table"])
    assert len(record["rounds"]) == DEAD_DEALS
    welcome = await TableConnection.open(lone.base, made["table"], None)
    assert len(welcome.state["deals"]) == DEAD_DEALS and welcome.state["over"]
    last = welcome.state["deals"][-1]["standing"]
    assert ("draw" in last) if totals[0] == totals[1] else ("wins the game" in last)
    for connection in (ann, bo, welcome):
        await connection.close()


async def test_a_table_may_not_ask_for_a_game_longer_than_the_deal_limit(
        lone: ServerProcess) -> None:
    error = await refusal(lone.api.create_table(seat_body(
        "person", "expert", rules={"preset": "classic", "max_deals": 1000})))
    assert (error.status, error.code) == (400, "bad_rules")
    assert f"at most {DEAL_LIMIT}" in error.message
    assert (await lone.api.create_table(seat_body(
        "person", "expert", rules={"preset": "classic", "max_deals": DEAL_LIMIT})))["table"]


# -- 5. undo to preview the computer players' replies --------------------------------------


async def test_undo_does_not_go_back_past_a_computer_players_discard(
        lone: ServerProcess) -> None:
    """Taken back, the computer player's discard would come again, and the person would
    know its reply (and, when it threw the card it drew, the next card of the stock)."""
    made = await lone.api.create_table(seat_body("person", "simple", seed=21))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    rng = random.Random(5)
    for _ in range(20):
        while not ann.state.get("legal"):
            await ann.next(30)
        deal, before = ann.state["deal"], len(moves_of(ann.state))
        await asyncio.sleep(RATE_PAUSE)
        assert (await ann.move("draw"))["type"] == "ack"
        await asyncio.sleep(RATE_PAUSE)
        discard = rng.choice([m for m in ann.state["legal"] if m.startswith("discard")])
        assert (await ann.move(discard))["type"] == "ack"
        while not ann.state.get("legal"):
            await ann.next(30)
        replies = moves_of(ann.state)[before + 2:]
        if ann.state["deal"] == deal and [r.split()[0] for r in replies] == ["draw", "discard"]:
            break
    else:
        raise AssertionError("the computer player never drew and discarded in 20 turns")
    seq = ann.seq
    assert ann.state["can_undo"] is False
    blocked = await answer_to(ann, await send(ann, "undo"))
    assert (blocked["type"], blocked["code"]) == ("refused", "undo_blocked")
    assert f"shown cards ({replies[1]})" in blocked["message"]
    assert ann.seq == seq and moves_of(ann.state)[-1] == replies[1]  # nothing taken back
    await ann.close()


# -- 6. chat floods from many connections ---------------------------------------------------


CHAT_LIMITS = ("--chat-lines-per-seat", "6", "--chat-lines-per-address", "20")
"""The defaults, given again after the tests' own (which lift them)."""


async def heard_lines(watcher: TableConnection, seconds: float) -> list[dict[str, Any]]:
    """The chat lines a watcher hears for ``seconds``."""
    lines: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = await watcher.next(left)
        except TimeoutError:
            break
        if frame.get("type") == "chat":
            lines.append(frame)
    return lines


async def flood(connections: list[TableConnection], lines: int) -> list[dict[str, Any]]:
    """Each connection says ``lines`` lines, under its own frame limit; every answer
    (``refused``) to them."""
    async def say(connection: TableConnection, index: int) -> list[dict[str, Any]]:
        ids = []
        for line in range(lines):
            ids.append(await send(connection, "chat", text=f"flood {index}.{line}"))
            await asyncio.sleep(RATE_PAUSE)
        answers = []
        deadline = time.monotonic() + 3
        while (left := deadline - time.monotonic()) > 0:
            try:
                frame = await connection.next(left)
            except TimeoutError:
                break
            if frame.get("type") == "refused" and frame.get("id") in ids:
                answers.append(frame)
        return answers

    told = await asyncio.gather(*(say(c, i) for i, c in enumerate(connections)))
    return [answer for answers in told for answer in answers]


async def test_one_seat_with_many_connections_says_only_its_share(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=CHAT_LIMITS)
    made = await server.api.create_table(seat_body("person", "expert", seed=6))
    watcher = await TableConnection.open(server.base, made["table"], None)
    many = [await TableConnection.open(server.base, made["table"], made["token"])
            for _ in range(10)]
    listening = asyncio.ensure_future(heard_lines(watcher, 6))
    refused = await flood(many, 5)  # 50 lines, 5 from each connection
    heard = await listening
    assert len(heard) == 6, len(heard)
    assert len(refused) == 44 and {r["code"] for r in refused} == {"rate_limited"}
    assert "a seat says at most 6 lines in 10 seconds" in refused[0]["message"]
    for connection in (watcher, *many):
        await connection.close()


async def test_one_address_says_only_its_share_over_many_seats(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=CHAT_LIMITS)
    seats = []
    for seed in range(5):
        made = await server.api.create_table(seat_body("person", "expert", seed=seed))
        seats.append(await TableConnection.open(server.base, made["table"], made["token"]))
    refused = await flood(seats, 5)  # 25 lines, 5 from each seat: each within its own 6
    assert len(refused) == 5 and {r["code"] for r in refused} == {"rate_limited"}
    assert all("from one address" in r["message"] for r in refused)
    for connection in seats:
        await connection.close()


# -- 7. line numbers per table --------------------------------------------------------------


async def test_chat_lines_are_numbered_per_table(lone: ServerProcess) -> None:
    first = await lone.api.create_table(seat_body("person", "expert", seed=1))
    second = await lone.api.create_table(seat_body("person", "expert", seed=2))
    ann = await TableConnection.open(lone.base, first["table"], first["token"])
    bo = await TableConnection.open(lone.base, second["table"], second["token"])
    numbers: dict[str, list[int]] = {"ann": [], "bo": []}
    for who, connection, count in (("ann", ann, 3), ("bo", bo, 2), ("ann", ann, 1)):
        for line in range(count):
            await send(connection, "chat", text=f"{who} {line}")
            numbers[who].append((await frame_of(connection, "chat"))["n"])
            await asyncio.sleep(RATE_PAUSE)
    assert numbers == {"ann": [1, 2, 3, 4], "bo": [1, 2]}
    late = await TableConnection.open(lone.base, second["table"], None)
    assert [line["n"] for line in late.state["chat"]] == [1, 2]
    for connection in (ann, bo, late):
        await connection.close()


# -- 8. names and lines that cannot be read or pass for someone else --------------------------


UNREADABLE = {
    "\u3164": "invisible characters (U+3164)",  # Hangul filler
    "\u2800\u2800": "invisible characters (U+2800)",  # blank braille
    "\u0301\u0308\u0327": "must not start with an accent or mark",
    "Ann\u3164": "invisible characters (U+3164)",
    "Z\u0351\u0352\u0357\u035b\u0361\u0300\u0301\u0316": "accents or marks on one character",
    "Ann\ufdfd": "drawn many letters wide",
    "\u0410nn": "must not mix Latin and Cyrillic letters",  # a Cyrillic А
    "Ехрert": "must not mix Latin and Cyrillic letters",
    "...": "must hold a letter or a digit",
}
PASSING_FOR_OTHERS = ["Expert", "expert 2", "EXPERT", "Exp3rt", "You", "you & Bo", "Seat 1",
                      "Seat 2", "Random", "Simple", "MCTS", "Computer", "Stand-in"]


async def test_names_that_cannot_be_read_or_pass_for_someone_else_are_refused(
        lone: ServerProcess) -> None:
    made = await lone.api.create_table(
        {"players": 4, "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person"},
                                 {"kind": "person"}, {"kind": "bot", "bot": "expert"}]})
    table = made["table"]
    for name, words in UNREADABLE.items():
        error = await refusal(lone.api.take_seat(table, 1, name))
        assert (error.status, error.code) == (400, "bad_name"), name
        assert words in error.message, (name, error.message)
    for name in PASSING_FOR_OTHERS:
        error = await refusal(lone.api.take_seat(table, 1, name))
        assert (error.status, error.code) == (400, "bad_name"), name
        assert "is what the table calls someone else" in error.message, error.message
    # Ann is taken, in any case, with look-alike letters or digits, spaced or dotted.
    for name in ("Ann", "ann", "ANN", "A.nn", "A n n"):
        error = await refusal(lone.api.take_seat(table, 1, name))
        assert (error.status, error.code) == (409, "name_taken"), name
        assert "another player at this table is called Ann" in error.message
    bill = await lone.api.take_seat(table, 1, "Bill")
    for name in ("B1ll", "BiII", "bill"):
        error = await refusal(lone.api.take_seat(table, 2, name))
        assert (error.status, error.code) == (409, "name_taken"), name
    # Real names of every kind pass: accents, other alphabets, Japanese with Latin.
    for index, name in enumerate(("Zoë", "Łukasz", "Владимир", "山田 Taro", "Nguyễn")):
        other = await lone.api.create_table(seat_body("person", "person", seed=index))
        assert (await lone.api.take_seat(other["table"], 1, name))["seat"] == 1
    assert (await lone.api.take_seat(table, 2, "Annie"))["seat"] == 2
    # Two seats named alike at the start are refused too.
    error = await refusal(lone.api.create_table(
        {"players": 2, "seats": [{"kind": "person", "name": "Bo"},
                                 {"kind": "person", "name": "bo"}]}))
    assert (error.status, error.code) == (400, "bad_name")
    del bill


async def test_lines_that_cannot_be_read_are_refused(lone: ServerProcess) -> None:
    made = await lone.api.create_table(seat_body("person", "expert", seed=8))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    for text, words in (("\ufdfd" * 200, "drawn many letters wide"),
                        ("he" + "\u0301\u0316\u0351\u0352\u0357" * 6 + "llo",
                         "accents or marks on one character"),
                        ("\u2800" * 20, "the line is empty")):
        answer = await answer_to(ann, await send(ann, "chat", text=text))
        assert (answer["type"], answer["code"]) == ("refused", "bad_chat")
        assert words in answer["message"]
        await asyncio.sleep(RATE_PAUSE)
    for text in ("café crème, ça va ?", "\ufdfd good luck", "שָׁלוֹם", "👍👍 nice"):
        await send(ann, "chat", text=text)
        assert (await frame_of(ann, "chat"))["text"] == unicodedata.normalize("NFC", text)
        await asyncio.sleep(RATE_PAUSE)
    await ann.close()


# -- 9. Play again tables count ---------------------------------------------------------------


async def test_play_again_tables_count_in_the_tables_an_hour(servers: Servers,
                                                             sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--tables-per-hour", "2"))
    body = seat_body("person", "random", seed=9,
                     rules={"preset": "classic", "max_deals": 1, "hand_size_two": 20})
    rng = random.Random(9)
    made = await server.api.create_table(body)  # the first of two
    async with await TableConnection.open(server.base, made["table"], made["token"]) as ann:
        await play_out(ann, rng)
    again = await server.api.again(made["table"], made["token"])  # the second of two
    async with await TableConnection.open(server.base, again["table"], again["token"]) as ann:
        await play_out(ann, rng)
    error = await refusal(server.api.again(again["table"], again["token"]))
    assert (error.status, error.code) == (429, "too_many_tables")
    assert "at most 2 new tables an hour" in error.message
    error = await refusal(server.api.create_table(body))
    assert (error.status, error.code) == (429, "too_many_tables")
