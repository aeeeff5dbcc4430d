"""``mcts``'s search: a move clearly beaten is left out of the sampled deals to come, the
expert's choice never is, and every move is judged against it over the same deals."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable

from rummy500.bots import make_bot
from rummy500.bots.context import Context
from rummy500.bots.mcts import ENOUGH_WORLDS, MIN_WORLDS, MctsBot, Paired, paired
from rummy500.bots.sampling import sample_deal
from rummy500.deal import Deal
from rummy500.game import Game
from rummy500.kinds import Phase
from rummy500.moves import DISCARD, DRAW, LAYOFF, MELD, TAKE, Move
from rummy500.view import PlayerView


def expert_position(wanted: Callable[[PlayerView, Move], bool], seeds: Iterable[int]
                    ) -> PlayerView:
    """The first view, in games of ``expert`` bots with these seeds, where ``wanted``
    holds for the view of the seat to move and the move ``expert`` makes there."""
    for seed in seeds:
        game = Game(seed=seed)
        bots = [make_bot("expert", seat) for seat in range(2)]
        while not game.finished:
            view = game.view(game.turn)
            move = bots[game.turn].choose(view)
            if wanted(view, move):
                return view
            game.play(move)
    raise AssertionError("no such position in these games")


def discard_position() -> PlayerView:
    """A view of the seat to move, about to discard one of several cards."""
    return expert_position(
        lambda view, move: (view.phase == Phase.PLAY and move.kind == DISCARD
                            and sum(m.kind == DISCARD for m in view.legal_moves()) >= 4),
        seeds=(7,))


def meld_position() -> PlayerView:
    """A view of the seat to move when ``expert`` would lay a meld down (not a card it
    just took from the pile, which it must use)."""
    return expert_position(
        lambda view, move: (view.phase == Phase.PLAY and move.kind == MELD
                            and view.must_use < 0),
        seeds=range(40))


class Scripted(MctsBot):
    """``mcts`` whose playouts give set values (by the candidate played, plus noise shared
    by every candidate of a sampled deal), counting how often each candidate is played.
    ``means`` lists the candidates in the search's order."""

    def __init__(self, means: dict[Move, float], noise: float, worlds: int | None) -> None:
        super().__init__(1, worlds=worlds)
        self.means = means
        self.noise = noise
        self.played: dict[Move, int] = dict.fromkeys(means, 0)
        self.luck = random.Random(5)
        self.world_luck = 0.0

    def playout_value(self, deal: Deal, view: PlayerView) -> float:
        move = deal.moves[-1]
        if move == next(iter(self.means)):  # the first candidate: a new sampled deal
            self.world_luck = self.luck.gauss(0.0, 10.0)
        self.played[move] += 1
        return self.means[move] + self.world_luck + self.luck.gauss(0.0, self.noise)


def test_a_clearly_beaten_move_is_left_out_and_the_first_never() -> None:
    view = discard_position()
    moves = [m for m in view.legal_moves() if m.kind == DISCARD][:4]
    first, worse, equal, better = moves
    bot = Scripted({first: 10.0, worse: -20.0, equal: 10.0, better: 11.0}, 2.0, worlds=32)
    results = bot.search(view, Context(view), moves, math.inf)
    assert bot.played[first] == 32 and results[0].worlds == 32
    assert MIN_WORLDS <= bot.played[worse] < 32  # left out once clearly beaten
    assert results[1].worlds == bot.played[worse]
    assert results[1].gain < -20.0
    assert bot.played[equal] > MIN_WORLDS and bot.played[better] == 32


def test_the_search_ends_when_only_the_expert_choice_is_left() -> None:
    view = discard_position()
    moves = [m for m in view.legal_moves() if m.kind == DISCARD][:2]
    bot = Scripted({moves[0]: 10.0, moves[1]: -30.0}, 1.0, worlds=32)
    results = bot.search(view, Context(view), moves, math.inf)
    assert results[0].worlds == results[1].worlds == MIN_WORLDS


def test_paired_figures_are_those_of_the_same_deals() -> None:
    values = [3.0, 5.0, 4.0]
    other = [1.0, 2.0, 4.0, 100.0]  # the last deal was not played by ``values``
    gain, error, worlds = paired(values, other)
    diffs = [a - b for a, b in zip(values, other, strict=False)]
    mean = sum(diffs) / 3
    assert worlds == 3
    assert math.isclose(gain, mean)
    assert math.isclose(error, math.sqrt(sum((d - mean) ** 2 for d in diffs) / 3 / 2))
    assert paired(values, values) == (0.0, 0.0, 3)


def test_the_search_depends_on_the_seed_only() -> None:
    view = discard_position()
    first = [make_bot("mcts", seed, worlds=16).decide(view) for seed in range(3)]
    again = [make_bot("mcts", seed, worlds=16).decide(view) for seed in range(3)]
    assert first == again
    assert all("sampled deals" in decision.reason for decision in first)


def test_a_search_bounded_by_time_stops_at_enough_sampled_deals() -> None:
    view = discard_position()
    moves = [m for m in view.legal_moves() if m.kind == DISCARD][:3]
    bot = Scripted(dict.fromkeys(moves, 10.0), 1.0, worlds=None)
    began = time.perf_counter()
    results = bot.search(view, Context(view), moves, began + 60.0)
    assert results[0].worlds == ENOUGH_WORLDS == bot.played[moves[0]]


def test_a_playout_values_the_hands_after_one_round_of_turns() -> None:
    view = discard_position()
    move = next(m for m in view.legal_moves() if m.kind == DISCARD)
    leaves: list[Deal] = []

    class Leaf(MctsBot):
        def leaf_value(self, deal: Deal, view: PlayerView) -> float:
            leaves.append(deal)
            return 0.0

    bot = Leaf(3)
    for seed in range(5):
        deal = sample_deal(view, random.Random(seed))
        played = len(deal.moves)
        deal.play(move, check=False)
        bot.playout_value(deal, view)
    for deal in leaves:  # every seat began one turn, and the next seat is about to draw
        turns = [m for m in deal.moves[played:] if m.kind in (DRAW, TAKE)]
        assert len(turns) == view.players and deal.phase == Phase.DRAW
    assert leaves  # deals that ended sooner are scored as they end


class Valued(MctsBot):
    """``mcts`` whose playouts value a sampled deal by what the searching seat holds:
    ``per_card`` points for each card still in hand."""

    def __init__(self, per_card: float) -> None:
        super().__init__(1, worlds=16)
        self.per_card = per_card
        self.searched: list[Move] = []

    def search(self, view: PlayerView, ctx: Context, moves: list[Move], deadline: float
               ) -> list[Paired]:
        self.searched = list(moves)
        return super().search(view, ctx, moves, deadline)

    def playout_value(self, deal: Deal, view: PlayerView) -> float:
        return self.per_card * deal.hands[view.seat].bit_count()


def test_laying_down_is_searched_against_keeping_the_melds_in_hand() -> None:
    view = meld_position()
    expert = make_bot("expert", 0).decide(view).move
    assert expert.kind == MELD
    bot = Valued(+5.0)
    holding = bot.decide(view)  # cards in hand are worth more: it keeps them
    first, *holds = bot.searched
    assert first == expert and len(holds) == 2
    assert all(move.kind == DISCARD for move in holds)
    assert holding.move in holds and "keeps its cards in hand" in holding.reason
    melding = Valued(-5.0).decide(view)  # cards in hand cost: it lays the meld down
    assert melding.move == expert and "sampled deals" in melding.reason
    assert melding.move.kind in (MELD, LAYOFF)
