"""Random play against OpenSpiel's gin rummy, measured in the same run (issue 9, item 20).

Times the command ``rummy500 simulate --deals 1000 --players 2 --preset classic --bot
random --seed 1`` as a user runs it (process start included), ``--repeat`` times, and
OpenSpiel's C++ gin rummy played to the end by two uniform random bots inside C++
(``pyspiel.evaluate_bots``), as many times. Prints deals (games) a second for both, the
best and the median of the repetitions, and their ratio; then the same for rummy500's
in-process figure: the same 1000 deals played by ``rummy500.runners.simulation.simulate`` in this
process (no process start, no printing), so both figures stand side by side. It prints the
load average too, and whether Python may cache bytecode (``PYTHONDONTWRITEBYTECODE`` set
means every start of the command compiles rummy500's modules again).

Run: ``.venv/bin/python benchmarks/bench_openspiel.py`` (needs the ``open_spiel`` package).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMAND = ["simulate", "--deals", "1000", "--players", "2", "--preset", "classic", "--bot",
           "random", "--seed", "1"]
DEALS = 1000


def rummy500_rates(repeat: int) -> list[float]:
    program = Path(sys.executable).with_name("rummy500")
    rates = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run([str(program), *COMMAND], check=True, stdout=subprocess.DEVNULL)
        rates.append(DEALS / (time.perf_counter() - started))
    return rates


def rummy500_inprocess_rates(repeat: int) -> list[float]:
    from rummy500.rules import make_rules
    from rummy500.runners.simulation import simulate

    rules = make_rules("classic")
    rates = []
    for _ in range(repeat):
        started = time.perf_counter()
        simulate(rules, 2, ["random"], 1, DEALS)
        rates.append(DEALS / (time.perf_counter() - started))
    return rates


def openspiel_rates(repeat: int, games: int) -> list[float]:
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(player, 1000 + player) for player in range(2)]
    rates = []
    for _ in range(repeat):
        started = time.perf_counter()
        for seed in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        rates.append(games / (time.perf_counter() - started))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", type=int, default=1000, help="OpenSpiel games a repetition")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}; "
          "bytecode cache: "
          + ("off (PYTHONDONTWRITEBYTECODE is set)" if os.environ.get("PYTHONDONTWRITEBYTECODE")
             else "on"))
    ours = rummy500_rates(args.repeat)
    inside = rummy500_inprocess_rates(args.repeat)
    theirs = openspiel_rates(args.repeat, args.games)
    for name, rates in (("rummy500 simulate (deals/s, process start included)", ours),
                        ("rummy500 simulate() in-process (deals/s)", inside),
                        ("OpenSpiel gin_rummy C++ random (games/s)", theirs)):
        print(f"{name}: " + ", ".join(f"{rate:.0f}" for rate in rates)
              + f"; median {statistics.median(rates):.0f}, best {max(rates):.0f}")
    for name, rates in (("the command", ours), ("in-process", inside)):
        print(f"{name} / OpenSpiel: ratio of medians "
              f"{statistics.median(rates) / statistics.median(theirs):.2f}x; "
              f"of bests {max(rates) / max(theirs):.2f}x (the target, for the command: 1.5x)")
    print(f"load average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
