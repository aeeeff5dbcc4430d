"""The examples of NOTATION.md: every move form, canonical order, `take 7h` with two packs,
`*=6h`, the game record (with `dealer` left out after the first round, and `restock`) and
the `replay --json` answer."""

from __future__ import annotations

import json

import pytest

from helpers import deal_from_hands, face_text, faces, play, setup_deal
from rummy500 import InvalidMoveError, make_rules, parse_move
from rummy500.cards import JOKER, face_of, parse_face
from rummy500.melds import DECLARED
from rummy500.record import (
    RecordFormatError,
    ReplayError,
    game_record,
    load,
    replay,
    replay_summary,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("draw", "draw"),
     ("take 7h", "take 7h"),
     ("take 10h", "take Th"),
     ("take 7♥", "take 7h"),
     ("TAKE th", "take Th"),
     ("meld 7h 7d 7s", "meld 7d 7h 7s"),
     ("meld 5h *=6h 7h", "meld 5h *=6h 7h"),
     ("meld 7h *=6h 5h", "meld 5h *=6h 7h"),
     ("meld Ah Kh Qh", "meld Qh Kh Ah"),
     ("meld 3c Ac 2c", "meld Ac 2c 3c"),
     ("meld As Ah Ad Ac", "meld Ac Ad Ah As"),
     ("meld * * *", "meld * * *"),
     ("layoff 8h m2", "layoff 8h m2"),
     ("layoff *=9h m2", "layoff *=9h m2"),
     ("discard Kc", "discard Kc"),
     ("discard K♣", "discard Kc"),
     ("end", "end"),
     ("rummy meld 4s 5s 6s", "rummy meld 4s 5s 6s"),
     ("rummy meld 6s 4s 5s", "rummy meld 4s 5s 6s"),
     ("rummy layoff 9s m2", "rummy layoff 9s m2"),
     ("pass", "pass")],
)
def test_notation_every_move_form_prints_canonical(text: str, canonical: str) -> None:
    """NOTATION.md, Moves and Cards: each move form parses, and print(parse(x)) gives the
    canonical form (`T` for 10, lower-case suits, runs low to high, sets by suit c d h s)."""
    move = parse_move(text)
    assert str(move) == canonical
    assert parse_move(canonical) == move


@pytest.mark.parametrize(
    ("text", "words"),
    [("", "the move is empty"),
     ("take", "'take' names one card"),
     ("take 1h", "is not a card"),
     ("meld 7h 7d", "names the three or more cards"),
     ("layoff 8h 2", "is not a meld: melds are named m1"),
     ("layoff 8h", "names one card and a meld"),
     ("meld 5h *=* 7h", "a joker cannot stand for a joker"),
     ("draw 7h", "'draw' takes nothing after it"),
     ("rummy take 7h", "a rummy call is 'rummy meld"),
     ("fold", "is not a move")],
)
def test_notation_bad_text_refused_with_reason(text: str, words: str) -> None:
    """NOTATION.md: text that is not a move is refused, saying what is wrong."""
    with pytest.raises(InvalidMoveError, match=words):
        parse_move(text)


def test_notation_declared_joker_piece() -> None:
    """NOTATION.md: "A wild joker put on the table says what it stands for: `*=6h`"."""
    move = parse_move("meld 5h *=6h 7h")
    assert move.pieces == (parse_face("5h"), DECLARED + parse_face("6h"), parse_face("7h"))
    assert parse_move("layoff *=9h m2").pieces == (DECLARED + parse_face("9h"),)
    assert parse_move("discard *").pieces == (JOKER,)


def test_notation_take_takes_the_upper_copy_with_two_packs() -> None:
    """NOTATION.md: "`take 7h`: take 7h from the discard pile with every card above it (with
    two packs: the upper copy)"."""
    rules = make_rules("classic", decks=2, hand_size_two=3)
    game = deal_from_hands(rules, ["7d 7s 2c", "Kc Qd 4s"], up="7h", pile="Kd 7h 2d")
    deal = game.deal
    lower, upper = deal.pile[0], deal.pile[2]
    assert face_of(lower) == face_of(upper) == parse_face("7h")
    assert lower != upper
    play(game, "take 7h")
    assert faces(deal.pile) == face_text("7h Kd")
    assert deal.pile[0] == lower
    assert deal.hands[0] >> upper & 1
    assert deal.must_use == upper
    play(game, "meld 7d 7h 7s")
    assert deal.melds[0].cards[1].card == upper


def test_notation_moves_recorded_in_canonical_form() -> None:
    """NOTATION.md: "Cards inside a meld may be written in any order; the canonical form
    sorts them": the record holds the canonical text."""
    game = deal_from_hands(make_rules("classic", hand_size_two=3), ["7h 7d 7s", "Kc Qd 4s"],
                           stock="2c")
    play(game, "DRAW", "meld 7s 7h 7d", "discard 2♣")
    assert game_record(game)["rounds"][0]["moves"] == ["draw", "meld 7d 7h 7s", "discard 2c"]


def _two_round_game() -> dict[str, object]:
    """A record of two rounds: seat 0 goes out in the first, the second is under way."""
    rules = make_rules("classic", hand_size_two=3, target_score=100)
    game = deal_from_hands(rules, ["7h 7d 7s", "Kc Qd 4s"], stock="2c", dealer=1)
    play(game, "draw", "meld 7d 7h 7s", "discard 2c")
    setup_deal(game, ["Ac 2s 5d", "8h 8d 8s"], up="9c", stock="Jh Qh")
    play(game, "draw", "meld 8d 8h 8s")
    return game_record(game)


def test_notation_record_format_and_dealer_left_out_after_the_first_round() -> None:
    """NOTATION.md, Game record: rules (preset and options), players, rounds with dealer,
    deck (the whole pack in dealing order), moves; "`dealer` may be left out after the first
    round: the deal passes left"."""
    record = _two_round_game()
    assert record["rules"] == {"preset": "classic", "hand_size_two": 3, "target_score": 100}
    assert record["players"] == 2
    rounds = record["rounds"]
    assert isinstance(rounds, list)
    assert [r["dealer"] for r in rounds] == [1, 0]
    assert all(len(r["deck"]) == 52 for r in rounds)
    # one card at a time from the dealer's (seat 1's) left, then the up-card, then the stock
    assert rounds[0]["deck"][:8] == ["7h", "Kc", "7d", "Qd", "7s", "4s", "Ac", "2c"]
    assert rounds[1]["moves"] == ["draw", "meld 8d 8h 8s"]
    del rounds[1]["dealer"]
    game = replay(json.loads(json.dumps(record)))
    assert game.deal.dealer == 0
    assert [str(m) for m in game.deal.moves] == ["draw", "meld 8d 8h 8s"]
    assert game.totals == [21, -24]
    rounds[1]["dealer"] = 1
    with pytest.raises(ReplayError, match="the deal passes to the left: seat 0 deals round 1"):
        replay(record)
    del rounds[0]["dealer"]
    with pytest.raises(RecordFormatError, match="the first round must name its dealer"):
        replay(record)


def test_notation_record_restock_order_of_each_new_stock() -> None:
    """NOTATION.md: "`restock`: with `stock_exhausted = "reshuffle"`, the order of each new
    stock": the engine writes the order it shuffled, and replay follows it exactly."""
    rules = make_rules("classic", hand_size_two=23, stock_exhausted="reshuffle")
    game = deal_from_hands(rules, ["...", "..."], up="Ks", stock="Kd Kh Kc Qs Qh", seed=11)
    for drawn in ("Kd", "Kh", "Kc", "Qs", "Qh"):
        play(game, "draw", f"discard {drawn}")
    deal = game.deal
    assert deal.restocks == 1
    assert faces(deal.pile) == ["Qh"]
    record = game_record(game)
    restock = record["rounds"][0]["restock"]
    assert sorted(restock[0]) == face_text("Ks Kd Kh Kc Qs")
    assert [faces([card])[0] for card in reversed(deal.stock)] == restock[0]
    again = replay(json.loads(json.dumps(record)))
    assert again.deal.stock == deal.stock
    assert again.deal.pile == deal.pile
    del record["rounds"][0]["restock"]
    with pytest.raises(ReplayError, match="the record gives no restock order"):
        replay(record)


def test_notation_replay_json_answer() -> None:
    """NOTATION.md, `replay --json`: ok, finished, winner, totals, and per round went_out,
    melded, in_hand, scores; an illegal move gives round, move and the reason."""
    record = _two_round_game()
    summary = replay_summary(replay(record))
    assert summary == {"ok": True, "finished": False, "winner": None, "totals": [21, -24],
                       "rounds": [{"went_out": 0, "melded": [21, 0], "in_hand": [0, 24],
                                   "scores": [21, -24]}]}
    rounds = record["rounds"]
    assert isinstance(rounds, list)
    rounds[1]["moves"] = ["draw", "discard Kd"]
    with pytest.raises(ReplayError) as error:
        replay(record)
    assert (error.value.round, error.value.move) == (1, 1)
    assert error.value.reason == "you do not hold K♦"
    with pytest.raises(RecordFormatError, match="not JSON"):
        load("{rounds")
