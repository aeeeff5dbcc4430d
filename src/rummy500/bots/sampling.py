"""Determinization: whole deals consistent with everything one seat knows.

A sample keeps every card the seat has seen where it is (its own hand, the
pile, the table, the cards others are known to hold after taking them from
the pile) and deals the unseen cards at random into the other hands' unknown
places and the stock. The result is a real :class:`~rummy500.deal.Deal` in the
view's position, ready for playouts; it is only ever a guess at the real deal.

Unseen cards are not all equally likely in a given hand: a player who
discarded a card, or left it on the pile to draw from the stock, rarely holds
cards that meld with it. :func:`sample_deal` leans each unseen card towards or
away from each hand by such evidence, never against a hard fact; ``lean`` sets how far (0:
not at all, 1: each weight as it is, 2: each weight squared; by default :func:`lean_for` the
rules, as measured best).
"""

from __future__ import annotations

import random

from ..cards import face_of, iter_bits
from ..deal import Deal
from ..errors import PositionError
from ..rules import Rules
from ..view import PlayerView
from .knowledge import Knowledge

LEAN = 1.5
"""How far sampled deals lean on the evidence, each weight to this power, where no wild
jokers are dealt. Over the same 400 duplicate pairs of ``classic`` at ``--worlds 32``,
``mcts`` beat ``expert`` by +26.1 a deal with 1.5 against +23.1 with 1 (docs/strength.md)."""

LEAN_WITH_WILD_JOKERS = 1.0
"""The same where wild jokers are dealt: a seat holds on to cards that a joker may yet
meld, so what it throws and passes says less about its hand. Over the 400 pairs of
``wild``, 1.5 gave +15.1 a deal against +19.2 with 1."""


def lean_for(rules: Rules) -> float:
    """How far sampled deals lean on the evidence under ``rules`` (see :data:`LEAN`)."""
    return LEAN_WITH_WILD_JOKERS if rules.jokers == "wild" else LEAN


def card_weights(know: Knowledge, seat: int) -> dict[int, float]:
    """How much likelier than average each unseen card is to be in ``seat``'s hand."""
    record = know.records[seat]
    avoided = record.discarded | record.passed
    wanted = record.wanted
    weights: dict[int, float] = {}
    for card in iter_bits(know.unseen):
        face = face_of(card)
        if face == 15:
            weights[card] = 1.0
            continue
        weight = 1.0
        suit, rank = face >> 4, face & 15
        same_rank = 0
        near = 0
        for s in range(4):
            same_rank |= 1 << (s << 4 | rank)
        for r in (rank - 1, rank + 1):
            if 1 <= r <= 13:
                near |= 1 << (suit << 4 | r)
        if avoided & same_rank:
            weight *= 0.6
        if avoided & near:
            weight *= 0.8
        if wanted & (same_rank | near) & ~(1 << face):
            weight *= 1.5
        weights[card] = weight
    return weights


def sample_hands(view: PlayerView, know: Knowledge, rng: random.Random,
                 lean: float | None = None) -> tuple[list[int], list[int]]:
    """Hands for every seat and a stock order (top last), consistent with the view;
    ``lean`` by :func:`lean_for` the view's rules unless given."""
    if lean is None:
        lean = lean_for(view.rules)
    players = view.players
    hands = [0] * players
    for seat in range(players):
        hands[seat] = view.hand if seat == view.seat else view.known[seat]
    unseen = list(iter_bits(know.unseen))
    rng.shuffle(unseen)
    needs = [0 if seat == view.seat else know.unknown[seat] for seat in range(players)]
    if sum(needs) + view.stock_count != len(unseen):
        raise PositionError("the view's card counts do not add up")
    if lean:
        # each hand in turn draws its unknown cards, weighted by its evidence
        order = sorted(range(players), key=lambda s: -needs[s])
        left = unseen
        for seat in order:
            need = needs[seat]
            if not need:
                continue
            weights = card_weights(know, seat)
            keys = [(rng.random() ** (1.0 / weights.get(card, 1.0) ** lean), card)
                    for card in left]
            keys.sort(reverse=True)
            chosen = {card for _, card in keys[:need]}
            for card in chosen:
                hands[seat] |= 1 << card
            left = [card for card in left if card not in chosen]
        stock = left
    else:
        index = 0
        for seat in range(players):
            for card in unseen[index:index + needs[seat]]:
                hands[seat] |= 1 << card
            index += needs[seat]
        stock = unseen[index:]
    rng.shuffle(stock)
    return hands, stock


def sample_deal(view: PlayerView, rng: random.Random, know: Knowledge | None = None,
                lean: float | None = None) -> Deal:
    """A whole deal in the view's position, its hidden cards drawn at random."""
    know = know if know is not None else Knowledge(view)
    hands, stock = sample_hands(view, know, rng, lean)
    return deal_from(view, hands, stock, rng)


def deal_from(view: PlayerView, hands: list[int], stock: list[int],
              rng: random.Random) -> Deal:
    """The view's position with the given hidden cards (``stock`` top last)."""
    return Deal.from_position(
        view.rules, view.players, dealer=view.dealer, hands=hands, pile=view.pile,
        stock=stock, melds=view.melds, known=view.known, turn=view.turn, phase=view.phase,
        must_use=view.must_use, discarder=view.discarder, idle_turns=view.idle_turns,
        progress=view.progress, restocks=view.restocks, passed=view.passed,
        moves=view.history, movers=view.movers, rng=rng)
