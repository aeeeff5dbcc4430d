"""``benchmarks/bench_server.py``: a tiny run speaks version 3, folds its updates and
counts frames and bytes for seats and a watcher."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_small_run_reports_frames_bytes_and_cpu_per_move() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_server.py"), "--tables", "2",
         "--seconds", "4", "--rate", "10", "--database", "sqlite", "--watchers", "1",
         "--workers", "1", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (result,) = report["results"]
    assert result["protocols"] == {"3": 8}  # the welcomes of the eight seats
    (step,) = result["steps"]
    assert step["moves"] > 0 and step["p99_ms"] > 0
    assert not result["refusals"] and not result["failures"]
    # the seats folded every update: they kept finding legal moves, and were never refused
    assert 0 < step["update_median_b"] <= step["update_p95_b"]
    assert step["watcher_bytes_per_move"] > 0
    assert step["table_bytes_per_move"] == (step["seat_bytes_per_move"]
                                            + step["watcher_bytes_per_move"])
    assert step["server_cpu_ms_per_move"] > 0
