"""Setting up a position: Deal.from_position, the one-line position string (Deal.fen and
Deal.from_fen), Game.from_deal and Game.add_deal, and the public facts a view carries."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from helpers import deal_from_hands, faces, play
from rummy500 import Game, make_rules
from rummy500.cards import face_of, iter_bits, parse_face
from rummy500.deal import Deal
from rummy500.errors import NotNowError, PositionError, RecordError
from rummy500.rules import Rules
from rummy500.view import PlayerView, view_of

CONFIGS: list[tuple[str, dict[str, Any], int]] = [
    ("classic", {}, 2),
    ("classic", {"decks": 2}, 6),
    ("classic", {"four_of_a_kind_doubles": True}, 3),
    ("wild", {"stock_exhausted": "reshuffle", "rummy_calls": True}, 3),
    ("wild", {"decks": 2, "stock_exhausted": "reshuffle"}, 2),
    ("persian", {}, 4),
    ("partnership", {}, 4),
    ("boathouse", {}, 3),
    ("simplified", {"stock_exhausted": "discard_pile"}, 2),
    ("persian", {"four_card_runs_double": True}, 4),
    ("classic", {"card_points": "simplified", "low_ace_points": 5, "high_ace_only": True}, 2),
]


def _public(view: PlayerView) -> tuple[Any, ...]:
    """A view read as faces, without the history (a position string has none)."""
    def by_face(cards: int) -> list[int]:
        return sorted(face_of(card) for card in iter_bits(cards))

    return (view.seat, view.dealer, view.turn, view.phase, by_face(view.hand), view.hand_sizes,
            view.stock_count, [face_of(card) for card in view.pile],
            [(m.number, m.kind, m.lo, m.hi, m.fits, [(c.face, c.seat, c.points) for c in m.cards])
             for m in view.melds],
            [by_face(known) for known in view.known], view.credit,
            face_of(view.must_use) if view.must_use >= 0 else None, view.discarder,
            view.idle_turns, view.progress, view.restocks, view.passed,
            sorted(str(move) for move in view.legal_moves()))


def _positions(rules: Rules, players: int, seed: int) -> list[Deal]:
    """Every position of one random game's deals (copies), the ends of deals included."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    found = []
    for _ in range(300):
        found.append(game.deal.copy())
        if game.finished:
            break
        game.play(rng.choice(game.legal_moves()), check=False)
    return found


@pytest.mark.parametrize(("preset", "options", "players"), CONFIGS)
def test_the_position_string_round_trips(preset: str, options: dict[str, Any],
                                         players: int) -> None:
    rules = make_rules(preset, **options)
    for seed in range(2):
        for index, deal in enumerate(_positions(rules, players, seed)):
            text = deal.fen()
            again = Deal.from_fen(text, rules)
            assert again.fen() == text
            assert "\n" not in text and not again.moves
            for seat in range(players):
                assert _public(view_of(again, seat)) == _public(view_of(deal, seat)), text
            if index % 15 == 0 and not deal.over:  # the same cards come next: alike play
                rng = random.Random(seed)
                twin = deal.copy()
                again.set_restocks((), random.Random(7))
                twin.set_restocks((), random.Random(7))
                for _ in range(40):
                    if twin.over:
                        break
                    move = rng.choice(twin.legal_moves())
                    twin.play(move)
                    again.play(move)
                    assert again.fen() == twin.fen()


def test_a_four_of_a_kind_that_counts_double_is_written_so() -> None:
    rules = make_rules("classic", four_of_a_kind_doubles=True, hand_size_two=5)
    deal = Deal.from_fen("seat 0 play | hands 7h 7d 7s 7c 2c / Kc Qc Jc 4h 5h | pile Ks | "
                         "stock ...", rules)
    deal.play("meld 7c 7d 7h 7s")
    assert deal.credit[0] == 2 * 28
    text = deal.fen()
    assert "| table m1x2=0:7c,7d,7h,7s |" in text
    again = Deal.from_fen(text, rules)
    assert again.fen() == text and again.credit == deal.credit
    three = Deal.from_fen(text.replace("m1x2=0:7c,7d,7h,7s", "m1=0:7c,7d,7h,1:7s"), rules)
    assert three.credit == [21, 7]


def test_a_run_of_four_that_counts_double_is_written_so() -> None:
    """four_card_runs_double: ``x2`` marks the four cards laid at once, not the lay-offs."""
    rules = make_rules("classic", four_of_a_kind_doubles=True, four_card_runs_double=True)
    deal = Deal.from_fen("seat 0 play | hands 4h 5h 6h 7h 8h 2c / Kc Qc Jc 4s 5s 6s | "
                         "pile Ks | stock ...", rules)
    deal.play("meld 4h 5h 6h 7h")
    deal.play("layoff 8h m1")
    assert deal.credit[0] == 2 * 22 + 8
    text = deal.fen()
    assert "| table m1x2=0:4h,5h,6h,7h,8h |" in text
    again = Deal.from_fen(text, rules)
    assert again.fen() == text and again.credit == deal.credit
    assert [c.points for c in again.melds[0].cards] == [8, 10, 12, 14, 8]
    built = Deal.from_fen(text.replace("m1x2=0:4h,5h,6h,7h,8h", "m1=0:4h,5h,6h,1:7h,8h"), rules)
    assert built.credit == [15, 15]
    for laid in ("m1x2=0:4h,5h,6h,1:7h,8h", "m1x2=0:4h,5h,6h"):
        with pytest.raises(PositionError, match="counts double"):
            Deal.from_fen(text.replace("m1x2=0:4h,5h,6h,7h,8h", laid), rules)
    sets_only = make_rules("classic", four_of_a_kind_doubles=True)
    with pytest.raises(PositionError, match="counts double"):
        Deal.from_fen(text, sets_only)


def test_high_ace_only_credit_is_read_back() -> None:
    """high_ace_only: an ace high in a run keeps ace_points after Deal.from_fen."""
    rules = make_rules("classic", card_points="simplified", low_ace_points=5,
                       high_ace_only=True)
    deal = Deal.from_fen("seat 0 play | hands Qh Kh Ah Ac 2c 3c Js Qs Ks As 9d / Kc Qc Jc | "
                         "pile 8d | stock ...", rules)
    for move in ("meld Qh Kh Ah", "meld Ac 2c 3c", "meld Js Qs Ks", "layoff As m3"):
        deal.play(move)
    assert deal.credit[0] == 35 + 15 + 30 + 15
    text = deal.fen()
    assert "x2" not in text
    again = Deal.from_fen(text, rules)
    assert again.fen() == text and again.credit == deal.credit
    assert [[c.points for c in m.cards] for m in again.melds] == [
        [10, 10, 15], [5, 5, 5], [10, 10, 10, 15]]


def test_a_position_written_by_hand() -> None:
    rules = make_rules("classic", hand_size_two=5)
    deal = Deal.from_fen("seat 0 draw | hands 7h 7d 7s 2c 9d / Kc Qc Jc 4h 5h | pile Ks | "
                         "stock 7c ...", rules)
    assert deal.dealer == 1 and deal.players == 2 and not deal.melds
    assert len(deal.stock) == 52 - 10 - 1 and face_of(deal.stock[-1]) == parse_face("7c")
    assert [str(move) for move in deal.legal_moves()] == ["draw", "take Ks"]
    deal.play("draw")
    deal.play("meld 7c 7d 7h 7s")
    assert deal.credit == [28, 0]
    assert deal.fen().startswith("seat 0 play | dealer 1 | hands 2c 9d / Jc Qc Kc 4h 5h |")
    assert "| table m1=0:7c,7d,7h,7s |" in deal.fen()


def test_a_table_with_lay_offs_by_other_seats_and_a_card_to_use() -> None:
    rules = make_rules("wild")
    before = ("seat 1 play | dealer 0 | hands 5c 6c / 9h 8h Ac Kd | known - / 9h | pile - | "
              "stock ... | table m1=0:5h,*=6h,7h m2=1:2c,3c,4c | must 9h | discarder 0 | "
              "idle 2 | progress no | restocks 0 | passed Ks / -")
    deal = Deal.from_fen(before, rules)
    assert face_of(deal.must_use) == parse_face("9h") and deal.idle_turns == 2
    assert deal.discarder == 0 and deal.passed[0] == 1 << parse_face("Ks")
    assert deal.melds[0].cards[1].card & 15 == 15  # the joker standing for 6h
    assert deal.why_illegal("discard Kd") is not None  # 9h taken from deep must be used
    deal.play("layoff 8h m1")
    deal.play("layoff Ac m2")
    after = deal.fen()
    assert "| table m1=0:5h,*=6h,7h,1:8h m2=1:2c,3c,4c,Ac |" in after
    assert "| progress yes |" in after
    again = Deal.from_fen(after, rules)
    assert again.fen() == after
    assert again.credit == deal.credit and again.melds == [
        m._replace(cards=tuple(c._replace(card=a.card) for c, a in zip(m.cards, n.cards,
                                                                        strict=True)))
        for m, n in zip(deal.melds, again.melds, strict=True)]
    assert "layoff 9h m1" in [str(m) for m in again.legal_moves()]


@pytest.mark.parametrize(("text", "why"), [
    ("seat 0 draw | hands 7h / 7h | stock ...", "more 7h than the pack"),
    ("seat 0 draw | hands 7h / 8h | stock 9h", "every card of the pack"),
    ("seat 2 draw | hands 7h / 8h | stock ...", "the seat to move"),
    ("seat 0 dance | hands 7h / 8h | stock ...", "begins with the seat"),
    ("seat 0 draw | hands 7h / 8h | known 8h / - | stock ...", "does not hold"),
    ("seat 0 draw | hands 7h / 8h | must 7h | stock ...", "to be used"),
    ("seat 1 rummy | hands 7h / 8h | stock ... | discarder 1", "other than the discarder"),
    ("seat 0 draw | hands 7h / 8h | stock ... | table m1=0:7h,7d", "at least three"),
    ("seat 0 draw | hands 2h / 8h | stock ... | table m2=0:7h,7d,7s", "in order"),
    ("seat 0 draw | hands 2h / 8h | stock ... | table m1x2=0:7h,7d,7s,7c", "counts double"),
    ("seat 0 draw | hands 2h / 8h | stock ... | colour red", "not a part"),
    ("seat 0 over | hands 2h / 8h | stock ... | ended sideways", "a deal ends by"),
    ("seat 0 draw | hands 2h / 8h | stock ... | idle -1", "negative"),
    ("seat x draw | hands 2h / 8h | stock ...", "not a position"),
])
def test_a_text_that_is_no_position_is_refused(text: str, why: str) -> None:
    rules = make_rules("classic", hand_size_two=1)
    with pytest.raises(PositionError, match=why):
        Deal.from_fen(text, rules)


def test_from_position_checks_the_cards() -> None:
    rules = make_rules("classic")
    deal = Game(rules, 2, seed=1).deal
    with pytest.raises(PositionError, match="every card of the pack"):
        Deal.from_position(rules, 2, dealer=deal.dealer, hands=deal.hands, pile=deal.pile,
                           stock=deal.stock[1:])
    with pytest.raises(PositionError, match="dealer"):
        Deal.from_position(rules, 2, dealer=5, hands=deal.hands, pile=deal.pile,
                           stock=deal.stock)
    with pytest.raises(PositionError, match="who made each move"):
        Deal.from_position(rules, 2, dealer=deal.dealer, hands=deal.hands, pile=deal.pile,
                           stock=deal.stock, moves=deal.legal_moves()[:1])
    same = Deal.from_position(rules, 2, dealer=deal.dealer, hands=deal.hands, pile=deal.pile,
                              stock=deal.stock)
    assert same.fen() == deal.fen() and same.turn == deal.turn


def test_rearranged_keeps_the_public_position_and_the_known_cards() -> None:
    game = deal_from_hands(make_rules("classic"), ["7h 7d 2c ...", "9c ..."], up="7s")
    play(game, "take 7s")
    deal = game.deal
    hands = list(deal.hands)
    swap = next(c for c in iter_bits(hands[0]) if face_of(c) == parse_face("7h"))
    hands[0] &= ~(1 << swap)
    hands[0] |= 1 << deal.stock[0]
    twin = deal.rearranged(hands, [swap, *deal.stock[1:]])
    assert _public(view_of(twin, 1)) == _public(view_of(deal, 1))
    assert twin.moves == deal.moves and twin.movers == deal.movers
    known = list(deal.hands)
    known[0] &= ~deal.known[0]  # seat 0 took 7s from the pile: it must still hold it
    with pytest.raises(PositionError, match="known to hold"):
        deal.rearranged(known, [*deal.stock, *iter_bits(deal.known[0])])


def test_bring_to_top_chooses_the_next_card_drawn() -> None:
    deal = Game(make_rules("classic"), 2, seed=4).deal
    card = deal.stock[3]
    deal.bring_to_top(card)
    deal.play("draw")
    assert deal.hands[deal.turn] >> card & 1
    with pytest.raises(PositionError, match="not in the stock"):
        deal.bring_to_top(card)


def test_set_restocks_without_a_random_source_refuses_to_invent_one() -> None:
    rules = make_rules("classic", stock_exhausted="reshuffle", hand_size_two=1)
    deal = Deal.from_fen("seat 0 draw | hands 2c / 3c | pile 4c 5c 6c | stock 7c ...", rules)
    stock = list(deal.stock)
    deal.play("take 6c")  # nothing random yet
    deal.set_restocks((), None)
    # run the stock out: draw and discard until the deal reshuffles or refuses to
    with pytest.raises(RecordError, match="no restock order"):
        for _ in range(200):
            moves = deal.legal_moves()
            draw = [m for m in moves if m.kind == "draw"]
            discard = [m for m in moves if m.kind == "discard"]
            deal.play((draw or discard or moves)[0])
    assert stock  # the stock had cards to run out of
    planned = Deal.from_fen("seat 0 draw | hands 2c / 3c | pile 4c 5c 6c | stock 7c ...", rules)
    planned.set_restocks((), random.Random(3))
    while not planned.over and not planned.restocks:
        moves = planned.legal_moves()
        draw = [m for m in moves if m.kind == "draw"]
        discard = [m for m in moves if m.kind == "discard"]
        planned.play((draw or discard or moves)[0])
    assert planned.restocks == 1 and len(planned.restock_orders) == 1
    order = list(planned.pile[:1])
    planned.set_restocks([order], None)
    planned.set_restocks(planned.restock_orders[planned.restocks:], None)  # the same list
    assert planned.restock_orders[1:] == [order] and planned.rng is None


def test_a_game_from_a_position_plays_on_to_the_next_deal() -> None:
    rules = make_rules("classic", hand_size_two=3)
    deal = Deal.from_fen("seat 1 play | dealer 0 | hands 9c / 7h 7d 7s Kc | "
                         "pile 4d | stock ... | progress yes", rules)
    game = Game.from_deal(deal, [120, 80], seed=5)
    assert game.deal is deal and game.totals == [120, 80]
    game.play("meld 7h 7d 7s")
    game.play("discard Kc")
    assert game.results[0].went_out == 1 and game.totals == [120 - 9, 80 + 21]
    assert len(game.deals) == 2 and game.deal.dealer == 1  # the deal passed to the left
    with pytest.raises(PositionError, match="already won"):
        Game.from_deal(Deal.from_fen(deal.fen(), rules), [500, 0])
    with pytest.raises(PositionError, match="per side"):
        Game.from_deal(Deal.from_fen(deal.fen(), rules), [0, 0, 0])


def test_add_deal_takes_the_next_dealers_deal_only() -> None:
    rules = make_rules("classic", hand_size_two=1)
    game = Game(rules, 2, dealer=0, auto_deal=False)
    with pytest.raises(PositionError, match="seat 0 deals next"):
        game.add_deal(Deal.from_fen("seat 1 draw | dealer 1 | hands 2c / 3c | stock ...",
                                    rules))
    game.add_deal(Deal.from_fen("seat 1 draw | dealer 0 | hands 2c / 3c | stock ...", rules))
    with pytest.raises(NotNowError):
        game.add_deal(Deal.from_fen("seat 0 draw | dealer 1 | hands 2c / 3c | stock ...",
                                    rules))
    with pytest.raises(PositionError, match="rules"):
        Game(make_rules("wild"), 2, dealer=0, auto_deal=False).add_deal(
            Deal.from_fen("seat 1 draw | dealer 0 | hands 2c / 3c | stock ...", rules))


def test_the_view_says_who_moved_who_discarded_and_what_was_passed() -> None:
    game = deal_from_hands(make_rules("classic"), ["7h 7d 2c ...", "9c ..."], up="Ks",
                           stock="4d 5d")
    play(game, "draw", "discard 2c")
    view = game.view(1)
    assert view.movers == (0, 0) and view.discarder == 0
    assert view.passed == (1 << parse_face("Ks"), 0)  # seat 0 left Ks on the pile
    assert (view.idle_turns, view.progress) == (0, False)
    play(game, "take 2c")
    view = game.view(0)
    assert view.movers == (0, 0, 1) and not view.progress and view.restocks == 0
    assert faces(view.known[1]) == ["2c"]


def test_nothing_outside_the_deal_writes_a_deals_fields() -> None:
    """Positions are set up through Deal's own methods only (issue 10)."""
    fields = ("hands|pile|stock|melds|credit|known|turn|phase|must_use|went_out|ended_by|"
              "idle_turns|progress|restocks|discarder|passed|moves|movers|rng|restock_orders|"
              "deck|dealer")
    write = re.compile(rf"\b(deal|twin|sample)\.({fields})(\[[^]]*\])?\s*(=[^=]|[-+|&]=)"
                       rf"|\b(deal|twin|sample)\.({fields})\.(append|extend|pop|remove|insert|"
                       rf"clear|sort|reverse)\(")
    root = Path(__file__).resolve().parents[1]
    found = []
    for path in [*root.glob("src/rummy500/**/*.py"), *root.glob("tests/*.py")]:
        if path.name in ("deal.py", "test_positions.py"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if write.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
