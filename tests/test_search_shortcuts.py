"""The shortcuts that make ``mcts`` faster give the very values and moves of the plain
reckoning: batched hand values, the card count, the table's facts and the caches shared
between decisions."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummy500.bots import context as context_module
from rummy500.bots import face_pairs, face_shapes, handeval, make_bot, shared_odds, table_facts
from rummy500.bots.base import Decision
from rummy500.bots.context import Context
from rummy500.bots.expert import ExpertBot
from rummy500.bots.handeval import Evaluator
from rummy500.bots.leftovers import LeftoverValues
from rummy500.bots.table_facts import lay_off
from rummy500.cards import face_of, iter_bits
from rummy500.game import Game
from rummy500.kinds import Phase
from rummy500.melds import ACE_HIGH
from rummy500.rules import PRESETS
from rummy500.view import PlayerView

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = [("classic", 2), ("wild", 2), ("simplified", 3), ("boathouse", 2),
            ("partnership", 4), ("persian", 4), ("classic", 5), ("simplified", 6)]
"""Every preset, and two packs (five and six players)."""


def views_met(preset: str, players: int, seed: int, count: int) -> Iterator[PlayerView]:
    """Views of the seat to move, met in a game of experts (melds on the table, jokers)."""
    game = Game(PRESETS[preset], players, seed=seed)
    bots = [make_bot("expert", seed + seat) for seat in range(players)]
    met = 0
    while not game.finished and met < count:
        view = game.view(game.turn)
        if view.phase != Phase.RUMMY:
            met += 1
            yield view
        game.play(bots[game.turn].choose(view))


def fresh_twin(ctx: Context) -> Evaluator:
    """An evaluator with the same table and counts as ``ctx``'s, that has valued nothing."""
    know = ctx.know
    return Evaluator(ctx.rules, ctx.points, ctx.view.melds, know.live, know.pool,
                     know.pile_count, ctx.draws, ctx.stuck)


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_batched_hand_values_are_the_plain_ones(preset: str, players: int) -> None:
    rng = random.Random(3)
    checked = 0
    for view in views_met(preset, players, 11, 60):
        ctx = Context(view, light=True)
        hand = view.hand
        cards = list(iter_bits(hand))
        subset = hand
        for card in rng.sample(cards, len(cards) // 3):
            subset &= ~(1 << card)
        for cards_valued in (hand, subset):
            plain = fresh_twin(ctx)
            batched = ctx.evaluator
            assert batched.leftovers_without(cards_valued) == [
                (card, plain.leftover(cards_valued & ~(1 << card)))
                for card in iter_bits(cards_valued)]
            for card in iter_bits(ctx.know.unseen):
                assert batched.leftover_with(cards_valued, card) == \
                    fresh_twin(ctx).leftover(cards_valued | 1 << card)
            assert batched.has_melds(cards_valued) == bool(plain._melds(cards_valued))
            checked += 1
    assert checked >= 60


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_the_card_count_is_the_views(preset: str, players: int) -> None:
    for view in views_met(preset, players, 5, 40):
        know = Context(view).know
        assert know.unseen == view.unseen()
        live = [0] * 64
        for card in iter_bits(view.unseen()):
            live[face_of(card)] += 1
        assert know.live == live
        pile = [0] * 64
        for card in view.pile:
            pile[face_of(card)] += 1
        assert know.pile_count == pile


def test_table_facts_are_those_of_the_table_even_after_the_cache_starts_afresh() -> None:
    seen = 0
    for view in views_met("persian", 4, 2, 200):
        facts = table_facts.table_facts(view.melds)
        worked_out = table_facts._work_out(view.melds)
        assert facts[:-1] == worked_out[:-1]  # all but what the evaluators filled in
        table_facts._TABLES.clear()
        table_facts._BY_MELDS.clear()
        assert table_facts.table_facts(view.melds)[:-1] == worked_out[:-1]
        seen += bool(view.melds)
    assert seen > 10  # tables with melds were met


def test_equal_tables_share_their_facts() -> None:
    seen = 0
    for view in views_met("classic", 2, 4, 120):
        twins = tuple(meld._replace() for meld in view.melds)  # equal melds, new objects
        assert all(twin is not meld for twin, meld in zip(twins, view.melds, strict=True))
        assert table_facts.table_facts(twins) is table_facts.table_facts(view.melds)
        seen += bool(view.melds)
    assert seen > 10


def plain_lay_off(values: LeftoverValues, naturals: int) -> tuple[int, float]:
    """What lays off from ``naturals``, a suit and a run step at a time."""
    laid = 0
    value = 0.0
    for rank, (open_faces, room) in values.set_open.items():
        for suit in range(4):
            face = suit << 4 | rank
            if room > 0 and open_faces >> face & 1:
                card = face if naturals >> face & 1 else face + 64
                if naturals >> card & 1:
                    laid |= 1 << card
                    value += values.rank_value[rank]
                    room -= 1
    for suit, lo, hi in values.runs:
        for step in (-1, 1):
            while True:
                pos = lo - 1 if step < 0 else hi + 1
                if (pos < 1 or pos > ACE_HIGH or (step < 0 and lo == 2 and hi == ACE_HIGH)
                        or (step > 0 and hi == 13 and lo == 1)):
                    break
                face = suit << 4 | (1 if pos == ACE_HIGH else pos)
                free = naturals & ~laid
                card = face if free >> face & 1 else face + 64
                if not free >> card & 1:
                    break
                laid |= 1 << card
                value += values.points.low_ace if pos == 1 else values.rank_value[pos]
                lo, hi = (pos, hi) if step < 0 else (lo, pos)
    return laid, value


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("classic", 5),
                                                 ("simplified", 6)])
def test_lay_offs_are_those_found_a_suit_at_a_time(preset: str, players: int) -> None:
    rng = random.Random(7)
    checked = 0
    for view in views_met(preset, players, 9, 150):
        evaluator = Context(view, light=True).evaluator
        if not evaluator.fit_faces:
            continue
        pack = view.unseen() | view.hand
        for _ in range(20):
            naturals = 0
            for card in rng.sample(list(iter_bits(pack)), 9):
                if card & 15 != 15:
                    naturals |= 1 << card
            found = lay_off(evaluator.runs, evaluator.set_open, naturals, evaluator.rank_value,
                            evaluator.points.low_ace)
            assert found == plain_lay_off(evaluator, naturals)
            checked += 1
    assert checked > 200


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_evaluators_of_the_same_counts_share_their_odds_and_value_alike(
        preset: str, players: int) -> None:
    rng = random.Random(5)
    for view in views_met(preset, players, 13, 30):
        ctx = Context(view, light=True)
        know = ctx.know
        ctx.evaluator.value(view.hand)  # the odds worked out against the view's table
        counts = (know.live, know.pool, know.pile_count, ctx.draws, ctx.stuck)
        bare = Evaluator(ctx.rules, ctx.points, (), *counts, know.unseen, None, know.pile_cards)
        assert bare._pair_gain is ctx.evaluator._pair_gain
        plain = Evaluator(ctx.rules, ctx.points, (), *counts)  # shares nothing
        assert plain._pair_gain is not bare._pair_gain
        cards = list(iter_bits(view.hand | know.unseen))
        for _ in range(4):
            hand = sum(1 << card for card in rng.sample(cards, min(len(cards), 9)))
            assert bare.value(hand) == plain.value(hand)
            assert bare.leftovers_without(hand) == plain.leftovers_without(hand)


class CountingExpert(ExpertBot):
    """A light expert that counts the decisions it works out."""

    def __init__(self) -> None:
        super().__init__(0, light=True)
        self.worked_out = 0

    def _decide(self, view: PlayerView) -> Decision:
        self.worked_out += 1
        return super()._decide(view)


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("persian", 4)])
def test_a_light_expert_decides_a_view_met_again_as_the_first_time(
        preset: str, players: int) -> None:
    bot = CountingExpert()
    for view in views_met(preset, players, 6, 40):
        fresh = ExpertBot(0, light=True).decide(view)
        assert bot.decide(view) == fresh
        worked_out = bot.worked_out
        assert bot.decide(dataclasses.replace(view)) == fresh  # an equal view: remembered
        assert bot.worked_out == worked_out
        # a view the remembered one is not (the next deal's): worked out afresh
        later = dataclasses.replace(view, deal_number=view.deal_number + 1)
        assert bot.decide(later) == ExpertBot(0, light=True).decide(later)
        assert bot.worked_out == worked_out + 1


def clear_shared_caches() -> None:
    for shapes in handeval._SHAPES.values():
        shapes.clear()
    face_pairs.PAIRS_OF.clear()
    for melds in context_module._MELDS_WITH.values():
        melds.clear()
    face_shapes._OUTS.clear()
    table_facts._TABLES.clear()
    table_facts._BY_MELDS.clear()
    shared_odds._ODDS.clear()


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("wild", 2),
                                                 ("persian", 4), ("classic", 5)])
def test_search_moves_do_not_depend_on_what_the_caches_hold(preset: str, players: int) -> None:
    views = [view for view in views_met(preset, players, 8, 24)
             if view.phase == Phase.DRAW or len(view.legal_moves()) > 3][:6]
    cold = []
    for index, view in enumerate(views):
        clear_shared_caches()
        cold.append(make_bot("mcts", index, worlds=6).decide(view))
    warm = [make_bot("mcts", index, worlds=6).decide(view) for index, view in enumerate(views)]
    assert warm == cold


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_bots.py"), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_bench_bots_times_both_codes_and_counts_differing_moves() -> None:
    # the code against itself (an unpacked copy works alike: no git needed)
    done = run_bench("--positions", "3", "--presets", "classic", "--worlds", "3",
                     "--ref-src", str(ROOT / "src"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    row = report["presets"]["classic"]
    assert row["current"]["mean_ms"] > 0 and row["ref"]["p95_ms"] > 0
    assert row["mean_ratio"] > 0 and row["p95_ratio"] > 0
    assert row["moves_differ"] == 0 and row["reasons_differ"] == 0


def test_bench_bots_refuses_bad_input_in_words() -> None:
    unknown_ref = run_bench("--positions", "1", "--presets", "classic", "--ref",
                            "no-such-ref-anywhere")
    assert unknown_ref.returncode != 0
    assert "cannot export git ref" in unknown_ref.stderr
    assert "Traceback" not in unknown_ref.stderr
    no_code = run_bench("--ref-src", str(ROOT / "tests"))
    assert no_code.returncode != 0
    assert "holds no rummy500 package" in no_code.stderr
    unknown_preset = run_bench("--presets", "nonsense")
    assert unknown_preset.returncode != 0
    assert "unknown preset" in unknown_preset.stderr
    assert "Traceback" not in unknown_preset.stderr
