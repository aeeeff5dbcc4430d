"""The shortcuts that make ``mcts`` faster give the very values and moves of the plain
reckoning: batched hand values, the card count, the table's facts and the caches shared
between decisions."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummy500.bots import context as context_module
from rummy500.bots import face_pairs, face_shapes, handeval, make_bot, table_facts
from rummy500.bots.context import Context
from rummy500.bots.handeval import Evaluator
from rummy500.cards import face_of, iter_bits
from rummy500.game import Game
from rummy500.kinds import Phase
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
        assert table_facts.table_facts(view.melds)[:-1] == worked_out[:-1]
        seen += bool(view.melds)
    assert seen > 10  # tables with melds were met


def clear_shared_caches() -> None:
    for shapes in handeval._SHAPES.values():
        shapes.clear()
    face_pairs.PAIRS_OF.clear()
    for melds in context_module._MELDS_WITH.values():
        melds.clear()
    face_shapes._OUTS.clear()
    table_facts._TABLES.clear()


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
