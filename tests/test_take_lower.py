"""``take 7h/2``: with two packs, the lower of two copies of a face in the discard pile,
taken with every card above it (issue 9, item 11)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy500 import Game, make_rules
from rummy500.cards import RANKS, SUITS, face_of
from rummy500.deal import Deal
from rummy500.moves import LOWER, TAKE, InvalidMoveError, Move, parse_move
from rummy500.record import dumps, load, replay

TWO_PACKS = make_rules("classic", decks=2)

# The upper 7h would bring 7h Jc only (no way to use it); the lower one brings 8h too,
# for the run 7h 8h 9h.
BOTH = ("seat 0 draw | hands 9h Kc Qd 3s 4s / 2d 3d 4d 5c 6c | pile 2c 7h 8h 5d 7h Jc | "
        "stock Ts ...")


def _position(text: str = BOTH) -> Deal:
    return Deal.from_fen(text, TWO_PACKS)


@given(st.sampled_from(RANKS), st.sampled_from(SUITS), st.sampled_from(["", "♥"]),
       st.booleans())
def test_take_lower_prints_as_it_parses(rank: str, suit: str, symbol: str, upper: bool) -> None:
    face = rank + (symbol if symbol and suit == "h" else suit)
    text = f"take {face.upper() if upper else face}/2"
    move = parse_move(text)
    assert move == Move(TAKE, (move.pieces[0],), LOWER)
    assert str(move) == f"take {rank}{suit}/2"
    assert parse_move(str(move)) == move
    assert move != parse_move(f"take {rank}{suit}")


@pytest.mark.parametrize("text", ["discard 7h/2", "take 7h/1", "take 7h/3", "take 7h/",
                                  "take */2", "take 7h / 2"])
def test_slash_two_only_after_the_card_of_a_take(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(text)


def test_the_lower_copy_is_listed_when_only_it_can_be_used() -> None:
    deal = _position()
    moves = [str(move) for move in deal.legal_moves()]
    assert moves == ["draw", "take Jc", "take 8h", "take 7h/2"]
    assert deal.why_illegal("take 7h/2") is None
    assert "only to use it" in (deal.why_illegal("take 7h") or "")


def test_take_lower_takes_that_copy_and_every_card_above_it() -> None:
    deal = _position()
    lower, upper = deal.pile[1], deal.pile[4]
    deal.play("take 7h/2")
    assert [face_of(card) for card in deal.pile] == [parse_move("take 2c").pieces[0]]
    hand = deal.hands[0]
    assert hand >> lower & 1 and hand >> upper & 1 and hand.bit_count() == 10
    assert deal.must_use == lower
    assert "| must 7h |" in deal.fen()
    # must-use: the lower copy, the bottom card taken, goes to the table this turn
    assert "must use it" in (deal.why_illegal("discard Jc") or "")
    deal.play("meld 7h 8h 9h")
    assert deal.must_use == -1
    assert not deal.hands[0] >> lower & 1 and deal.hands[0] >> upper & 1
    assert deal.why_illegal("discard Jc") is None


def test_a_lower_copy_that_cannot_be_used_is_refused() -> None:
    deal = _position(BOTH.replace("9h Kc", "9c Kc"))
    assert "take 7h/2" not in [str(m) for m in deal.legal_moves()]
    why = deal.why_illegal("take 7h/2") or ""
    assert "the lower 7♥" in why and "only to use it" in why


def test_take_lower_with_one_copy_in_the_pile_is_refused_with_the_reason() -> None:
    deal = _position("seat 0 draw | hands 9h Kc Qd 3s 4s / 2d 3d 4d 5c 6c | "
                     "pile 2c 7h 8h 5d Jc | stock Ts ...")
    assert all(m.meld != LOWER for m in deal.legal_moves())
    why = deal.why_illegal("take 7h/2") or ""
    assert "only one 7♥" in why and "take 7h" in why
    assert "not in the discard pile" in (deal.why_illegal("take 6h/2") or "")
    assert deal.why_illegal(Move(TAKE, (parse_move("take 7h").pieces[0],), 3)) is not None


def test_push_and_pop_undo_take_lower_exactly() -> None:
    deal = _position()
    before = deal.fen()
    hands, pile = list(deal.hands), list(deal.pile)
    deal.push("take 7h/2")
    after = deal.fen()
    deal.push("meld 7h 8h 9h")
    assert str(deal.pop()) == "meld 7h 8h 9h"
    assert deal.fen() == after
    assert str(deal.pop()) == "take 7h/2"
    assert deal.fen() == before and deal.hands == hands and deal.pile == pile
    assert deal.must_use == -1


def _game_with_lower_takes(seed: int) -> Game:
    rng = random.Random(seed)
    for attempt in range(50):
        game = Game(make_rules("classic", decks=2, max_deals=1), 3, seed=seed + attempt)
        took = False
        while not game.finished:
            moves = game.legal_moves()
            lower = [m for m in moves if m.kind == TAKE and m.meld == LOWER]
            move = rng.choice(lower or moves)
            took = took or bool(lower)
            game.play(move)
        if took:
            return game
    raise AssertionError("no take/2 in 50 games")


def test_a_record_with_take_lower_replays_exactly() -> None:
    game = _game_with_lower_takes(3)
    text = dumps(game)
    assert "/2\"" in text
    again = replay(load(text))
    assert [d.moves for d in again.deals] == [d.moves for d in game.deals]
    assert [d.fen() for d in again.deals] == [d.fen() for d in game.deals]
    assert again.totals == game.totals


def test_the_view_lists_take_lower() -> None:
    deal = _position()
    game = Game.from_deal(deal)
    view = game.view(0)
    assert Move(TAKE, (parse_move("take 7h").pieces[0],), LOWER) in view.legal_moves()
    assert view.why_illegal("take 7h/2") is None


def test_the_action_space_of_two_packs_numbers_take_lower() -> None:
    from rummy500.rl.actions import TAKE_LOWER, action_space

    space = action_space(TWO_PACKS, 2)
    one_pack = action_space(make_rules("classic"), 2)
    assert [b.name for b in space.blocks][-1] == TAKE_LOWER
    assert space.blocks[-1].size == 52 and space.blocks[-1].stop == space.size
    assert TAKE_LOWER not in [b.name for b in one_pack.blocks]
    deal = _position()
    moves = deal.legal_moves()
    mask = space.mask(moves)
    assert int(mask.sum()) == len(moves)
    action = space.from_text("take 7h/2")
    assert mask[action] == 1 and space.block_of(action).name == TAKE_LOWER
    assert space.to_text(action) == "take 7h/2" and space.decode(action) in moves
    with pytest.raises(InvalidMoveError):
        one_pack.from_text("take 7h/2")
