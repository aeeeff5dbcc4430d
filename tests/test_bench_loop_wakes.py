"""``benchmarks/bench_loop_wakes.py``: the CPU a wake of an idle event loop costs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_it_measures_each_rate_and_prints_json() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_loop_wakes.py"), "--seconds", "0.3",
         "--json"], capture_output=True, text=True, timeout=120, check=True)
    report = json.loads(done.stdout)
    rates = report["rates"]
    assert [row["offered"] for row in rates] == [100, 500, 2000, 5000]
    for row in rates:
        # Poisson timers: the wakes held are near the rate offered, each costing some CPU.
        assert 0.5 * row["offered"] < row["wakes_per_s"] < 1.5 * row["offered"], row
        assert 0 < row["cpu_us_per_wake"] < 10_000, row
