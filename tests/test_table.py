"""Unit tests of :mod:`rummy500.table`: which physical cards a move uses, new melds and
lay-offs, each card credited to who laid it."""

from __future__ import annotations

from rummy500 import make_rules
from rummy500.cards import JOKER, parse_face
from rummy500.melds import DECLARED, RUN, SET, MeldShape, classify
from rummy500.rules import Rules
from rummy500.scoring import Points
from rummy500.table import lay_off, new_meld, pick_cards, pick_from_pile

CLASSIC = make_rules("classic")
POINTS = Points(CLASSIC)


def f(text: str) -> int:
    return parse_face(text)


def shape(text: str, rules: Rules = CLASSIC) -> MeldShape:
    return classify(tuple(f(t) if not t.startswith("*=") else DECLARED + f(t[2:])
                          for t in text.split()), rules)


def test_pick_cards_takes_the_first_packs_copy_when_both_are_held() -> None:
    seven = f("7h")
    both = 1 << seven | 1 << (seven + 64)
    assert pick_cards(both, (seven,)) == [seven]
    assert pick_cards(1 << (seven + 64), (seven,)) == [seven + 64]
    assert pick_cards(1 << f("8h"), (seven,)) is None


def test_pick_cards_for_a_meld_uses_each_card_once() -> None:
    held = 1 << f("7h") | 1 << f("7d") | 1 << f("7s")
    assert sorted(pick_cards(held, (f("7d"), f("7h"), f("7s"))) or []) == sorted(
        [f("7h"), f("7d"), f("7s")])
    assert pick_cards(held, (f("7d"), f("7h"), f("7c"))) is None


def test_pick_cards_gives_a_joker_for_a_declared_piece() -> None:
    joker = 15  # the first joker of the first pack
    held = 1 << joker | 1 << f("7h") | 1 << f("9h")
    assert pick_cards(held, (f("7h"), DECLARED + f("8h"), f("9h"))) == [f("7h"), joker, f("9h")]


def test_pick_from_pile_takes_the_upper_copy_first() -> None:
    seven = f("7h")
    pile = [seven, f("2c"), seven + 64, f("Kd")]
    assert pick_from_pile(pile, (seven,)) == [2]
    assert pick_from_pile(pile, (seven, seven)) == [2, 0]
    assert pick_from_pile(pile, (f("3c"),)) is None
    assert pick_from_pile([15, f("2c")], (JOKER,)) == [0]


def test_new_meld_credits_each_card_to_its_seat() -> None:
    meld, credit = new_meld(1, shape("Ah 2h 3h"), [f("Ah"), f("2h"), f("3h")], 1,
                            POINTS)
    assert (meld.kind, meld.lo, meld.hi, meld.name) == (RUN, 1, 3, "m1")
    assert credit == 1 + 2 + 3  # the ace is low
    assert [c.seat for c in meld.cards] == [1, 1, 1]
    assert meld.fits == 1 << f("4h")


def test_a_set_of_four_laid_at_once_doubles_only_where_the_rules_say() -> None:
    four = [f("Kc"), f("Kd"), f("Kh"), f("Ks")]
    _, plain = new_meld(1, shape("Kc Kd Kh Ks"), four, 0, POINTS)
    assert plain == 40
    doubling = Points(make_rules("classic", four_of_a_kind_doubles=True))
    meld, doubled = new_meld(1, shape("Kc Kd Kh Ks"), four, 0, doubling)
    assert meld.kind == SET and doubled == 80
    run, credit = new_meld(2, shape("9h Th Jh Qh"), [f("9h"), f("Th"), f("Jh"), f("Qh")], 0,
                           doubling)
    assert run.kind == RUN and credit == 39  # runs never double


def test_lay_off_extends_a_run_and_credits_the_layer() -> None:
    meld, _ = new_meld(1, shape("2h 3h 4h"), [f("2h"), f("3h"), f("4h")], 0,
                       POINTS)
    low, value = lay_off(meld, f("Ah"), f("Ah"), 1, POINTS)
    assert (low.lo, low.hi, value) == (1, 4, 1)  # a low ace
    assert low.cards[-1].seat == 1
    assert low.fits == 1 << f("5h")
    high, value = lay_off(meld, f("5h"), f("5h"), 1, POINTS)
    assert (high.lo, high.hi, value) == (2, 5, 5)
    assert meld.hi == 4, "the meld laid off onto is a value and is not changed"


def test_lay_off_of_a_declared_joker_is_worth_the_joker_value() -> None:
    wild = make_rules("wild")
    points = Points(wild)
    meld, _ = new_meld(1, shape("7h 8h 9h", wild), [f("7h"), f("8h"), f("9h")], 0,
                       points)
    extended, value = lay_off(meld, DECLARED + f("Th"), 15, 1, points)
    assert value == 15
    assert extended.hi == 10 and extended.cards[-1].face == f("Th")
