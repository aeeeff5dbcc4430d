"""Undo: ``push`` and ``pop`` take back any move exactly, across deal ends, reshuffles and the
end of the game, and the random source with them, so that the same moves give the same deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummy500 import Game, make_rules
from rummy500.deal import Deal, IllegalMoveError
from rummy500.moves import DISCARD, InvalidMoveError, Move
from rummy500.record import game_record
from rummy500.rules import Rules


def game_state(game: Game) -> tuple[Any, ...]:
    deal = game.deal
    return (len(game.deals), tuple(game.results), tuple(game.totals), game.finished,
            game.winner, game.margin, game.rng.getstate(), deal.fen(), tuple(deal.hands),
            tuple(deal.pile), tuple(deal.stock), tuple(deal.melds), tuple(deal.credit),
            tuple(deal.known), deal.turn, deal.phase, deal.must_use, tuple(deal.moves),
            deal.restocks, tuple(map(tuple, deal.restock_orders)))


def push_randomly(game: Game, rng: random.Random, deals: int) -> list[tuple[Any, ...]]:
    """Push random moves until ``deals`` more deals have ended (or the game); the states."""
    states = [game_state(game)]
    target = len(game.results) + deals
    while not game.finished and len(game.results) < target:
        game.push(rng.choice(game.legal_moves()))
        states.append(game_state(game))
    return states


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [("classic", 2, {}), ("wild", 3, {}), ("persian", 4, {}), ("partnership", 4, {}),
     ("classic", 3, {"stock_exhausted": "reshuffle"}), ("wild", 5, {"rummy_calls": True})],
)
def test_popping_a_deal_end_restores_the_game(
    preset: str, players: int, options: dict[str, Any]
) -> None:
    game = Game(make_rules(preset, **options), players, seed=3)
    rng = random.Random(3)
    ends = 0
    while not game.finished and ends < 3:
        move = rng.choice(game.legal_moves())
        before = game_state(game)
        count = len(game.deals)
        game.push(move)
        if len(game.results) == ends:
            continue
        ends += 1
        after = game_state(game)
        decks = [deal.deck for deal in game.deals]
        assert game.pop() == move
        assert game_state(game) == before
        assert len(game.deals) == count and len(game.results) == ends - 1
        game.push(move)
        assert game_state(game) == after
        assert [deal.deck for deal in game.deals] == decks, "a different next deal"
    assert ends


@pytest.mark.parametrize("rules", [make_rules("classic"), make_rules("persian"),
                                   make_rules("wild", stock_exhausted="reshuffle")],
                         ids=lambda rules: rules.preset)
def test_a_whole_game_pops_back_to_its_start_and_plays_again(rules: Rules) -> None:
    players = 4 if rules.partnership else 3
    game = Game(rules, players, seed=9)
    states = push_randomly(game, random.Random(9), deals=4)
    record = game_record(game)
    moves = [move for deal in game.deals for move in deal.moves]
    popped = []
    for state in reversed(states[:-1]):
        popped.append(game.pop())
        assert game_state(game) == state
    assert popped[::-1] == moves
    for move in moves:
        game.push(move)
    assert game_state(game) == states[-1]
    assert game_record(game) == record


def test_popping_the_last_move_of_a_game() -> None:
    """Persian ends after two deals with a final bonus; undoing the last move takes it back."""
    game = Game(make_rules("persian"), 4, seed=21)
    rng = random.Random(21)
    while True:
        move = rng.choice(game.legal_moves())
        before = game_state(game)
        game.push(move)
        if game.finished:
            break
    finished = game_state(game)
    assert len(game.results) == 2
    game.pop()
    assert game_state(game) == before
    assert not game.finished and game.winner is None and game.margin == 0
    assert game.totals == [game.results[0].scores[s] for s in range(2)]
    game.push(move)
    assert game_state(game) == finished
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.push(Move("draw"))


def _to_empty_stock(seed: int) -> Game:
    """A reshuffle game at the turn that drew the last stock card, before its discard."""
    rules = make_rules("classic", stock_exhausted="reshuffle", hand_size=10)
    for attempt in range(50):
        game = Game(rules, 3, seed=seed + attempt)
        rng = random.Random(seed + attempt)
        while not game.finished and len(game.results) == 0:
            deal = game.deal
            if not deal.stock and deal.phase == "play" and deal.restocks == 0:
                discards = [m for m in game.legal_moves() if m.kind == DISCARD]
                if len(discards) >= 2 and len(deal.pile) >= 3:
                    return game
            game.push(rng.choice(game.legal_moves()))
    raise AssertionError("no game reached an empty stock")


def test_popping_a_reshuffle_restores_the_stock_and_the_random_source() -> None:
    game = _to_empty_stock(seed=4)
    deal = game.deal
    before = game_state(game)
    discards = [m for m in game.legal_moves() if m.kind == DISCARD]
    stocks = {}
    for move in discards:
        game.push(move)
        assert deal.restocks == 1 and deal.stock and len(deal.pile) == 1
        new_stock = sorted(deal.stock)
        stocks[move] = list(deal.stock)
        assert game.pop() == move
        assert game_state(game) == before
        # The new stock is the old pile (but the card now on top) with the hand's discard.
        assert len(new_stock) == len(deal.pile)
    first, second = discards[0], discards[1]
    game.push(first)
    assert deal.stock == stocks[first], "the same move after a pop reshuffles alike"
    game.pop()
    game.push(second)
    assert deal.stock == stocks[second]


def test_a_refused_push_leaves_no_trace() -> None:
    game = Game(make_rules("classic"), 2, seed=5)
    rng = random.Random(5)
    pushed = []
    for _ in range(10):
        move = rng.choice(game.legal_moves())
        game.push(move)
        pushed.append(move)
    state = game_state(game)
    for text in ("draw", "discard *", "layoff 7h m9", "fly", "take Kc"):
        try:
            if game.why_illegal(text) is None:
                continue
        except InvalidMoveError:
            pass
        with pytest.raises(ValueError):
            game.push(text)
        assert game_state(game) == state
    assert game.pop() == pushed[-1]


def test_a_copy_is_independent() -> None:
    game = Game(make_rules("wild", stock_exhausted="reshuffle"), 3, seed=8)
    rng = random.Random(8)
    for _ in range(40):
        game.play(rng.choice(game.legal_moves()))
    deal = game.deal
    fen, moves, hands = deal.fen(), list(deal.moves), list(deal.hands)
    twin: Deal = deal.copy()
    assert twin.fen() == fen
    while not twin.over:
        twin.push(rng.choice(twin.legal_moves()))
    assert (deal.fen(), deal.moves, deal.hands) == (fen, moves, hands)
    while twin.moves != moves:
        twin.pop()
    assert twin.fen() == fen
