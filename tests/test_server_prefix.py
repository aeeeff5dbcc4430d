"""A table that starts at a chosen position (``moves`` in ``POST /api/tables``, tests only:
:mod:`rummy500.server.prefix`): refused without ``--allow-seeds`` and a seed, every move
checked with a clear refusal, and the moves stored as the table's first ordinary changes,
whether the table starts as it is made or when its last seat is taken."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummy500.game import Game
from rummy500.net.client import ServerError, TableConnection
from rummy500.rules import make_rules
from rummy500.server.apierror import ApiError
from rummy500.server.tables import table_spec
from serverkit import ServerProcess, moves_of, seat_body


def opening(seed: int, players: int, count: int, *, turn: int | None = None,
            deals: int = 1, **rules: Any) -> list[str]:
    """At least ``count`` moves of a table seeded ``seed`` (drawing and discarding), on
    until ``deals`` deals have been dealt and it is ``turn``'s move."""
    game = Game(make_rules("classic", **rules), players, rng=random.Random(seed),
                auto_deal=False)
    game.start_deal()
    moves: list[str] = []
    while len(moves) < count or len(game.deals) < deals or turn not in (None, game.turn):
        legal = [str(move) for move in game.legal_moves()]
        move = "draw" if "draw" in legal else next(
            (m for m in legal if m.startswith("discard ")), legal[0])
        game.play(move)
        moves.append(move)
        if game.finished:
            return moves
        if game.deal.over:
            game.start_deal()
    return moves


def refusal(body: dict[str, Any], *, allow_seeds: bool = True) -> ApiError:
    with pytest.raises(ApiError) as caught:
        table_spec(body, allow_seeds=allow_seeds)
    return caught.value


def test_moves_are_refused_without_allow_seeds_or_a_seed() -> None:
    moves = opening(3, 2, 2)
    error = refusal({"seed": 3, "moves": moves}, allow_seeds=False)
    assert (error.status, error.code) == (400, "seeds_disabled")
    error = refusal({"moves": moves}, allow_seeds=False)
    assert (error.status, error.code) == (400, "moves_disabled")
    error = refusal({"moves": moves})
    assert (error.code, error.message) == ("bad_moves", "moves to start from need the "
                                                        "table's seed")


@pytest.mark.parametrize("moves", ["draw", [1, 2], ["draw", None], ["x" * 201]])
def test_moves_must_be_a_list_of_short_texts(moves: Any) -> None:
    error = refusal({"seed": 3, "moves": moves})
    assert (error.status, error.code) == (400, "bad_moves")
    assert "moves must be a list" in error.message


def test_the_first_move_that_cannot_be_made_is_named() -> None:
    moves = opening(3, 2, 4)
    error = refusal({"seed": 3, "moves": [*moves, "discard"]})
    assert (error.status, error.code) == (400, "bad_moves")
    assert error.message.startswith("move 5 ('discard', seat ")
    error = refusal({"seed": 3, "moves": [moves[0], "draw"]})
    assert error.message.startswith("move 2 ('draw', seat ")
    error = refusal({"seed": 3, "moves": ["meld 2c 3c 4c"]})
    assert error.code == "bad_moves" and "move 1 ('meld 2c 3c 4c'" in error.message


def test_moves_may_cross_a_deal_but_not_end_the_game() -> None:
    rules = make_rules("classic", max_deals=1, target_score=None)
    whole = opening(3, 2, 10_000, max_deals=1, target_score=None)  # to the end
    error = refusal({"seed": 3, "rules": rules.to_record(), "moves": whole})
    assert error.code == "bad_moves" and "ends the game" in error.message
    spec, _ = table_spec({"seed": 3, "rules": rules.to_record(), "moves": whole[:-1]},
                         allow_seeds=True)
    assert len(spec.prefix) == len(whole) - 1 and None not in spec.prefix
    two = opening(3, 2, 1, deals=2)
    spec, _ = table_spec({"seed": 3, "moves": two}, allow_seeds=True)
    assert spec.prefix.count(None) == 1 and len(spec.prefix) == len(two) + 1


@pytest.mark.asyncio
async def test_a_table_starts_with_its_moves_once_its_last_seat_is_taken(
        server: ServerProcess) -> None:
    api = server.api
    first_deal = opening(7, 2, 1, deals=2)
    moves = opening(7, 2, len(first_deal) + 3)
    made = await api.create_table(seat_body("person", "person", seed=7, moves=moves))
    summary = await api.summary(made["table"])
    assert (summary["status"], summary["seq"]) == ("waiting", 0)
    await api.take_seat(made["table"], 1, "Bob")
    summary = await api.summary(made["table"])
    # The first deal, every move, and the second deal as the first ended.
    assert (summary["status"], summary["seq"], summary["deal"]) == ("playing",
                                                                    len(moves) + 2, 2)
    async with await TableConnection.open(server.base, made["table"], made["token"]) as ann:
        assert ann.seq == len(moves) + 2
        second = moves_of(ann.state)  # the deal in play: the moves after the first deal's
        assert second == moves[len(first_deal):]


@pytest.mark.asyncio
async def test_a_table_with_every_seat_taken_starts_with_its_moves_and_plays_on(
        server: ServerProcess) -> None:
    api = server.api
    moves = opening(9, 2, 6, turn=0)
    made = await api.create_table(seat_body("person", "random", seed=9, moves=moves))
    async with await TableConnection.open(server.base, made["table"], made["token"]) as ann:
        assert ann.seq == len(moves) + 1 and ann.state["legal"]
        answer = await ann.move("draw")
        assert answer["type"] == "ack"
        assert moves_of(ann.state) == [*moves, "draw"]


@pytest.mark.asyncio
async def test_a_bad_move_is_a_clear_refusal_over_http(server: ServerProcess) -> None:
    with pytest.raises(ServerError) as caught:
        await server.api.create_table(seat_body("person", "random", seed=9,
                                                moves=["draw", "draw"]))
    assert (caught.value.status, caught.value.code) == (400, "bad_moves")
    assert "move 2 ('draw'" in str(caught.value)
