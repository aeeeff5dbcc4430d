"""Random play under every preset, player count and option mix, with invariants after each move.

After every move: every card of the pack lies in exactly one place; ``push`` then
``pop`` restores the whole game exactly (and pushing again gives the same next
deal); the legal-move list has no duplicates and agrees with the legality check
both ways (on every listed move and a sample of unlisted ones); known cards are
in their holder's hand; the table is made of proper melds whose points match the
rules; the deal ends within a bound derived from the idle rule. After every deal
the scores add up, and so do the game's totals.

``RUMMY500_SOAK=N`` plays N deals per configuration instead of the default 3.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rummy500 import Game, make_rules
from rummy500.cards import JOKER, face_of, faces_present, iter_bits, joker_count, make_pack
from rummy500.deal import IDLE_TURNS_PER_PLAYER, Deal
from rummy500.game import DEAD_DEALS, dead_run
from rummy500.kinds import MoveKind
from rummy500.legal import DRAW_PHASE, OVER, PLAY_PHASE, RUMMY_PHASE
from rummy500.melds import (
    ACE_HIGH,
    DECLARED,
    JOKER_SET,
    RUN,
    SET,
    Meld,
    accepts,
    find_melds,
)
from rummy500.moves import (
    LOWER,
    Move,
    canonical_meld,
    parse_move,
)
from rummy500.rules import Rules

DEALS = int(os.environ.get("RUMMY500_SOAK", "3"))
"""Deals played per configuration."""

SAMPLE = 30
"""Unlisted candidate moves checked per position (besides the draw-phase moves)."""

NATURAL_FACES = [suit << 4 | rank for suit in range(4) for rank in range(1, 14)]

CONFIGURATIONS: list[tuple[str, dict[str, Any], int]] = [
    *[("classic", {}, n) for n in range(2, 9)],
    *[("wild", {}, n) for n in range(2, 9)],
    *[("simplified", {}, n) for n in range(2, 7)],
    *[("boathouse", {}, n) for n in range(2, 9)],
    ("partnership", {}, 4),
    ("persian", {}, 4),
    ("classic", {"stock_exhausted": "end"}, 3),
    ("classic", {"stock_exhausted": "discard_pile", "hand_size_two": 7}, 2),
    ("classic", {"stock_exhausted": "reshuffle"}, 2),
    ("classic", {"stock_exhausted": "reshuffle"}, 5),
    ("wild", {"stock_exhausted": "reshuffle"}, 3),
    ("wild", {"stock_exhausted": "discard_pile"}, 2),
    ("classic", {"rummy_calls": True}, 3),
    ("classic", {"rummy_calls": True, "stock_exhausted": "reshuffle"}, 4),
    ("wild", {"rummy_calls": True, "stock_exhausted": "discard_pile"}, 5),
    ("classic", {"top_discard_must_be_used": True}, 2),
    ("boathouse", {"top_discard_must_be_used": True}, 3),
    ("classic", {"add_hand_to_winner": True}, 2),
    ("classic", {"add_hand_to_winner": True}, 3),
    ("partnership", {"add_hand_to_winner": True}, 4),
    ("classic", {"decks": 2}, 2),
    ("classic", {"min_run": 4}, 3),
    ("wild", {"min_run": 4}, 2),
    ("boathouse", {"jokers": "wild"}, 3),
    ("classic", {"discard_to_go_out": True, "jokers": "wild", "rummy_calls": True}, 2),
    ("simplified", {"point_divisor": 5}, 3),
    ("persian", {"stock_exhausted": "reshuffle", "add_hand_to_winner": True}, 4),
    ("persian", {"decks": 2, "rummy_calls": True}, 4),
    ("wild", {"decks": 2, "jokers_per_deck": 4, "ace_points": 25}, 2),
    ("classic", {"four_of_a_kind_doubles": True, "going_out_bonus": 25, "max_deals": 2,
                 "final_bonus": 50}, 3),
]


def _config_id(config: tuple[str, dict[str, Any], int]) -> str:
    preset, options, players = config
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{preset}-{players}" + (f"-{extra}" if extra else "")


# ---------------------------------------------------------------------------
# Points, written out from RULES.md section 4 (not taken from the engine)


def card_value(rules: Rules, face: int, *, joker: bool, low_ace: bool = False) -> int:
    if joker:
        value = rules.joker_value
    else:
        rank = face & 15
        if rank == 1:
            value = rules.low_ace_points if low_ace else rules.ace_points
        elif rank >= 10:
            value = 10
        else:
            value = 5 if rules.card_points == "simplified" else rank
    assert value % rules.point_divisor == 0
    return value // rules.point_divisor


def hand_points(rules: Rules, hand: int) -> int:
    return sum(card_value(rules, face_of(card), joker=card & 15 == 15) for card in iter_bits(hand))


def first_sizes(deal: Deal) -> list[int]:
    """How many cards each meld held when it reached the table, from the moves."""
    return [len(m.pieces) for m in deal.moves if m.kind in (MoveKind.MELD, MoveKind.RUMMY_MELD)]


def check_meld(rules: Rules, meld: Meld, number: int, first_size: int) -> None:
    """A meld on the table is a proper meld, and each card scores what the rules say."""
    cards = meld.cards
    assert meld.number == number
    assert 3 <= first_size <= len(cards)
    naturals = [c for c in cards if c.card & 15 != 15]
    for c in cards:
        if c.card & 15 != 15:
            assert c.face == face_of(c.card)
        elif rules.jokers == "persian":
            assert c.face == JOKER
        else:
            assert rules.jokers == "wild" and c.face != JOKER
    if meld.kind == JOKER_SET:
        assert not naturals and 3 <= len(cards) <= 4
        assert all(c.face == JOKER for c in cards)
    else:
        assert naturals, f"{meld} has no natural card"
        faces = [c.face for c in cards]
        if not (meld.kind == SET and rules.set_suits == "any"):  # only then a card twice
            assert len(set(faces)) == len(faces)
        assert meld.faces == sum(1 << f for f in set(faces))
    if meld.kind == SET:
        assert 3 <= len(cards) <= 4
        assert {c.face & 15 for c in cards} == {meld.rank}
    elif meld.kind == RUN:
        assert {c.face >> 4 for c in cards} == {meld.suit}
        positions = sorted(
            ACE_HIGH if c.face & 15 == 1 and meld.hi == ACE_HIGH else c.face & 15 for c in cards
        )
        assert positions == list(range(meld.lo, meld.hi + 1))
        assert len(cards) >= rules.min_run and not (meld.lo == 1 and meld.hi == ACE_HIGH)
    doubled = rules.four_of_a_kind_doubles and meld.kind != RUN and first_size == 4
    for index, c in enumerate(cards):
        low_ace = meld.kind == RUN and c.face & 15 == 1 and meld.lo == 1
        value = card_value(rules, c.face, joker=c.card & 15 == 15, low_ace=low_ace)
        if doubled and index < 4:
            value *= 2
        assert c.points == value, (meld, c)


def check_table(deal: Deal) -> None:
    rules = deal.rules
    sizes = first_sizes(deal)
    assert len(sizes) == len(deal.melds)
    credit = [0] * deal.players
    for number, (meld, size) in enumerate(zip(deal.melds, sizes, strict=True), 1):
        check_meld(rules, meld, number, size)
        for c in meld.cards:
            credit[c.seat] += c.points
    assert credit == deal.credit


# ---------------------------------------------------------------------------
# The legal-move list against the legality check


def _sample(rng: random.Random, items: list[Move], count: int) -> list[Move]:
    return items if len(items) <= count else rng.sample(items, count)


def candidate_moves(deal: Deal, rng: random.Random) -> list[Move]:
    """Moves worth asking about: legal or not, in hand or not, in and out of phase."""
    rules = deal.rules
    hand = deal.hands[deal.turn]
    held = faces_present(hand)
    hand_faces = list(iter_bits(held))
    outside = rng.sample(NATURAL_FACES, 3)
    pile_cards = 0
    for card in deal.pile:
        pile_cards |= 1 << card
    pile_faces = list(iter_bits(faces_present(pile_cards)))
    jokers = joker_count(hand)
    wild = jokers if rules.jokers == "wild" else 0
    persian = jokers if rules.jokers == "persian" else 0
    fixed = [Move(MoveKind.DRAW), Move(MoveKind.END), Move(MoveKind.PASS),
             Move(MoveKind.DISCARD, (JOKER,)), Move(MoveKind.TAKE, (JOKER,))]
    fixed += [Move(MoveKind.TAKE, (face_of(card),)) for card in deal.pile[-3:]]
    fixed += [Move(MoveKind.TAKE, (face_of(card),), LOWER)
              for card in deal.pile[-6:] if card & 15 != 15]
    pool: list[Move] = []
    pool += [Move(MoveKind.DISCARD, (f,)) for f in hand_faces + outside]
    pool += [Move(MoveKind.TAKE, (f,)) for f in pile_faces + outside]
    pool += [Move(MoveKind.TAKE, (f,), LOWER) for f in pile_faces + outside[:1]]
    extra_wild = wild + 1 if rules.jokers == "wild" else 0
    found = find_melds(held | 1 << outside[0], extra_wild, persian + 1, rules.min_run)
    pool += [Move(MoveKind.MELD, p) for p in found[:60]]
    pool += [Move(MoveKind.MELD, (JOKER,) * 3),
             Move(MoveKind.MELD, (outside[1] + DECLARED, *outside[:2]))]
    if len(hand_faces) >= 3:
        for _ in range(5):
            size = min(len(hand_faces), rng.randint(3, 4))
            pool.append(Move(MoveKind.MELD, tuple(rng.sample(hand_faces, size))))
    for meld in deal.melds:
        fits = list(iter_bits(accepts(meld)))
        declared = [f + DECLARED for f in fits if f != JOKER]
        for piece in [*fits, *declared, *hand_faces[:4], outside[2], JOKER,
                      outside[2] + DECLARED]:
            pool.append(Move(MoveKind.LAYOFF, (piece,), meld.number))
            if piece in pile_faces or piece == JOKER:
                pool.append(Move(MoveKind.RUMMY_LAYOFF, (piece,), meld.number))
    pool.append(Move(MoveKind.LAYOFF, (outside[0],), len(deal.melds) + 1))
    pile_wild = joker_count(pile_cards) if rules.jokers == "wild" else 0
    pile_persian = joker_count(pile_cards) if rules.jokers == "persian" else 0
    for pieces in find_melds(faces_present(pile_cards) | 1 << outside[1], pile_wild + 1,
                             pile_persian, rules.min_run)[:40]:
        pool.append(Move(MoveKind.RUMMY_MELD, pieces))
    chosen = fixed + _sample(rng, pool, SAMPLE)
    canonical = {
        m._replace(pieces=canonical_meld(m.pieces))
        if m.kind in (MoveKind.MELD, MoveKind.RUMMY_MELD) else m
        for m in chosen
    }
    return sorted(canonical)


def check_moves(deal: Deal, rng: random.Random) -> list[Move]:
    """The legal moves of the position, after checking them against ``why_illegal``."""
    moves = deal.legal_moves()
    if deal.over:
        assert moves == []
        assert deal.why_illegal(Move(MoveKind.DRAW)) == "the deal is over"
        return moves
    assert moves, f"no legal move: {deal.fen()}"
    listed = set(moves)
    assert len(listed) == len(moves), f"a move is listed twice: {moves}"
    for move in moves:
        assert deal.why_illegal(move) is None, (str(move), deal.fen())
        assert parse_move(str(move)) == move
    for move in candidate_moves(deal, rng):
        reason = deal.why_illegal(move)
        if move in listed:
            assert reason is None, (str(move), reason, deal.fen())
        else:
            assert isinstance(reason, str) and reason, (str(move), deal.fen())
    return moves


def check_position(deal: Deal, pack: list[int]) -> None:
    rules = deal.rules
    assert sorted(deal.all_cards()) == pack, deal.fen()
    for seat in range(deal.players):
        assert deal.known[seat] & ~deal.hands[seat] == 0, f"seat {seat}'s known cards"
    check_table(deal)
    if deal.must_use >= 0:
        assert deal.phase == PLAY_PHASE
        assert deal.hands[deal.turn] >> deal.must_use & 1
    if deal.phase == DRAW_PHASE and not deal.stock:
        assert rules.stock_exhausted == "discard_pile"
    if deal.phase == RUMMY_PHASE:
        assert rules.rummy_calls and deal.turn != deal.discarder
    if deal.phase != OVER:
        assert deal.went_out is None and deal.ended_by == ""


# ---------------------------------------------------------------------------
# Undo


def deal_state(deal: Deal) -> tuple[Any, ...]:
    """Everything a move may change (the position string is compared on its own: it is slow)."""
    return (tuple(deal.hands), tuple(deal.pile), tuple(deal.stock), tuple(deal.melds),
            tuple(deal.credit), tuple(deal.known), deal.turn, deal.phase, deal.must_use,
            tuple(deal.moves), deal.went_out, deal.ended_by, deal.restocks,
            tuple(map(tuple, deal.restock_orders)))


def game_state(game: Game, deal: Deal) -> tuple[Any, ...]:
    """The game around ``deal``: totals, results, the random source and any next deal."""
    latest = game.deals[-1]
    return (deal_state(deal), len(game.deals), tuple(game.results), tuple(game.totals),
            game.finished, game.winner, game.margin, game.rng.getstate(),
            None if latest is deal else (latest.deck, latest.fen(), deal_state(latest)))


# ---------------------------------------------------------------------------
# Scores


def check_result(deal: Deal) -> None:
    rules, players = deal.rules, deal.players
    result = deal.result()
    assert result.ended_by in ("went out", "stock", "declined", "idle")
    assert (result.went_out is not None) == (result.ended_by == "went out")
    if result.went_out is not None:
        assert deal.hands[result.went_out] == 0
    if result.ended_by == "stock":
        assert not deal.stock and rules.stock_exhausted in ("end", "reshuffle")
    if result.ended_by == "declined":
        assert deal.moves[-1] == Move(MoveKind.END)
    assert list(result.melded) == deal.credit
    in_hand = [hand_points(rules, hand) for hand in deal.hands]
    assert list(result.in_hand) == in_hand
    sides = 2 if rules.partnership else players
    side = [seat % 2 if rules.partnership else seat for seat in range(players)]
    scores = [0] * sides
    for seat in range(players):
        scores[side[seat]] += result.melded[seat]
        if not rules.add_hand_to_winner:
            scores[side[seat]] -= in_hand[seat]
    if rules.add_hand_to_winner:
        if result.went_out is not None:
            winner = side[result.went_out]
            scores[winner] += sum(in_hand[s] for s in range(players) if side[s] != winner)
        elif sides == 2:
            for seat in range(players):
                scores[1 - side[seat]] += in_hand[seat]
    if result.went_out is not None:
        scores[side[result.went_out]] += rules.going_out_bonus // rules.point_divisor
    assert list(result.scores) == scores


def check_totals(game: Game) -> None:
    rules = game.rules
    totals = [sum(result.scores[s] for result in game.results) for s in range(len(game.totals))]
    if game.finished and game.winner is not None:
        totals[game.winner] += rules.final_bonus // rules.point_divisor
        best = max(t for s, t in enumerate(totals) if s != game.winner)
        assert game.margin == totals[game.winner] - best
        assert game.margin > 0
    assert totals == game.totals
    if game.finished:
        ended = (len(game.results) >= rules.deal_limit) or (
            rules.target_score is not None and game.winner is not None
            and game.totals[game.winner] >= rules.target_score) or (
            dead_run(game.deals[:len(game.results)]) >= DEAD_DEALS)
        assert ended
    else:
        assert len(game.results) < rules.deal_limit
        assert dead_run(game.deals[:len(game.results)]) < DEAD_DEALS


# ---------------------------------------------------------------------------
# Playing


def turn_bound(deal: Deal) -> int:
    """Turns a deal may last: every turn but 10 x players in a row draws from the stock or
    puts a card on the table, and there are only so many cards for that."""
    pack = len(deal.all_cards())
    restock = pack if deal.rules.stock_exhausted == "reshuffle" else 0
    return (len(deal.stock) + restock + pack + 1) * IDLE_TURNS_PER_PLAYER * deal.players


def play_deal(game: Game, rng: random.Random, pack: list[int]) -> Deal:
    """Play the current deal to its end with random legal moves, checking every invariant."""
    deal = game.deal
    bound = turn_bound(deal)
    move_bound = bound * (deal.players + 2) + len(pack)
    turns = 0
    while True:
        check_position(deal, pack)
        moves = check_moves(deal, rng)
        if deal.over:
            break
        move = rng.choice(moves)
        before, fen = game_state(game, deal), deal.fen()
        game.push(move)
        after = game_state(game, deal)
        assert game.pop() == move
        assert game_state(game, deal) == before, f"pop after {move} did not restore"
        assert deal.fen() == fen
        other = rng.choice(moves)
        game.push(other)
        assert game.pop() == other
        assert game_state(game, deal) == before, f"pop after {other} did not restore"
        game.push(move, check=False)
        assert game_state(game, deal) == after, f"pushing {move} again differs"
        turns += move.kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.END)
        assert turns <= bound and len(deal.moves) <= move_bound, f"the deal stalls: {deal.fen()}"
    check_result(deal)
    assert game.results[-1] == deal.result()
    check_totals(game)
    if not game.finished:
        assert game.deal.dealer == (deal.dealer + 1) % deal.players, "the deal passes left"
    return deal


def play_random(rules: Rules, players: int, deals: int, seed: int) -> Iterator[Deal]:
    rng = random.Random(seed)
    pack = sorted(make_pack(rules.deck_count(players), rules.jokers_in_each_deck))
    game = Game(rules, players, seed=seed)
    for _ in range(deals):
        if game.finished:
            assert game.legal_moves() == []
            game = Game(rules, players, seed=rng.randrange(1 << 30))
        yield play_deal(game, rng, pack)


@pytest.mark.parametrize("config", CONFIGURATIONS, ids=_config_id)
def test_random_play_keeps_every_invariant(config: tuple[str, dict[str, Any], int]) -> None:
    preset, options, players = config
    rules = make_rules(preset, **options)
    played = 0
    for deal in play_random(rules, players, DEALS, seed=sum(map(ord, _config_id(config)))):
        played += 1
        assert deal.ended_by in ("went out", "stock", "declined", "idle"), deal.ended_by
        assert (deal.went_out is not None) == (deal.ended_by == "went out"), deal.fen()
        if deal.went_out is not None:
            assert deal.hands[deal.went_out] == 0, deal.fen()
    assert played == DEALS


def test_the_configurations_cover_every_preset_and_player_count() -> None:
    presets = ("classic", "wild", "simplified", "boathouse", "partnership", "persian")
    counts: dict[str, set[int]] = {preset: set() for preset in presets}
    for preset, options, players in CONFIGURATIONS:
        if not options:
            counts[preset].add(players)
    assert counts == {"classic": set(range(2, 9)), "wild": set(range(2, 9)),
                      "simplified": set(range(2, 7)), "boathouse": set(range(2, 9)),
                      "partnership": {4}, "persian": {4}}
    mixed = {name for _preset, options, _players in CONFIGURATIONS for name in options}
    assert {"stock_exhausted", "rummy_calls", "top_discard_must_be_used", "add_hand_to_winner",
            "decks", "min_run", "discard_to_go_out", "point_divisor"} <= mixed


class _LowerTakes(random.Random):
    """Random choices that take the lower copy (``take 7h/2``) whenever it is legal."""

    taken = 0

    def choice(self, seq: Any) -> Any:
        lower = [m for m in seq
                 if isinstance(m, Move) and m.kind == MoveKind.TAKE and m.meld == LOWER]
        if lower:
            self.taken += 1
            return super().choice(lower)
        return super().choice(seq)


@pytest.mark.parametrize("config", [("classic", {"decks": 2}, 3),
                                    ("wild", {"decks": 2, "stock_exhausted": "reshuffle"}, 2)],
                         ids=_config_id)
def test_random_play_taking_lower_copies_keeps_every_invariant(
        config: tuple[str, dict[str, Any], int]) -> None:
    """Two packs, every legal ``take 7h/2`` played (and pushed, popped, checked)."""
    preset, options, players = config
    rules = make_rules(preset, **options)
    pack = sorted(make_pack(rules.deck_count(players), rules.jokers_in_each_deck))
    rng = _LowerTakes(7)
    lower_takes = 0
    for seed in range(DEALS):
        game = Game(rules, players, seed=seed)
        deal = play_deal(game, rng, pack)
        lower_takes += sum(m.kind == MoveKind.TAKE and m.meld == LOWER for m in deal.moves)
    assert lower_takes >= 1 and rng.taken >= lower_takes
