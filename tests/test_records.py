"""Game records: write any game, replay it exactly; refuse every broken or fuzzed record cleanly."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzkit import read_or_refused
from rummy500 import Game, make_rules
from rummy500.cards import face_of, iter_bits, make_pack
from rummy500.deal import IllegalMoveError
from rummy500.moves import InvalidMoveError, parse_move
from rummy500.record import (
    RecordFormatError,
    ReplayError,
    dumps,
    game_record,
    load,
    replay,
    replay_summary,
)
from rummy500.rules import Rules

CONFIGURATIONS: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {}, 2),
    ("classic", {}, 5),
    ("wild", {}, 3),
    ("simplified", {}, 4),
    ("boathouse", {}, 2),
    ("partnership", {}, 4),
    ("persian", {}, 4),
    ("classic", {"stock_exhausted": "reshuffle", "hand_size": 10}, 3),
    ("wild", {"stock_exhausted": "reshuffle", "decks": 2}, 2),
    ("classic", {"rummy_calls": True, "add_hand_to_winner": True}, 3),
    ("simplified", {"point_divisor": 5, "top_discard_must_be_used": False}, 2),
]

MAX_DEALS = 12


Positions = list[list[tuple[str, int]]]
"""Per deal, per move played: the position string and how often the stock was reshuffled."""


def play_game(rules: Rules, players: int, seed: int) -> tuple[Game, Positions]:
    """A random game (whole, or its first ``MAX_DEALS`` deals) and each deal's positions."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    positions: Positions = [[(game.deal.fen(), 0)]]
    while not game.finished and len(game.deals) <= MAX_DEALS:
        deal = game.deal
        game.play(rng.choice(game.legal_moves()), check=False)
        positions[-1].append((deal.fen(), deal.restocks))
        if game.deal is not deal:
            positions.append([(game.deal.fen(), 0)])
    return game, positions


def faces(cards: int) -> list[int]:
    return sorted(face_of(card) for card in iter_bits(cards))


def assert_same_game(replayed: Game, game: Game) -> None:
    """The replayed game is the game: every deal, move, position, result and total."""
    assert replayed.rules == game.rules and replayed.players == game.players
    assert len(replayed.deals) == len(game.deals)
    for again, deal in zip(replayed.deals, game.deals, strict=True):
        assert again.dealer == deal.dealer
        assert again.moves == deal.moves
        assert again.fen() == deal.fen()
        assert [faces(h) for h in again.hands] == [faces(h) for h in deal.hands]
        assert [faces(k) for k in again.known] == [faces(k) for k in deal.known]
        assert [face_of(c) for c in again.stock] == [face_of(c) for c in deal.stock]
        assert [face_of(c) for c in again.pile] == [face_of(c) for c in deal.pile]
        assert [m.describe() for m in again.melds] == [m.describe() for m in deal.melds]
        assert (again.turn, again.phase) == (deal.turn, deal.phase)
        assert again.credit == deal.credit
        assert (again.went_out, again.ended_by) == (deal.went_out, deal.ended_by)
        assert sorted(again.all_cards()) == sorted(deal.all_cards())
    assert replayed.results == game.results
    assert replayed.totals == game.totals
    assert (replayed.finished, replayed.winner, replayed.margin) == (
        game.finished, game.winner, game.margin)
    assert replay_summary(replayed) == replay_summary(game)


def _config_id(config: tuple[str, dict[str, Any], int]) -> str:
    preset, options, players = config
    return f"{preset}-{players}" + "".join(f",{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=_config_id)
@settings(max_examples=5)
@given(seed=st.integers(0, 2**32 - 1))
def test_replay_reproduces_random_whole_games(
    config: tuple[str, dict[str, Any], int], seed: int
) -> None:
    preset, options, players = config
    game, _positions = play_game(make_rules(preset, **options), players, seed)
    record = game_record(game)
    text = json.dumps(record)
    assert json.loads(text) == record
    assert load(dumps(game)) == record
    replayed = replay(json.loads(text))
    assert_same_game(replayed, game)
    assert game_record(replayed) == record


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=_config_id)
def test_a_record_cut_anywhere_replays_to_that_position(
    config: tuple[str, dict[str, Any], int]
) -> None:
    preset, options, players = config
    rules = make_rules(preset, **options)
    game, positions = play_game(rules, players, seed=7)
    record = game_record(game)
    rng = random.Random(3)
    for _ in range(6):
        r = rng.randrange(len(record["rounds"]))
        k = rng.randrange(len(record["rounds"][r]["moves"]) + 1)
        cut = copy.deepcopy(record)
        del cut["rounds"][r + 1:]
        del cut["rounds"][r]["moves"][k:]
        fen, restocks = positions[r][k]
        if "restock" in cut["rounds"][r]:
            del cut["rounds"][r]["restock"][restocks:]
        replayed = replay(cut)
        assert replayed.deal.fen() == fen
        assert replayed.results == game.results[:r + (k == len(positions[r]) - 1)]
        # The replayed game plays on without trouble.
        rng_play = random.Random(k)
        for _ in range(300):
            if replayed.finished:
                break
            if replayed.deal.over:
                replayed.start_deal()
            replayed.play(rng_play.choice(replayed.legal_moves()))
        again = replay(json.loads(json.dumps(game_record(replayed))))
        assert_same_game(again, replayed)


# ---------------------------------------------------------------------------
# Broken records


@cache
def _good(kind: str) -> str:
    """A good record as JSON text: a whole classic game, or one with reshuffled stocks."""
    if kind == "classic":
        game, _ = play_game(make_rules("classic"), 2, seed=11)
        assert game.finished and len(game.deals) >= 2
        return dumps(game)
    rules = make_rules("classic", stock_exhausted="reshuffle", hand_size=10)
    for seed in range(100):
        game, _ = play_game(rules, 3, seed)
        if any(deal.restocks for deal in game.deals):
            return dumps(game)
    raise AssertionError("no game reshuffled its stock")


def good(kind: str = "classic") -> dict[str, Any]:
    data = load(_good(kind))
    return data


def _reshuffled_round(data: dict[str, Any]) -> int:
    return next(r for r, rnd in enumerate(data["rounds"]) if rnd.get("restock"))


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()

BROKEN: list[tuple[str, tuple[Any, ...], Any, type[Exception], str]] = [
    ("players as text", ("players",), "2", RecordFormatError, "players must be a whole number"),
    ("players as a float", ("players",), 2.0, RecordFormatError, "whole number"),
    ("players as a boolean", ("players",), True, RecordFormatError, "whole number"),
    ("no players", ("players",), _DELETE, RecordFormatError, "whole number"),
    ("too many players", ("players",), 9, RecordFormatError, "2 to 8 players"),
    ("bad rules", ("rules",), "classic", RecordFormatError, "rules must be an object"),
    ("unknown preset", ("rules", "preset"), "chess", RecordFormatError, "unknown preset"),
    ("unknown option", ("rules", "colour"), "red", RecordFormatError, "unknown option"),
    ("bad option value", ("rules", "min_run"), 2, RecordFormatError, "min_run"),
    ("no rounds", ("rounds",), _DELETE, RecordFormatError, "rounds must be a list"),
    ("empty rounds", ("rounds",), [], RecordFormatError, "at least one round"),
    ("rounds as an object", ("rounds",), {}, RecordFormatError, "rounds must be a list"),
    ("a round as a number", ("rounds", 1), 5, RecordFormatError, "round 1 is not an object"),
    ("first dealer missing", ("rounds", 0, "dealer"), _DELETE, RecordFormatError,
     "must name its dealer"),
    ("first dealer as text", ("rounds", 0, "dealer"), "0", RecordFormatError,
     "must name its dealer"),
    ("first dealer as a boolean", ("rounds", 0, "dealer"), False, RecordFormatError,
     "must name its dealer"),
    ("first dealer out of range", ("rounds", 0, "dealer"), 2, RecordFormatError,
     "dealer must be a seat"),
    ("negative dealer", ("rounds", 0, "dealer"), -1, RecordFormatError, "dealer must be a seat"),
    ("later dealer as a boolean", ("rounds", 1, "dealer"), True, RecordFormatError,
     "dealer must be a seat"),
    ("no deck", ("rounds", 0, "deck"), _DELETE, RecordFormatError, "needs its deck"),
    ("deck as text", ("rounds", 0, "deck"), "7h Kd", RecordFormatError, "needs its deck"),
    ("a card that is no card", ("rounds", 0, "deck", 5), "Xx", RecordFormatError,
     "is not a card"),
    ("a card as a number", ("rounds", 0, "deck", 5), 7, RecordFormatError, "is not a card"),
    ("a joker in a game without", ("rounds", 0, "deck", 5), "*", RecordFormatError,
     "this game has none"),
    ("moves as text", ("rounds", 0, "moves"), "draw", RecordFormatError,
     "moves must be a list of move texts"),
    ("a move as a number", ("rounds", 0, "moves", 0), 1, RecordFormatError,
     "moves must be a list of move texts"),
    ("a move that is no move", ("rounds", 0, "moves", 0), "fly", ReplayError,
     "round 0, move 0: 'fly' is not a move"),
    ("an illegal move", ("rounds", 0, "moves", 1), "draw", ReplayError,
     "round 0, move 1: you have already drawn"),
    ("restock as text", ("rounds", 0, "restock"), "7h", RecordFormatError,
     "restock must be a list of card lists"),
    ("restock of a card", ("rounds", 0, "restock"), ["7h"], RecordFormatError,
     "restock must be a list of card lists"),
]


@pytest.mark.parametrize(("what", "path", "value", "error", "words"), BROKEN,
                         ids=[case[0] for case in BROKEN])
def test_broken_records_are_refused(
    what: str, path: tuple[Any, ...], value: Any, error: type[Exception], words: str
) -> None:
    data = _set(good(), path, value)
    with pytest.raises(error) as caught:
        replay(data)
    assert words in str(caught.value)
    # Nothing is left half made: the good record still replays as before.
    assert game_record(replay(good())) == good()


@pytest.mark.parametrize("top", [[], "record", 5, None])
def test_a_record_must_be_an_object(top: Any) -> None:
    with pytest.raises(RecordFormatError, match="a record is a JSON object"):
        load(json.dumps(top))
    with pytest.raises(RecordFormatError, match="a record is a JSON object"):
        replay(top)


@pytest.mark.parametrize("text", ["", "{", "{'rules': 1}", "[1,", "\x00"])
def test_text_that_is_not_json(text: str) -> None:
    with pytest.raises(RecordFormatError, match="not JSON"):
        load(text)


def test_a_card_removed_from_the_deck() -> None:
    data = good()
    del data["rounds"][0]["deck"][17]
    with pytest.raises(RecordFormatError, match="round 0: the pack order must hold the 52"):
        replay(data)


def test_a_duplicated_card() -> None:
    data = good()
    deck = data["rounds"][1]["deck"]
    deck[3] = deck[4]
    with pytest.raises(RecordFormatError, match="round 1: the pack order must hold"):
        replay(data)


def test_a_card_added_to_the_deck() -> None:
    data = good()
    data["rounds"][0]["deck"].append("7h")
    with pytest.raises(RecordFormatError, match="the pack order must hold"):
        replay(data)


def test_the_deal_passes_to_the_left() -> None:
    data = good()
    data["rounds"][1]["dealer"] = data["rounds"][0]["dealer"]
    with pytest.raises(ReplayError, match="round 1, move 0: the deal passes to the left"):
        replay(data)


def test_a_move_after_the_deal_is_over() -> None:
    data = good()
    data["rounds"][0]["moves"].append("draw")
    moves = len(data["rounds"][0]["moves"])
    with pytest.raises(ReplayError, match=f"round 0, move {moves - 1}: the deal is already over"):
        replay(data)


def test_a_round_after_the_game_is_over() -> None:
    data = good()
    data["rounds"].append(copy.deepcopy(data["rounds"][-1]))
    del data["rounds"][-1]["dealer"]
    with pytest.raises(ReplayError, match="already over before this round"):
        replay(data)


def test_a_round_cut_short_before_another() -> None:
    data = good()
    del data["rounds"][0]["moves"][-1]
    with pytest.raises(ReplayError, match="stops before its deal is over"):
        replay(data)


def test_an_illegal_move_names_its_place() -> None:
    data = good()
    moves = data["rounds"][1]["moves"]
    moves[4] = "discard " + ("Kd" if moves[4] != "discard Kd" else "Qd")
    with pytest.raises(ReplayError) as caught:
        replay(data)
    error = caught.value
    assert error.round == 1 and error.move >= 4
    assert error.reason and str(error).startswith(f"round 1, move {error.move}: ")


def test_a_missing_restock_is_not_invented() -> None:
    data = good("reshuffle")
    r = _reshuffled_round(data)
    del data["rounds"][r]["restock"]
    with pytest.raises(ReplayError, match="gives no restock order"):
        replay(data)


def test_a_wrong_restock_is_refused() -> None:
    data = good("reshuffle")
    r = _reshuffled_round(data)
    order = data["rounds"][r]["restock"][0]
    order.append(order[0])
    with pytest.raises(ReplayError, match=f"round {r}, move"):
        replay(data)
    data = good("reshuffle")
    data["rounds"][r]["restock"][0].pop()
    with pytest.raises(ReplayError, match="leaves out 1 card"):
        replay(data)


def test_an_unused_restock_is_refused() -> None:
    data = good()
    data["rounds"][0]["restock"] = [data["rounds"][0]["deck"][:10]]
    with pytest.raises(ReplayError, match=r"gives 1 restock order\(s\), but the stock was "
                                          r"reshuffled 0 time"):
        replay(data)
    data = good("reshuffle")
    r = _reshuffled_round(data)
    data["rounds"][r]["restock"].append(data["rounds"][r]["restock"][0])
    with pytest.raises(ReplayError, match="restock"):
        replay(data)
    # A round cut short before its reshuffle cannot name the order of a later stock.
    data = good("reshuffle")
    del data["rounds"][r + 1:]
    del data["rounds"][r]["moves"][3:]
    with pytest.raises(ReplayError, match="restock"):
        replay(data)


def test_the_reshuffle_record_replays() -> None:
    data = good("reshuffle")
    assert game_record(replay(data)) == data


def test_a_replayed_game_in_progress_goes_on() -> None:
    """A record cut after a reshuffle can be played on, through further reshuffles."""
    data = good("reshuffle")
    r = _reshuffled_round(data)
    del data["rounds"][r + 1:]
    del data["rounds"][r]["moves"][-1]
    game = replay(data)
    rng = random.Random(1)
    while not game.deal.over:
        game.play(rng.choice(game.legal_moves()))
    assert game.results


# ---------------------------------------------------------------------------
# Fuzzing


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (deep lists sampled, to keep the list short)."""
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index in range(0, len(data), max(1, len(data) // 12)):
            found += _paths(data[index], (*prefix, index))
    return found


json_leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 200), st.floats(allow_nan=False, width=32),
    st.text(max_size=6),
    st.sampled_from(["draw", "discard 7h", "take Kd", "meld 7h 8h 9h", "layoff 9h m1", "end",
                     "pass", "7h", "*", "Ks", "classic", "persian", "reshuffle", "10c"]),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=5,
)


def _mutate(data: dict[str, Any], source: st.DataObject) -> None:
    draw = source.draw
    paths = _paths(data)
    path = draw(st.sampled_from(paths))
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = draw(st.sampled_from(["set", "delete", "swap", "duplicate", "insert"]))
    if action == "set":
        parent[key] = draw(json_values)
    elif action == "delete":
        del parent[key]
    elif isinstance(parent, list) and action == "swap":
        other = draw(st.integers(0, len(parent) - 1))
        parent[key], parent[other] = parent[other], parent[key]
    elif isinstance(parent, list) and action == "duplicate":
        parent.insert(key, copy.deepcopy(parent[key]))
    elif isinstance(parent, list):
        parent.insert(key, draw(json_values))
    else:
        parent[draw(st.text(max_size=6))] = draw(json_values)


def check_fuzzed(data: Any) -> None:
    game = read_or_refused(replay, data, (RecordFormatError, ReplayError))
    if game is None:
        return
    # A record that replays gives a sound game, whose own record replays the same.
    for deal in game.deals:
        pack = make_pack(game.rules.deck_count(game.players), game.rules.jokers_in_each_deck)
        assert sorted(deal.all_cards()) == sorted(pack)
    assert_same_game(replay(json.loads(json.dumps(game_record(game)))), game)


@given(st.sampled_from(["classic", "reshuffle"]), st.data())
def test_random_mutations_of_good_records(kind: str, data: st.DataObject) -> None:
    record = good(kind)
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(record, data)
    check_fuzzed(record)


@given(json_values)
def test_fuzzed_json_records(value: Any) -> None:
    check_fuzzed(value)


@given(st.dictionaries(st.sampled_from(["rules", "players", "rounds", "deck", "dealer"]),
                       json_values, max_size=4))
def test_fuzzed_record_objects(value: dict[str, Any]) -> None:
    check_fuzzed(value)


@given(st.text(max_size=40))
def test_fuzzed_record_text(text: str) -> None:
    data = read_or_refused(load, text, RecordFormatError)
    if data is not None:
        check_fuzzed(data)


# ---------------------------------------------------------------------------
# A refused move leaves nothing behind


@given(st.integers(0, 2**32 - 1), st.lists(st.text(max_size=12), min_size=1, max_size=5))
def test_a_refused_move_changes_nothing(seed: int, attempts: list[str]) -> None:
    rng = random.Random(seed)
    game = Game(make_rules(rng.choice(["classic", "wild", "persian"])),
                4, seed=seed)
    for _ in range(rng.randrange(60)):
        game.play(rng.choice(game.legal_moves()))
    before = (game.deal.fen(), list(game.deal.moves), list(game.totals), len(game.deals))
    legal = {str(m) for m in game.legal_moves()}
    for text in [*attempts, "discard Kc", "draw", "take 2c", "layoff 7h m1", "pass"]:
        try:
            if str(parse_move(text)) in legal:
                continue
        except InvalidMoveError:
            pass
        with pytest.raises((InvalidMoveError, IllegalMoveError)):
            game.play(text)
        with pytest.raises((InvalidMoveError, IllegalMoveError)):
            game.push(text)
        assert (game.deal.fen(), list(game.deal.moves), list(game.totals),
                len(game.deals)) == before
    game.play(rng.choice(game.legal_moves()))
