"""Game review (``rummy500 review``): its speed, and how far its figures can be trusted.

Run: ``.venv/bin/python benchmarks/bench_review.py speed`` and
``.venv/bin/python benchmarks/bench_review.py calibration --deals 300`` (``--json`` for
one JSON object on stdout).

``speed`` reviews every decision of one two-player ``classic`` deal (``mcts`` against
``expert``), then of a whole two-player game (``mcts`` against ``expert`` to 500), at the
review's default budget (32 sampled deals a decision) with ``--workers`` processes (2),
as ``rummy500 review`` does; it prints the seconds on the clock and the CPU seconds (of
this process and its workers: the machine may be shared), and the standard error of the
losses.

``calibration`` plays ``--deals`` two-player ``classic`` deals (``mcts``, at 8 sampled
deals a search, against ``expert``; seeded), reviews every third decision of both seats
(``--every``: a deal's decisions share its outcome, so more of them tell little more)
and compares what the review says a decision's move is worth (the expected deal
points of its side, less the other's) with the points the deal then gave that side (its
deal score less the other's), bucket by bucket of what was said. It also prints how the
losses are spread and how often each label is given, the data the labels' thresholds are
chosen from (docs/strength.md, "Game review").
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rummy500.bots.playout import play_out
from rummy500.game import Game
from rummy500.record import game_record, replay
from rummy500.rules import PRESETS
from rummy500.runners.review.game import (
    DecisionReview,
    Settings,
    decision_places,
    review_decision,
    review_game,
    seat_summaries,
)
from rummy500.runners.simulation import make_bots

BOTS = ("mcts", "expert")
PLAY_WORLDS = 8
"""Sampled deals a search of the ``mcts`` player of the calibration's deals (it plays
quicker than at 32, and still better than ``expert``)."""
BUCKETS = (-math.inf, -60, -40, -20, -10, 0, 10, 20, 40, 60, math.inf)


def play(seed: int, deals: int | None, worlds: int = 32) -> dict[str, Any]:
    """The record of a two-player ``classic`` game, ``mcts`` (``worlds`` sampled deals a
    search) at seat 0 and ``expert`` at seat 1 (one deal, or the whole game with ``deals``
    None)."""
    game = Game(PRESETS["classic"], 2, rng=random.Random(seed), auto_deal=False)
    bots = make_bots(BOTS, seed, worlds=worlds)
    while not game.finished and (deals is None or len(game.results) < deals):
        game.start_deal()
        play_out(game, bots, check=False)
    return game_record(game)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished workers."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_review(record: dict[str, Any], workers: int, seed: int) -> dict[str, Any]:
    began, cpu = time.perf_counter(), cpu_seconds()
    reviews = review_game(record, None, Settings(seed=seed), workers)
    seconds, cpu = time.perf_counter() - began, cpu_seconds() - cpu
    errors = [review.error for review in reviews if review.move != review.best]
    return {"deals": len(record["rounds"]), "decisions": len(reviews),
            "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
            "median_error": round(statistics.median(errors), 1) if errors else 0.0,
            "largest_error": round(max(errors), 1) if errors else 0.0,
            "accuracy": {BOTS[s.seat]: None if s.accuracy is None else round(s.accuracy)
                         for s in seat_summaries(reviews, 2)},
            "lost_a_decision": {BOTS[s.seat]: round(s.mean_loss, 1)
                                for s in seat_summaries(reviews, 2)}}


def speed(args: argparse.Namespace) -> dict[str, Any]:
    deal = play(args.seed, 1)
    game = play(args.seed, None)
    return {"workers": args.workers, "deal": timed_review(deal, args.workers, args.seed),
            "game": timed_review(game, args.workers, args.seed)}


def reviewed_deal(index: int, seed: int, every: int
                  ) -> list[tuple[float, float, float, float, str | None]]:
    """(said, scored, loss, error, label) of every ``every``-th decision of deal ``index``."""
    deal_seed = random.Random(f"review calibration {seed} {index}").getrandbits(31)
    record = play(deal_seed, 1, PLAY_WORLDS)
    game = replay(record)
    scores = list(game.results[0].scores)
    places = decision_places(game, range(game.players))[index % every::every]
    reviews = [review_decision(game, deal_index, move_index, Settings(seed=deal_seed))
               for deal_index, move_index in places]
    return [(review.move_points, _margin(scores, review), review.loss, review.error,
             review.label) for review in reviews]


def _margin(scores: Sequence[int], review: DecisionReview) -> float:
    others = [score for side, score in enumerate(scores) if side != review.side]
    return scores[review.side] - sum(others) / len(others)


Row = tuple[float, float, float, float, str | None]


def calibration(args: argparse.Namespace) -> dict[str, Any]:
    rows: list[Row] = []
    began = time.perf_counter()
    out = open(args.rows, "w", encoding="utf-8") if args.rows else None  # noqa: SIM115
    with ProcessPoolExecutor(args.workers) as pool:
        for done, deal in enumerate(pool.map(reviewed_deal, range(args.deals),
                                             [args.seed] * args.deals,
                                             [args.every] * args.deals), start=1):
            rows.extend(deal)
            if out is not None:  # a deal a line, as they come: a long run is kept as it goes
                out.write(json.dumps(deal) + "\n")
                out.flush()
            if done % 25 == 0:
                print(f"  {done} deals reviewed, {time.perf_counter() - began:.0f} s",
                      flush=True, file=sys.stderr)
    if out is not None:
        out.close()
    result = summarize(rows, args.deals)
    result.update(seed=args.seed, every=args.every, seconds=round(time.perf_counter() - began))
    return result


def summarize(rows: list[Row], deals: int) -> dict[str, Any]:
    """The calibration table and the spread of the losses, from every reviewed decision."""
    buckets = []
    for low, high in itertools.pairwise(BUCKETS):
        inside = [(said, scored) for said, scored, *_ in rows if low <= said < high]
        if not inside:
            continue
        scored = [each for _, each in inside]
        spread = statistics.stdev(scored) if len(scored) > 1 else 0.0
        buckets.append({"from": low, "to": high, "decisions": len(inside),
                        "said": round(statistics.fmean(s for s, _ in inside), 1),
                        "scored": round(statistics.fmean(scored), 1),
                        "error": round(spread / math.sqrt(len(scored)), 1)})
    searched = [row for row in rows if row[2] > 0 or row[3] > 0]
    losses = sorted(row[2] for row in rows)
    labels = {label: sum(1 for row in rows if row[4] == label)
              for label in ("inaccuracy", "mistake", "blunder")}
    said = [row[0] for row in rows]
    scored = [row[1] for row in rows]
    return {
        "deals": deals, "decisions": len(rows), "buckets": buckets,
        "correlation": round(statistics.correlation(said, scored), 3),
        "slope": round(statistics.linear_regression(said, scored).slope, 3),
        "loss_quantiles": {f"p{q}": round(losses[min(len(losses) - 1,
                                                     len(losses) * q // 100)], 1)
                           for q in (50, 75, 90, 95, 99)},
        "share_searched_against_another": round(len(searched) / len(rows), 3),
        "median_error": round(statistics.median(row[3] for row in searched), 1),
        "labels": labels,
        "labels_per_deal": {key: round(value / deals, 2) for key, value in labels.items()},
    }


def show_calibration(result: dict[str, Any]) -> None:
    print(f"{result['deals']} deals, {result['decisions']} decisions reviewed (one decision "
          f"in {result.get('every', '?')} of each deal; seed {result.get('seed', '?')}, "
          f"{result.get('seconds', '?')} s)")
    print(f"{'said (bucket)':>16} {'decisions':>10} {'said':>8} {'scored':>8} {'± error':>8}")
    for bucket in result["buckets"]:
        span = f"{bucket['from']:g} to {bucket['to']:g}"
        print(f"{span:>16} {bucket['decisions']:>10} {bucket['said']:>8} "
              f"{bucket['scored']:>8} {bucket['error']:>8}")
    print(f"correlation {result['correlation']}, slope of scored on said {result['slope']}")
    print(f"loss quantiles: {result['loss_quantiles']}")
    print(f"median standard error of a loss (decisions searched against another move): "
          f"{result['median_error']}")
    print(f"labels: {result['labels']}; a deal: {result['labels_per_deal']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("speed", "calibration", "table"),
                        help="table: the calibration's figures again from its --rows file")
    parser.add_argument("--deals", type=int, default=300, help="calibration deals (300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--every", type=int, default=3,
                        help="calibration: review every N-th decision of each deal (3)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rows", default=None, metavar="FILE",
                        help="calibration: also write every decision's (said, scored, loss, "
                        "error, label) to FILE, a deal's decisions a JSON line")
    args = parser.parse_args()
    if args.what == "speed":
        result = speed(args)
        if args.json:
            print(json.dumps(result, indent=1))
        else:
            for name in ("deal", "game"):
                part = result[name]
                print(f"a two-player {name} ({part['deals']} deal(s), {part['decisions']} "
                      f"decisions) reviewed in {part['seconds']} s on the clock, "
                      f"{part['cpu_seconds']} CPU seconds, {result['workers']} workers; "
                      f"standard error of a loss: median {part['median_error']}, "
                      f"largest {part['largest_error']}; accuracy {part['accuracy']}, "
                      f"points lost a decision {part['lost_a_decision']}")
    else:
        if args.what == "table":
            with open(args.rows, encoding="utf-8") as lines:
                deals = [json.loads(line) for line in lines if line.strip()]
            result = summarize([tuple(row) for deal in deals for row in deal],
                               len(deals))
        else:
            result = calibration(args)
        if args.json:
            print(json.dumps(result, indent=1))
        else:
            show_calibration(result)


if __name__ == "__main__":
    main()
