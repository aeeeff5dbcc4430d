"""``benchmarks/bench_mcts_variants.py``: variants of ``mcts`` on the same duplicate deals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_variants(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_mcts_variants.py"), *args],
        capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_each_variant_meets_the_same_deals_and_is_set_apart_from_the_first() -> None:
    done = run_variants("--deals", "2", "--worlds", "4", "--workers", "1", "--json",
                        "--variant", "now", "--variant", "holds=2", "--variant",
                        "horizon=2,holds=0")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    now, same, other = report["variants"]
    assert (now["arguments"], same["arguments"]) == ({}, {"holds": 2})
    assert other["arguments"] == {"horizon": 2, "holds": 0}
    # the defaults spelt out play the very same moves on the very same deals
    assert same["difference"] == now["difference"]
    assert same["against_first"] == {"points_per_deal": 0.0, "ci95": [0.0, 0.0]}
    assert now["difference"]["pairs"] == other["difference"]["pairs"] == 2
    assert "against_first" not in now and "against_first" in other


def test_bad_variants_and_presets_are_refused_in_words() -> None:
    for args, words in ((["--variant", "depth=3"], "is not NAME=VALUE"),
                        (["--variant", "holds=two"], "is not a value for holds"),
                        (["--variant", "now", "--preset", "nonsense"], "unknown preset")):
        done = run_variants("--deals", "1", *args)
        assert done.returncode != 0
        assert words in done.stderr and "Traceback" not in done.stderr
