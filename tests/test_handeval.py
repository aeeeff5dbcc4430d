"""The hand evaluator of the computer players: a hand's worth does not depend on what it
evaluated before."""

from __future__ import annotations

import random

from rummy500.bots.handeval import Evaluator
from rummy500.cards import Cards, make_pack
from rummy500.rules import PRESETS, Rules
from rummy500.scoring import points_for


def evaluator(rules: Rules) -> Evaluator:
    pack = make_pack(1, rules.jokers_in_each_deck)
    live = [0] * 64
    for card in pack:
        live[card & 63] += 1
    return Evaluator(rules, points_for(rules), [], live, len(pack), [0] * 64, draws=6.0,
                     stuck=0.5)


def test_a_hand_is_worth_the_same_fresh_and_after_a_longer_one() -> None:
    rules = PRESETS["classic"]
    short = Cards.parse("2c 3c 4c").bits
    fresh = evaluator(rules).value(short)
    used = evaluator(rules)
    used.value(Cards.parse("2c 3c 4c 5c 6c 7c").bits)
    assert used.value(short) == fresh
    assert fresh >= 9  # the run 2-3-4 is worth its 9 points at least


def random_meld(rng: random.Random) -> int:
    """A run of three or a set of three, never of spades above 8."""
    if rng.random() < 0.5:
        suit, low = rng.randrange(3), rng.randrange(1, 12)
        faces = [suit << 4 | rank for rank in range(low, low + 3)]
    else:
        rank = rng.randrange(1, 9)
        faces = [suit << 4 | rank for suit in rng.sample(range(4), 3)]
    cards = 0
    for face in faces:
        cards |= 1 << face
    return cards


def test_values_do_not_depend_on_the_order_of_evaluation() -> None:
    rng = random.Random(5)
    run = Cards.parse("9s Ts Js").bits
    for preset in ("classic", "simplified", "wild"):
        rules = PRESETS[preset]
        hands = [random_meld(rng) | (random_meld(rng) if rng.random() < 0.5 else 0)
                 for _ in range(40)]
        fresh = [evaluator(rules).value(hand) for hand in hands]
        shared = evaluator(rules)
        for hand in hands:
            shared.value(hand | run)  # a bigger hand first: its search meets every subset
        assert [shared.value(hand) for hand in hands] == fresh
