"""Issue 10: one play-out loop for every driver of bots; Cards from the public accessors;
the score sheet's bonuses read from the scoring module."""

from __future__ import annotations

import random

import pytest

from rummy500 import Game, make_rules
from rummy500.bots import make_bot
from rummy500.bots.playout import Played, ask, check_move, play_out
from rummy500.bots.sampling import sample_deal
from rummy500.cards import Cards
from rummy500.errors import (
    BadInputError,
    IllegalMoveError,
    NotYourTurnError,
    PositionError,
    SessionError,
)
from rummy500.moves import parse_move
from rummy500.scoring import points_for
from rummy500.session.sheets import deal_sheet
from rummy500.session.words import rules_summary
from rummy500.view import view_of
from test_simulation import CheatingBot


def test_play_out_plays_the_deal_to_its_end_and_reports_every_move() -> None:
    game = Game(make_rules("classic"), 2, seed=4)  # auto_deal: a new deal follows the first
    first = game.deal
    played: list[Played] = []
    play_out(game, [make_bot("random", 1), make_bot("simple", 2)], on_move=played.append,
             timed=True)
    assert first.over and game.deal is not first and not game.deal.moves
    assert [turn.move for turn in played] == first.moves
    assert [turn.seat for turn in played] == first.movers
    assert all(turn.ms >= 0 for turn in played)
    assert {turn.reason for turn in played if turn.seat == 0} == {""}  # picked, no view
    assert all(turn.reason for turn in played if turn.seat == 1)


def test_play_out_stops_where_it_is_told() -> None:
    game = Game(make_rules("classic"), 3, seed=5)
    play_out(game, [make_bot("random", s) for s in range(3)],
             until=lambda g: len(g.deal.moves) >= 7)
    assert len(game.deal.moves) == 7


def test_ask_gives_the_reason_when_asked_and_the_same_move_either_way() -> None:
    game = Game(make_rules("classic"), 2, seed=6)
    quick = ask(make_bot("random", 3), game, game.turn)
    full = ask(make_bot("random", 3), game, game.turn, reasons=True)
    assert quick.move == full.move and quick.reason == "" and full.reason


def test_an_illegal_bot_move_names_the_bot_seat_and_position() -> None:
    game = Game(make_rules("classic"), 2, seed=3)
    seat = game.turn
    with pytest.raises(IllegalMoveError, match=rf"bot 'Sly' at seat {seat} played discard Ks, "
                       r"which is illegal: draw first.*\(position: "):
        play_out(game, [CheatingBot(0), CheatingBot(1)], names=["Sly", "Sly"])
    assert not game.deal.moves  # nothing made
    with pytest.raises(SessionError, match=f"Sly at seat {seat} played discard Ks"):
        check_move(game, seat, parse_move("discard Ks"), "Sly", SessionError)
    check_move(game, seat, game.legal_moves()[0], "Sly", SessionError)  # a legal move passes


def test_public_card_sets_come_as_cards() -> None:
    game = Game(make_rules("classic"), 2, seed=8)
    view = game.view(0)
    assert isinstance(game.hand_cards(1), Cards)
    assert game.hand_cards(0) == view.hand_cards == Cards(game.deal.hands[0])
    assert len(view.hand_cards) == game.deal.hands[0].bit_count()
    assert view.known_cards == (Cards(), Cards())
    unseen = view.unseen_cards()
    assert unseen.bits == view.unseen() and not set(unseen) & set(view.hand_cards)
    assert len(unseen) == len(game.deal.stock) + game.deal.hands[1].bit_count()
    deal = game.deal
    stock, pile = deal.stock_cards(), deal.pile_cards()
    assert isinstance(stock, Cards) and isinstance(pile, Cards)
    assert len(stock) == len(deal.stock) and set(stock) == set(deal.stock)
    assert list(pile) == sorted(deal.pile) and deal.pile[0] in pile
    every = [deal.hand_cards(0), deal.hand_cards(1), stock, pile]
    assert sum(map(len, every)) == len(deal.deck)  # each card in exactly one place
    assert set().union(*map(set, every)) == set(deal.deck)


def test_the_view_and_the_sampler_raise_typed_errors() -> None:
    game = Game(make_rules("classic"), 2, seed=8)
    with pytest.raises(BadInputError, match="no seat 2"):
        view_of(game.deal, 2)
    with pytest.raises(NotYourTurnError):
        game.view(1 - game.turn).position()
    view = game.view(0)
    broken = view.__class__(**{**{f: getattr(view, f) for f in view.__slots__},
                               "stock_count": view.stock_count + 1})
    with pytest.raises(PositionError, match="do not add up"):
        sample_deal(broken, random.Random(1))


def test_the_score_sheet_and_rules_read_the_points_of_the_rule_set() -> None:
    rules = make_rules("classic", going_out_bonus=25, final_bonus=50, target_score=60)
    points = points_for(rules)
    game = Game(rules, 2, seed=2)
    bots = [make_bot("simple", 1), make_bot("simple", 2)]
    while not game.finished:
        play_out(game, bots)
    names = ["Ann", "Bob"]
    last = deal_sheet(game, names, len(game.results) - 1, None)
    assert game.winner is not None
    assert (f"{names[game.winner]}: winning the game", points.final_bonus) in [
        (line.text, line.points) for line in last.lines if line.what == "game_bonus"]
    assert list(last.totals_after) == game.totals
    for index, result in enumerate(game.results):
        sheet = deal_sheet(game, names, index, None)
        bonus = [line for line in sheet.lines if line.what == "going_out"]
        assert [line.points for line in bonus] == ([points.going_out_bonus]
                                                   if result.went_out is not None else [])
    simplified = dict(rules_summary(make_rules("classic", card_points="simplified",
                                               point_divisor=5, low_ace_points=5), 2))
    assert "K, Q, J, 10: 2; 2 to 9: 1 each" in simplified["Points"]
    assert "2 to 9: their face value" in dict(rules_summary(rules, 2))["Points"]
