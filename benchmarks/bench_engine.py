"""Engine speed: random-play deals per second and microseconds per legal-move listing.

Run: ``.venv/bin/python benchmarks/bench_engine.py`` (``--deals N`` to change the sample).
Every decision is uniform over the legal moves, from a seeded ``random.Random``.
"""

from __future__ import annotations

import argparse
import random
import time

from rummy500.cards import make_pack
from rummy500.deal import Deal
from rummy500.rules import Rules, find_preset


def random_deals(rules: Rules, players: int, deals: int, seed: int) -> tuple[float, int, int]:
    """Seconds, decisions and legal-move listings for ``deals`` random deals."""
    rng = random.Random(seed)
    pack = make_pack(rules.deck_count(players), rules.jokers_in_each_deck)
    decisions = 0
    start = time.perf_counter()
    for _ in range(deals):
        rng.shuffle(pack)
        deal = Deal(rules, players, rng.randrange(players), pack, rng=rng)
        while not deal.over:
            moves = deal.legal_moves()
            deal.play(rng.choice(moves), check=False)
            decisions += 1
    return time.perf_counter() - start, decisions, decisions


def listing_time(rules: Rules, players: int, seed: int, samples: int = 20_000) -> float:
    """Microseconds per ``legal_moves()`` call over positions met in random play."""
    rng = random.Random(seed)
    pack = make_pack(rules.deck_count(players), rules.jokers_in_each_deck)
    positions: list[Deal] = []
    while len(positions) < 200:
        rng.shuffle(pack)
        deal = Deal(rules, players, 0, pack, rng=rng)
        while not deal.over:
            if rng.random() < 0.05:
                positions.append(deal)
                break
            deal.play(rng.choice(deal.legal_moves()), check=False)
    start = time.perf_counter()
    for i in range(samples):
        positions[i % len(positions)].legal_moves()
    return (time.perf_counter() - start) / samples * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = find_preset("classic")
    print(f"{'players':>7} {'deals':>6} {'deals/s':>9} {'decisions/deal':>15} {'us/listing':>11}")
    for players in (2, 4):
        seconds, decisions, _ = random_deals(rules, players, args.deals, args.seed)
        micro = listing_time(rules, players, args.seed)
        print(f"{players:>7} {args.deals:>6} {args.deals / seconds:>9.0f} "
              f"{decisions / args.deals:>15.1f} {micro:>11.1f}")


if __name__ == "__main__":
    main()
