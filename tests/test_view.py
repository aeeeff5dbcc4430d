"""Player views: built from public facts and the seat's own cards, never from another's secrets."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import deal_from_hands, play
from rummy500 import Game, make_rules
from rummy500.cards import face_of, iter_bits, make_pack
from rummy500.deal import Deal
from rummy500.moves import Move
from rummy500.rules import Rules
from rummy500.view import PlayerView, view_of

CONFIGURATIONS: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {}, 2),
    ("classic", {}, 6),
    ("wild", {}, 3),
    ("wild", {"decks": 2, "stock_exhausted": "reshuffle"}, 2),
    ("simplified", {}, 4),
    ("partnership", {}, 4),
    ("persian", {"rummy_calls": True}, 4),
    ("boathouse", {"stock_exhausted": "discard_pile"}, 3),
]


def positions(rules: Rules, players: int, seed: int, count: int) -> Iterator[tuple[Game, Deal]]:
    """Positions of random games, each yielded while it is current."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    for _ in range(count):
        if game.finished:
            game = Game(rules, players, seed=rng.randrange(1 << 30))
        yield game, game.deal
        for _ in range(rng.randint(1, 6)):
            if game.finished:
                break
            game.play(rng.choice(game.legal_moves()), check=False)


def hidden_from(deal: Deal, seat: int) -> int:
    """The cards ``seat`` cannot see: other hands but their known cards, and the stock."""
    hidden = 0
    for other, hand in enumerate(deal.hands):
        if other != seat:
            hidden |= hand & ~deal.known[other]
    for card in deal.stock:
        hidden |= 1 << card
    return hidden


def reshuffle_hidden(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """A deal that differs from ``deal`` only in where the cards hidden from ``seat`` lie."""
    cards = list(iter_bits(hidden_from(deal, seat)))
    rng.shuffle(cards)
    hands = list(deal.hands)
    for other, hand in enumerate(deal.hands):
        if other == seat:
            continue
        count = (hand & ~deal.known[other]).bit_count()
        dealt, cards = cards[:count], cards[count:]
        hands[other] = deal.known[other] | sum(1 << card for card in dealt)
    twin = deal.rearranged(hands, cards)
    assert len(twin.stock) == len(deal.stock)
    assert sorted(twin.all_cards()) == sorted(deal.all_cards())
    return twin


def _config_id(config: tuple[str, dict[str, Any], int]) -> str:
    preset, options, players = config
    return f"{preset}-{players}" + "".join(f",{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=_config_id)
def test_a_view_holds_no_hidden_card(config: tuple[str, dict[str, Any], int]) -> None:
    preset, options, players = config
    rules = make_rules(preset, **options)
    rng = random.Random(players)
    changed = 0
    for game, deal in positions(rules, players, seed=len(options), count=60):
        for seat in range(players):
            twin = reshuffle_hidden(deal, seat, rng)
            changed += twin.hands != deal.hands or twin.stock != deal.stock
            view = view_of(deal, seat, tuple(game.totals), len(game.deals) - 1)
            assert view_of(twin, seat, tuple(game.totals), len(game.deals) - 1) == view
            if seat == deal.turn:
                assert twin.legal_moves() == deal.legal_moves()
    assert changed, "the hidden cards were never moved"


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=_config_id)
def test_what_a_view_shows(config: tuple[str, dict[str, Any], int]) -> None:
    preset, options, players = config
    rules = make_rules(preset, **options)
    pack = 0
    for card in make_pack(rules.deck_count(players), rules.jokers_in_each_deck):
        pack |= 1 << card
    rng = random.Random(5)
    for game, deal in positions(rules, players, seed=1, count=60):
        for seat in range(players):
            view = game.view(seat)
            assert view.seat == seat and view.turn == deal.turn and view.phase == deal.phase
            assert view.hand == deal.hands[seat]
            assert view.hand_sizes == tuple(h.bit_count() for h in deal.hands)
            assert view.stock_count == len(deal.stock)
            assert view.pile == tuple(deal.pile)
            assert view.melds == tuple(deal.melds)
            assert view.known == tuple(deal.known)
            assert view.totals == tuple(game.totals)
            assert view.deal_number == len(game.deals) - 1
            assert view.history == tuple(deal.moves)
            assert view.unseen() == hidden_from(deal, seat)
            assert view.unseen() & ~pack == 0
            assert sorted(view.unseen_faces()) == sorted(
                face_of(card) for card in iter_bits(hidden_from(deal, seat)))
            assert view.my_turn == (seat == deal.turn and not deal.over)
            if view.my_turn:
                moves = deal.legal_moves()
                assert view.legal_moves() == moves
                sample = rng.sample(moves, min(5, len(moves)))
                for move in [*sample, Move("draw"), Move("pass")]:
                    assert view.why_illegal(move) == deal.why_illegal(move)
                    assert view.why_illegal(str(move)) == deal.why_illegal(move)
            else:
                assert view.legal_moves() == []
                assert view.why_illegal("draw") == "it is not your move"
                with pytest.raises(ValueError, match="not this seat's move"):
                    view.position()


def test_a_view_of_a_deal_gives_every_field_its_own_fact() -> None:
    rules = make_rules("classic", rummy_calls=True)
    for game, deal in positions(rules, 3, seed=4, count=40):
        for seat in range(3):
            view = view_of(deal, seat, tuple(game.totals), 7)
            assert view == PlayerView(
                rules=deal.rules, players=deal.players, seat=seat, dealer=deal.dealer,
                turn=deal.turn, phase=deal.phase, hand=deal.hands[seat],
                hand_sizes=tuple(hand.bit_count() for hand in deal.hands),
                stock_count=len(deal.stock), pile=tuple(deal.pile), melds=tuple(deal.melds),
                known=tuple(deal.known), must_use=deal.must_use, credit=tuple(deal.credit),
                totals=tuple(game.totals), deal_number=7, history=tuple(deal.moves),
                movers=tuple(deal.movers), discarder=deal.discarder,
                idle_turns=deal.idle_turns, progress=deal.progress, restocks=deal.restocks,
                passed=tuple(deal.passed))


def test_a_view_is_frozen() -> None:
    view = Game(make_rules("classic"), 2, seed=1).view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = 0  # type: ignore[misc]


def test_there_is_no_view_from_an_empty_seat() -> None:
    game = Game(make_rules("classic"), 3, seed=1)
    for seat in (-1, 3):
        with pytest.raises(ValueError, match="no seat"):
            game.view(seat)


def _public(view: PlayerView) -> tuple[Any, ...]:
    """A view with every card read as its face: which pack a card came from is not visible."""
    def faces(cards: int) -> list[int]:
        return sorted(face_of(card) for card in iter_bits(cards))

    return (faces(view.hand), view.hand_sizes, view.stock_count,
            [face_of(card) for card in view.pile],
            [(m.number, m.kind, m.lo, m.hi, [(c.face, c.seat, c.points) for c in m.cards])
             for m in view.melds],
            [faces(known) for known in view.known], view.credit, view.history, view.turn,
            view.phase, view.must_use)


def test_which_copy_leaves_a_hand_is_not_public() -> None:
    """Seat 0 takes the up-card 7h and melds 7h 7d 7s. With two packs nobody can tell whether
    the 7h melded is the one taken, so seat 1's view must not say that seat 0 still holds a
    7h: it would give away the other 7h that seat 0 may have been dealt."""
    rules = make_rules("classic", decks=2)
    seat_one = "2d 3d 4d 5d 6d 8d 9d Td Jd Qd Kd Ad 2h"
    with_twin = deal_from_hands(rules, ["7h 7d 7s Ac 2c 3c 4c 5c 6c 8c 9c Tc Jc", seat_one],
                                up="7h")
    without = deal_from_hands(rules, ["Kc 7d 7s Ac 2c 3c 4c 5c 6c 8c 9c Tc Jc", seat_one],
                              up="7h")
    for game in (with_twin, without):
        play(game, "take 7h", "meld 7h 7d 7s", "discard Jc")
    assert _public(with_twin.view(1)) == _public(without.view(1))
    assert with_twin.deal.known[0] == 0
