"""Unit tests of :mod:`rummy500.legal` on hand-built positions: the move list by phase, the
obligation to use a card taken from deep in the pile, rummy claims, and that the list and
the legality check agree move by move."""

from __future__ import annotations

from rummy500 import make_rules
from rummy500.cards import Cards, parse_face
from rummy500.legal import (
    DRAW_PHASE,
    OVER,
    PLAY_PHASE,
    RUMMY_PHASE,
    Position,
    can_still_use,
    claims,
    legal_moves,
    take_must_be_used,
    why_illegal,
)
from rummy500.moves import parse_move

CLASSIC = make_rules("classic")


def hand(text: str) -> int:
    return Cards.parse(text).bits


def pile(text: str) -> list[int]:
    return [parse_face(token) for token in text.split()]


def listed(pos: Position) -> list[str]:
    return sorted(str(move) for move in legal_moves(pos))


def test_the_draw_phase_offers_the_stock_and_every_pile_card_that_can_be_used() -> None:
    pos = Position(CLASSIC, DRAW_PHASE, hand("7d 7s 2c Kh"), pile("9c 7h Qd"), [], 20, -1)
    # Qd is the top card (free to take); 7h is deeper and melds with 7d 7s; 9c cannot be used
    assert listed(pos) == ["draw", "take 7h", "take Qd"]
    assert why_illegal(pos, parse_move("take 9c")) is not None


def test_a_deep_take_must_be_used_and_the_top_card_need_not_be() -> None:
    assert take_must_be_used(CLASSIC, pile_len=3, index=1, stock_count=20)
    assert not take_must_be_used(CLASSIC, pile_len=3, index=2, stock_count=20)
    strict = make_rules("classic", top_discard_must_be_used=True)
    assert take_must_be_used(strict, pile_len=3, index=2, stock_count=20)
    # with no stock left the top card must be used too (it is the only way to go on)
    assert take_must_be_used(CLASSIC, pile_len=3, index=2, stock_count=0)


def test_can_still_use_counts_the_cards_left_in_hand() -> None:
    seven = parse_face("7h")
    assert can_still_use(CLASSIC, seven, hand("7h 7d 7s"), [])
    assert not can_still_use(CLASSIC, seven, hand("7h 7d 2c"), [])
    # with discard_to_go_out a card must be kept back for the discard
    strict = make_rules("classic", discard_to_go_out=True)
    assert not can_still_use(strict, seven, hand("7h 7d 7s"), [])
    assert can_still_use(strict, seven, hand("7h 7d 7s 2c"), [])


def test_the_play_phase_must_use_the_taken_card_first() -> None:
    must = parse_face("7h")
    pos = Position(CLASSIC, PLAY_PHASE, hand("7h 7d 7s 8h 9h 2c"), [], [], 20, must)
    moves = listed(pos)
    assert "discard 2c" not in moves, "no discard before the taken card is used"
    assert all(m.startswith("meld") for m in moves)
    assert all("7h" in m for m in moves), moves
    assert why_illegal(pos, parse_move("discard 2c")) is not None
    assert why_illegal(pos, parse_move("meld 7d 7s 7h")) is None


def test_rummy_claims_come_from_the_pile_alone() -> None:
    assert [str(m) for m in claims(CLASSIC, pile("2c 7h 8h 9h"), [])] == ["rummy meld 7h 8h 9h"]
    assert claims(CLASSIC, pile("2c 7h 9h"), []) == []
    pos = Position(CLASSIC, RUMMY_PHASE, 0, pile("2c 7h 8h 9h"), [], 20, -1)
    assert listed(pos) == ["pass", "rummy meld 7h 8h 9h"]


def test_nothing_is_legal_once_the_deal_is_over() -> None:
    pos = Position(CLASSIC, OVER, hand("7h"), [], [], 0, -1)
    assert legal_moves(pos) == []
    assert why_illegal(pos, parse_move("draw")) is not None


def test_every_listed_move_passes_the_check_and_unlisted_ones_do_not() -> None:
    pos = Position(CLASSIC, PLAY_PHASE, hand("5h 6h 7h 8h 7d 7s Kc"), [], [], 20, -1)
    moves = legal_moves(pos)
    assert len({str(m) for m in moves}) == len(moves)
    for move in moves:
        assert why_illegal(pos, move) is None, move
    for text in ("meld 5h 6h 8h", "meld 7d 7s Kc", "discard 2c", "layoff 7h m1", "draw"):
        assert why_illegal(pos, parse_move(text)) is not None, text
