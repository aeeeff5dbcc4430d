"""Every game ends (issue 30, finding 4): three deals in a row with no card put on the table
end the game, and no game lasts more than ``DEAL_LIMIT`` deals; the highest total then wins,
a tie for the lead is a draw (docs/rules-decisions.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500 import Game, make_rules
from rummy500.errors import RulesError
from rummy500.game import (
    DEAD_DEALS,
    DEAD_DEALS_STOP,
    DEAL_LIMIT_STOP,
    dead_run,
    game_end,
    winner_after,
)
from rummy500.moves import DISCARD, DRAW, END, PASS, Move
from rummy500.narrate import game_end as game_end_words
from rummy500.record import game_record, replay
from rummy500.rules import DEAL_LIMIT, OPTION_DOCS
from rummy500.session.sheets import deal_sheet
from rummy500.session.words import rules_summary

SETUPS = [("classic", 2), ("classic", 3), ("wild", 2), ("wild", 4), ("simplified", 3),
          ("boathouse", 2), ("partnership", 4), ("classic", 8)]
"""Rule sets whose games are played to a target: each of the three ways a deal's stock can
run out (``discard_pile``, ``end`` in wild, and ``reshuffle`` set below), sides too."""

ROOM = 3 * DEAL_LIMIT
"""Deals a test plays at most before saying the game never ended."""


def quiet_move(game: Game) -> Move:
    """A move that puts no card on the table: draw from the stock, else end the deal (an
    empty stock), pass a claim, or discard the first card offered."""
    legal = game.legal_moves()
    for kind in (DRAW, END, PASS):
        for move in legal:
            if move.kind == kind:
                return move
    return next(move for move in legal if move.kind == DISCARD)


def play_quietly(game: Game, deals: int = ROOM) -> None:
    """Nobody melds: every deal ends on the stock. At most ``deals`` deals."""
    while not game.finished and len(game.results) < deals:
        game.play(quiet_move(game))


@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**32),
       stock=st.sampled_from([None, "end", "discard_pile", "reshuffle"]))
def test_a_game_in_which_nobody_melds_ends_after_three_dead_deals(
        setup: tuple[str, int], seed: int, stock: str | None) -> None:
    preset, players = setup
    rules = make_rules(preset) if stock is None else make_rules(preset, stock_exhausted=stock)
    game = Game(rules, players, seed=seed)
    play_quietly(game)
    assert game.finished, f"no end after {len(game.results)} deals"
    assert len(game.results) == DEAD_DEALS
    assert all(result.went_out is None and not any(result.melded) for result in game.results)
    assert game.stopped == DEAD_DEALS_STOP
    best = max(game.totals)
    leaders = [side for side, total in enumerate(game.totals) if total == best]
    assert game.winner == (leaders[0] if len(leaders) == 1 else None)
    assert game.legal_moves() == []
    # The record says the same: replayed, it ends there too.
    again = replay(game_record(game))
    assert (again.finished, again.winner, again.totals, again.stopped) == (
        True, game.winner, game.totals, DEAD_DEALS_STOP)


def test_a_deal_with_a_card_on_the_table_starts_the_count_again() -> None:
    game = Game(make_rules("classic"), 2, seed=4)
    play_quietly(game, deals=DEAD_DEALS - 1)
    assert not game.finished and dead_run(game.deals[:len(game.results)]) == DEAD_DEALS - 1
    # In the next deal someone melds: the count starts again after it.
    rng = random.Random(1)
    while len(game.results) < DEAD_DEALS:
        legal = game.legal_moves()
        melds = [move for move in legal if move.kind == "meld"]
        game.play(melds[0] if melds else quiet_move(game) if rng.random() < 0.5
                  else rng.choice(legal))
    assert game.deals[DEAD_DEALS - 1].melds and not game.finished
    assert dead_run(game.deals[:len(game.results)]) == 0
    play_quietly(game)
    assert game.finished and len(game.results) == 2 * DEAD_DEALS


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("wild", 3)])
def test_no_game_lasts_more_than_the_deal_limit(preset: str, players: int) -> None:
    """Played to a target nobody can reach in time, a game stops after DEAL_LIMIT deals."""
    game = Game(make_rules(preset, target_score=100_000), players, seed=7)
    rng = random.Random(7)
    while not game.finished and len(game.results) <= DEAL_LIMIT:
        legal = game.legal_moves()
        melds = [move for move in legal if move.kind in ("meld", "layoff")]
        game.play(rng.choice(melds) if melds and rng.random() < 0.5 else rng.choice(legal))
    assert game.finished and len(game.results) == DEAL_LIMIT
    assert game.stopped == DEAL_LIMIT_STOP
    best = max(game.totals)
    assert best < 100_000
    leaders = [side for side, total in enumerate(game.totals) if total == best]
    assert game.winner == (leaders[0] if len(leaders) == 1 else None)


def test_a_game_of_max_deals_ends_as_its_rules_say() -> None:
    """A game the rules give a length ends there, stopped by nothing (Persian: two deals)."""
    game = Game(make_rules("persian"), 4, seed=2)
    play_quietly(game)
    assert game.finished and len(game.results) == 2 and game.stopped == ""


def test_max_deals_is_at_most_the_deal_limit_and_the_rules_say_so() -> None:
    assert make_rules("classic", max_deals=DEAL_LIMIT).deal_limit == DEAL_LIMIT
    assert make_rules("classic").deal_limit == DEAL_LIMIT
    assert make_rules("persian").deal_limit == 2
    with pytest.raises(RulesError, match=f"at most {DEAL_LIMIT}"):
        make_rules("classic", max_deals=DEAL_LIMIT + 1)
    meaning, _books, values = OPTION_DOCS["max_deals"]
    assert f"{DEAL_LIMIT} deals at the latest" in meaning and "three deals in a row" in meaning
    assert values.startswith(f"1 to {DEAL_LIMIT}")


def test_undo_across_the_stop_gives_the_game_back() -> None:
    game = Game(make_rules("classic"), 2, seed=9)
    while not game.finished:
        game.push(quiet_move(game))
    assert game.stopped == DEAD_DEALS_STOP
    last = game.pop()
    assert not game.finished and game.stopped == "" and game.winner is None
    assert len(game.results) == DEAD_DEALS - 1
    game.push(last)
    assert game.finished and game.stopped == DEAD_DEALS_STOP


@given(totals=st.lists(st.integers(-2000, 2000), min_size=2, max_size=8),
       played=st.integers(1, 2 * DEAL_LIMIT), dead=st.integers(0, 2 * DEAD_DEALS),
       target=st.none() | st.integers(1, 2000))
def test_game_end_stops_at_the_limits_and_only_there(
        totals: list[int], played: int, dead: int, target: int | None) -> None:
    rules = make_rules("classic", target_score=target, max_deals=None if target else 5)
    over, winner = game_end(rules, totals, played, dead)
    best = max(totals)
    alone = totals.count(best) == 1
    reached = target is not None and best >= target and alone
    assert over == (reached or played >= rules.deal_limit or dead >= DEAD_DEALS)
    assert winner == (totals.index(best) if over and alone else None)
    scores = [0] * len(totals)
    assert winner_after(rules, totals, scores, played, dead) == winner


def test_the_last_sheet_and_the_rules_say_why_the_game_stopped() -> None:
    game = Game(make_rules("classic"), 2, seed=3)
    play_quietly(game)
    standing = deal_sheet(game, ["Ann", "Bo"], DEAD_DEALS - 1, 0).standing
    assert standing.startswith("3 deals in a row put no card on the table, so the game stops.")
    assert game_end_words(game)[0].startswith("3 deals in a row")
    winning = dict(rules_summary(game.rules, 2))["Winning"]
    assert "3 deals in a row with no card put on the table" in winning
    assert f"after {DEAL_LIMIT} deals at the latest" in winning
