"""Unit tests of :mod:`rummy500.scoring`: what a card is worth on the table and in hand."""

from __future__ import annotations

import pytest

from rummy500 import make_rules
from rummy500.cards import JOKER, Cards, parse_face
from rummy500.scoring import Points, points_for


def face(text: str) -> int:
    return parse_face(text)


def hand(text: str) -> int:
    return Cards.parse(text).bits


@pytest.mark.parametrize(
    ("card", "value"),
    [("2h", 2), ("9s", 9), ("Tc", 10), ("Jd", 10), ("Qh", 10), ("Ks", 10), ("Ah", 15)],
)
def test_traditional_values_on_the_table(card: str, value: int) -> None:
    points = Points(make_rules("classic"))
    assert points.on_table(face(card), low_ace=False, joker=False) == value


def test_a_low_ace_in_a_run_is_worth_the_low_ace_value() -> None:
    classic = Points(make_rules("classic"))
    assert classic.on_table(face("Ah"), low_ace=True, joker=False) == 1
    five = Points(make_rules("classic", low_ace_points=5))
    assert five.on_table(face("Ah"), low_ace=True, joker=False) == 5


def test_a_joker_is_worth_the_joker_value_whatever_it_stands_for() -> None:
    wild = Points(make_rules("wild"))
    assert wild.on_table(face("2h"), low_ace=False, joker=True) == 15
    assert Points(make_rules("persian")).on_table(JOKER, low_ace=False, joker=True) == 20
    assert Points(make_rules("wild", joker_points=25)).on_table(
        face("Ah"), low_ace=False, joker=True) == 25


def test_simplified_values_are_five_for_low_cards() -> None:
    points = Points(make_rules("classic", card_points="simplified"))
    assert [points.on_table(face(c), False, False) for c in ("2h", "9s", "Tc", "Kd", "As")] == [
        5, 5, 10, 10, 15]


def test_point_divisor_divides_every_value() -> None:
    rules = make_rules("classic", card_points="simplified", point_divisor=5, low_ace_points=5)
    points = Points(rules)
    assert [points.on_table(face(c), False, False) for c in ("2h", "Tc", "As")] == [1, 2, 3]


def test_a_hand_counts_every_card_in_it() -> None:
    points = Points(make_rules("classic"))
    assert points.in_hand(0) == 0
    assert points.in_hand(hand("Ah Kd 7c 2s")) == 15 + 10 + 7 + 2
    wild = Points(make_rules("wild"))
    jokers = Cards([15, 31]).bits  # the pack's two jokers
    assert wild.in_hand(jokers | hand("3h")) == 15 + 15 + 3


def test_second_pack_cards_count_like_the_first() -> None:
    points = Points(make_rules("classic"))
    seven = face("7h")
    assert points.in_hand(1 << seven | 1 << (seven + 64)) == 14


def test_points_for_is_shared_per_rule_set() -> None:
    rules = make_rules("classic")
    assert points_for(rules) is points_for(make_rules("classic"))
    assert points_for(make_rules("classic", ace_points=25)).ace == 25
