"""The browser table's speed: how long the table page takes to load with nothing cached, and
how long the frames are while its cards move.

Run: ``.venv/bin/python benchmarks/bench_page.py`` (``--loads 20 --moves 40``; ``--json``
for one JSON object on stdout). Needs Debian's Chromium at ``/usr/bin/chromium``.

A real ``rummy500 serve`` on loopback (SQLite in a temporary file) holds a table of one
person and one ``simple`` computer player. The page is created from the lobby as a person
does; then:

- **Load**: ``--loads`` times, a new browser context (an empty cache) opens the table
  with the seat's token and the figure is the time from the navigation's start until the
  table is drawn from its first state: the page itself notes the first frame painted after
  ``#game`` is shown with the hand (a script added before the page's own watches the
  document; the time is read after a frame's paint, a task queued from that frame's
  ``requestAnimationFrame``), so the round trips of the test driver do not count. The
  browser's own ``domContentLoaded`` and ``load`` are beside it. The target is under
  300 ms.
- **Frames**: the person plays ``--moves`` moves through the page (clicks, as a person),
  while a ``requestAnimationFrame`` loop records the time between frames whenever an
  animation runs, and Chromium's ``long-animation-frame`` entries (frames over 50 ms) are
  collected: those of the moves (the target is none: no frame of an animation over 50 ms)
  apart from those of the page's load before them (its first drawing, no animation yet).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

DRAWN_PROBE = """(() => {
  const drawn = () => document.querySelector('#game:not([hidden]) #hand .card');
  new MutationObserver((_, observer) => {
    if (!drawn()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__drawnAt = performance.now(); }));
  }).observe(document, { subtree: true, childList: true, attributes: true });
})()"""
"""Notes when the table is first painted with the hand (after the frame that shows it)."""

FRAME_PROBE = """() => {
  window.__frames = [];
  window.__loaf = [];
  let last = performance.now();
  const tick = (now) => {
    const moving = document.getAnimations().some((a) => a.playState === 'running');
    if (moving) window.__frames.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__loaf.push([entry.startTime, entry.duration]);
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) { /* an older Chromium: the frame loop alone */ }
}"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def run(loads: int, moves: int, quiet: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from browserkit import CHROMIUM, LAUNCH_ARGS, Seat, Server, choose_move, create_in_lobby

    console = Console(stderr=True, quiet=quiet)
    server = Server(Path(tempfile.mkdtemp(prefix="bench-page-")) / "tables.db", pace=0.3)
    result: dict[str, Any] = {}
    try:
        with sync_playwright() as playwright, Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                console=console, disable=quiet) as progress:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                                 args=LAUNCH_ARGS)
            first = browser.new_context(viewport={"width": 1280, "height": 800})
            page = first.new_page()
            create_in_lobby(page, server, name="Ann", seats=["person", "simple"], seed=11)
            page.wait_for_selector("#game:not([hidden]) #hand .card")
            address, storage = page.url, first.storage_state()

            task = progress.add_task("table page loads", total=loads)
            drawn, content, loaded = [], [], []
            for _ in range(loads):
                context = browser.new_context(viewport={"width": 1280, "height": 800},
                                              storage_state=storage)
                fresh = context.new_page()
                fresh.add_init_script(DRAWN_PROBE)
                fresh.goto(address, wait_until="commit")
                fresh.wait_for_function("() => window.__drawnAt !== undefined")
                drawn.append(fresh.evaluate("window.__drawnAt"))
                fresh.wait_for_load_state("load")
                timing = fresh.evaluate(
                    "JSON.stringify(performance.getEntriesByType('navigation')[0])")
                navigation = json.loads(timing)
                content.append(navigation["domContentLoadedEventEnd"])
                loaded.append(navigation["loadEventEnd"])
                context.close()
                progress.advance(task)

            task = progress.add_task("moves with motion", total=moves)
            page.evaluate(FRAME_PROBE)
            moves_from = page.evaluate("performance.now()")
            seat = Seat(page)
            made = 0
            deadline = time.monotonic() + 20 + moves * 5
            while made < moves and time.monotonic() < deadline:
                if page.evaluate("Boolean(document.querySelector('dialog[open]'))"):
                    page.keyboard.press("Escape")
                if seat.my_turn():
                    seat.play(choose_move(seat, 0))
                    made += 1
                    progress.advance(task)
                else:
                    time.sleep(0.05)
            time.sleep(0.5)
            frames: list[float] = page.evaluate("window.__frames")
            loaf: list[list[float]] = page.evaluate("window.__loaf")
            browser.close()
        moving = [duration for start, duration in loaf if start >= moves_from]
        loading = [duration for start, duration in loaf if start < moves_from]
        result = {
            "loads": loads, "moves": made,
            "drawn_ms": {"median": statistics.median(drawn), "p95": percentile(drawn, 0.95),
                         "max": max(drawn)},
            "dom_content_loaded_ms": statistics.median(content),
            "load_ms": statistics.median(loaded),
            "animation_frames": len(frames),
            "frame_ms": {"median": statistics.median(frames) if frames else 0.0,
                         "p99": percentile(frames, 0.99), "max": max(frames, default=0.0)},
            "long_animation_frames": len(moving),
            "longest_animation_frame_ms": max(moving, default=0.0),
            "long_frames_at_load": len(loading),
            "longest_frame_at_load_ms": max(loading, default=0.0),
        }
    finally:
        server.stop()
    return result


def show(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    drawn, frames = result["drawn_ms"], result["frame_ms"]
    table = Table(title="The browser table (Chromium, loopback, nothing cached)")
    table.add_column("measure")
    table.add_column("figure", justify="right")
    table.add_row(f"table drawn after navigation, median / p95 / max ({result['loads']} loads)",
                  f"{drawn['median']:.0f} / {drawn['p95']:.0f} / {drawn['max']:.0f} ms")
    table.add_row("DOMContentLoaded / load, median",
                  f"{result['dom_content_loaded_ms']:.0f} / {result['load_ms']:.0f} ms")
    table.add_row(f"frames while cards move ({result['animation_frames']} in "
                  f"{result['moves']} moves), median / p99 / max",
                  f"{frames['median']:.1f} / {frames['p99']:.1f} / {frames['max']:.1f} ms")
    table.add_row("long animation frames (> 50 ms) in the moves, longest",
                  f"{result['long_animation_frames']}, "
                  f"{result['longest_animation_frame_ms']:.0f} ms")
    table.add_row("long frames (> 50 ms) while the page loaded, longest",
                  f"{result['long_frames_at_load']}, {result['longest_frame_at_load_ms']:.0f} ms")
    Console().print(table)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--loads", type=int, default=20, help="page loads to time (default 20)")
    parser.add_argument("--moves", type=int, default=40, help="moves to play (default 40)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.loads < 1 or args.moves < 1:
        parser.error("--loads and --moves must be at least 1")
    result = run(args.loads, args.moves, args.json)
    if args.json:
        print(json.dumps(result))
    else:
        show(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
