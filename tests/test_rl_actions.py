"""The action encoding and the observation: exact with the engine, both ways, as documented."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from helpers import deal_from_hands
from rummy500.cards import iter_bits
from rummy500.errors import Rummy500Error
from rummy500.game import Game
from rummy500.moves import Move, parse_move
from rummy500.rl.actions import ActionSpace, action_space, face_index, index_face
from rummy500.rl.observation import observation_encoder
from rummy500.rules import find_preset, make_rules
from rummy500.view import view_of

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rl.md"

CONFIGS = [
    ("classic", 2, {}),
    ("classic", 6, {}),  # two packs
    ("wild", 2, {}),  # wild jokers, rummy calls
    ("wild", 5, {}),  # two packs of wild jokers
    ("persian", 4, {}),
    ("boathouse", 3, {"stock_exhausted": "reshuffle", "min_run": 4}),
    ("classic", 5, {"set_suits": "any"}),  # sets holding both copies of a card
    ("wild", 5, {"set_suits": "any"}),  # ... and wild jokers standing for a held card
]


def random_positions(preset: str, players: int, options: dict[str, object], games: int,
                     seed: int) -> list[Game]:
    """Random games, each stopped at a random point (auto-dealing through several deals)."""
    rng = random.Random(seed)
    rules = make_rules(preset, **options)
    found = []
    for _ in range(games):
        game = Game(rules, players, seed=rng.getrandbits(32))
        stop = rng.randrange(40, 400)
        while not game.finished and stop:
            game.play(rng.choice(game.legal_moves()), check=False)
            stop -= 1
        found.append(game)
    return found


def test_faces_are_numbered_suit_major() -> None:
    assert [face_index(parse_move(f"discard {t}").pieces[0]) for t in ("Ac", "Kc", "Ad", "Ks")] \
        == [0, 12, 13, 51]
    assert all(face_index(index_face(i)) == i for i in range(53))


@pytest.mark.parametrize(("preset", "players", "options"), CONFIGS)
def test_every_legal_move_round_trips_and_the_mask_is_exact(
    preset: str, players: int, options: dict[str, object]
) -> None:
    space = action_space(make_rules(preset, **options), players)
    positions = 0
    rng = random.Random(players)
    for game in random_positions(preset, players, options, 60, seed=len(preset) + players):
        # walk on a little from each stopping point, checking every position on the way
        for _ in range(20):
            if game.finished:
                break
            view = game.view(game.turn)
            moves = view.legal_moves()
            mask = space.mask(moves)
            assert mask.dtype == np.int8 and mask.shape == (space.size,)
            assert int(mask.sum()) == len(moves) == len(set(moves))
            assert set(space.moves(mask)) == set(moves)
            for move in moves:
                action = space.encode(move)
                assert space.decode(action) == move
                assert space.to_text(action) == str(move)
                assert space.from_text(str(move)) == action
            positions += 1
            game.play(rng.choice(moves), check=False)
    assert positions >= 800


def test_every_action_prints_and_parses_back() -> None:
    for preset, players in (("classic", 2), ("wild", 2), ("persian", 4), ("classic", 5)):
        space = action_space(find_preset(preset), players)
        texts = set()
        for action in range(space.size):
            text = space.to_text(action)
            assert space.from_text(text) == action, text
            texts.add(text)
        assert len(texts) == space.size


def test_blocks_cover_the_actions_in_order() -> None:
    space = action_space(find_preset("wild"), 2)
    assert [b.name for b in space.blocks] == [
        "draw", "end", "pass", "take", "discard", "meld", "layoff", "rummy meld", "rummy layoff"]
    assert space.blocks[0].start == 0 and space.blocks[-1].stop == space.size
    for before, after in zip(space.blocks, space.blocks[1:], strict=False):
        assert before.stop == after.start
    assert space.meld_slots == 54 // 3
    assert space.block("take").size == 53  # 52 faces and the joker


def test_meld_slots_cover_every_meld_a_pack_can_hold() -> None:
    for preset, players in (("classic", 2), ("classic", 6), ("persian", 4), ("wild", 5)):
        rules = find_preset(preset)
        space = action_space(rules, players)
        assert space.meld_slots * 3 <= rules.pack_size(players) < (space.meld_slots + 1) * 3
        last = Move("layoff", (index_face(0),), space.meld_slots)
        assert space.decode(space.encode(last)) == last


def test_moves_outside_the_encoding_are_refused() -> None:
    classic = action_space(find_preset("classic"), 2)
    too_far = Move("layoff", (parse_move("discard 7h").pieces[0],), classic.meld_slots + 1)
    for move in (
        too_far,
        parse_move("take *"),  # no jokers in classic
        parse_move("meld 5h *=6h 7h"),
        parse_move("pass"),  # no rummy calls in classic
        Move("meld", tuple(reversed(parse_move("meld 7h 8h 9h").pieces))),  # not canonical
        Move("discard", (31,)),  # not a face
    ):
        with pytest.raises(ValueError):
            classic.encode(move)
    with pytest.raises(ValueError):
        classic.decode(classic.size)
    wild = action_space(find_preset("wild"), 2)  # one pack: two wild jokers at most
    assert wild.decode(wild.from_text("meld 5h *=6h *=7h")) == parse_move("meld 5h *=6h *=7h")
    with pytest.raises(ValueError):
        wild.from_text("meld 5h *=6h *=7h *=8h")


def test_a_whole_suit_is_the_ace_high_run() -> None:
    game = deal_from_hands(find_preset("classic"), [
        "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "..."])
    game.play("draw")
    space = action_space(game.rules, 2)
    moves = game.view(0).legal_moves()
    assert int(space.mask(moves).sum()) == len(moves)
    whole = [m for m in moves if m.kind == "meld" and len(m.pieces) == 13]
    assert [str(m) for m in whole] == ["meld 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"]
    with pytest.raises(ValueError):
        space.encode(Move("meld", parse_move("meld Ah 2h 3h").pieces[:1] + whole[0].pieces[:12]))


def test_wild_joker_declarations_each_have_an_action() -> None:
    game = deal_from_hands(find_preset("wild"), ["5h 6h 7h * * 9c 9d Ks Qs Js", "..."])
    game.play("draw")
    space = action_space(game.rules, 2)
    moves = game.view(0).legal_moves()
    runs = {str(m) for m in moves if m.kind == "meld" and parse_move(str(m)).pieces[0] & 15 == 5}
    assert {"meld 5h 6h 7h", "meld 5h *=6h 7h", "meld *=5h 6h *=7h"} <= runs
    actions = [space.encode(m) for m in moves]
    assert len(set(actions)) == len(moves)


def test_a_view_not_to_move_has_no_legal_action() -> None:
    game = Game(find_preset("classic"), 2, seed=4)
    space = action_space(game.rules, 2)
    other = 1 - game.turn
    assert int(space.mask(game.view(other).legal_moves()).sum()) == 0


def test_documented_action_counts_match() -> None:
    """The table of action counts in docs/rl.md is the encoding's."""
    text = DOCS.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d) \| ([\d,]+) \| ([\d,]+) \|", text, re.MULTILINE)
    assert len(rows) >= 6
    for preset, players, actions, observation in rows:
        rules = find_preset(preset)
        assert action_space(rules, int(players)).size == int(actions.replace(",", ""))
        size = observation_encoder(rules, int(players)).size
        assert size == int(observation.replace(",", ""))


def test_observation_reads_the_view_only() -> None:
    """Cards the observer cannot see (other hands, the stock) do not change its observation."""
    rules = find_preset("classic")
    encoder = observation_encoder(rules, 3)
    game = Game(rules, 3, seed=11)
    rng = random.Random(2)
    for _ in range(60):
        game.play(rng.choice(game.legal_moves()), check=False)
    deal = game.deal
    before = encoder.encode(game.view(0))
    hidden = next(c for c in iter_bits(deal.hands[1]) if not deal.known[1] >> c & 1)
    swap = deal.stock[0]
    hands = list(deal.hands)
    hands[1] = hands[1] & ~(1 << hidden) | 1 << swap
    twin = deal.rearranged(hands, [hidden, *deal.stock[1:]])
    totals, number = tuple(game.totals), len(game.deals) - 1
    after = encoder.encode(view_of(twin, 0, totals, number))
    assert np.array_equal(before, after)
    assert not np.array_equal(encoder.encode(view_of(twin, 1, totals, number)), before)


@pytest.mark.parametrize(("preset", "players", "options"), CONFIGS)
def test_observation_fields_agree_with_the_view(
    preset: str, players: int, options: dict[str, object]
) -> None:
    rules = make_rules(preset, **options)
    encoder = observation_encoder(rules, players)
    assert encoder.fields[-1].stop == encoder.size
    for game in random_positions(preset, players, options, 15, seed=3):
        if game.finished:
            continue
        for seat in range(players):
            view = game.view(seat)
            obs = encoder.encode(view)
            assert obs.shape == (encoder.size,) and obs.dtype == np.float32
            assert np.all(obs >= encoder.low) and np.all(obs <= encoder.high)
            assert encoder.field(obs, "hand").sum() == view.hand.bit_count()
            table = encoder.field(obs, "table")
            for relative in range(players):
                laid = sum(1 for m in view.melds for c in m.cards
                           if c.seat == (seat + relative) % players)
                assert table[relative].sum() == laid
            assert encoder.field(obs, "melds").sum() == sum(len(m.cards) for m in view.melds)
            sizes = encoder.field(obs, "hand_sizes") * encoder.space.pack_size
            assert np.allclose(sizes, [view.hand_sizes[(seat + r) % players]
                                       for r in range(players)])
            depth = encoder.field(obs, "pile_depth")
            jokers = (encoder.field(obs, "pile_joker_depth") if encoder.space.joker_count
                      else np.zeros(0))
            assert int((depth > 0).sum() + (jokers > 0).sum()) == len(view.pile)
            if view.pile:
                top = view.pile[-1]
                top_value = 1 / encoder.space.pack_size
                assert top_value in depth or top_value in jokers, top
            assert encoder.field(obs, "turn")[(view.turn - seat) % players] == 1


def test_action_space_is_shared_per_rule_set() -> None:
    rules = find_preset("classic")
    assert action_space(rules, 2) is action_space(rules, 2)
    assert isinstance(action_space(rules, 2), ActionSpace)
    assert "size=1359" in repr(action_space(rules, 2))


def test_sets_holding_a_card_twice_have_actions_after_the_distinct_ones() -> None:
    distinct = action_space(make_rules("classic"), 5)
    any_suit = action_space(make_rules("classic", set_suits="any"), 5)
    action = any_suit.from_text("meld Ks Ks Kh")
    assert any_suit.to_text(action) == "meld Kh Ks Ks"
    assert any_suit.from_text("meld 7h 7d 7s") == distinct.from_text("meld 7h 7d 7s")
    with pytest.raises(Rummy500Error):
        distinct.from_text("meld Ks Ks Kh")
    assert any_suit.size > distinct.size
    assert action_space(make_rules("classic", set_suits="any"), 2).size == \
        action_space(make_rules("classic"), 2).size  # one pack: no card twice
