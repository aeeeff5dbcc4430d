"""Screenshots of the browser table for the README: docs/screenshot-web-desktop.png (1280x800),
docs/screenshot-web-phone.png (360x740) and docs/screenshot-first-game.png (1280x800).

Starts ``rummy500 serve`` on a scratch database, starts a partnership table from the lobby in
Chromium (a fixed shuffle number, so the pictures are the same each time), and plays Ann's
turns by the expert's hints until the table holds a few melds; then takes both pictures from
Ann's seat, on a desktop and on a phone. Needs the [web] extra, ``playwright`` and Debian's
Chromium (/usr/bin/chromium)::

    python scripts/screenshots.py
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run"]
SEED = 21


def start_server(database: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "rummy500", "serve", "--port", "0", "--database",
         f"sqlite:///{database}", "--pace", "0.05", "--allow-seeds"],
        stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        if "listening on http://" in line:
            return process, line.split("listening on ", 1)[1].strip().rstrip("/")
    raise SystemExit("rummy500 serve did not start")


def play_by_hints(page: Any, melds_wanted: int) -> None:
    """Ann plays the expert's hint on each of her turns until enough melds are down and it
    is her turn to draw again."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if page.evaluate("document.querySelector('#sheet').open"):
            page.click("#sheet-close")
        ready = page.evaluate("Boolean(document.querySelector('#status.yours')) && Boolean("
                              "document.querySelector('#actions button[data-action=hint]:enabled'))")
        melds = page.eval_on_selector_all("#melds .meld", "els => els.length")
        if ready and melds >= melds_wanted and page.evaluate("document.body.dataset.phase") == "draw":
            return
        if not ready:
            time.sleep(0.1)
            continue
        seq = page.evaluate("Number(document.body.dataset.seq)")
        page.click("#actions button[data-action=hint]")
        page.wait_for_selector("#message .hint button")
        page.click("#message .hint button")
        page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
    raise SystemExit("the table never reached a position worth a picture")


FIRST_GAME_STEP = 7
"""The guided first game's step shown: taking a card from deep in the discard pile."""


def first_game_shot(browser: Any, base: str, out: Path) -> Path:
    """The guided first game (/learn) at its step :data:`FIRST_GAME_STEP`, at 1280x800."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base + "/learn")
    page.wait_for_selector("#lesson[data-step='0']")
    for step in range(1, FIRST_GAME_STEP + 1):
        page.click("#lesson-next")
        page.wait_for_selector(f"#lesson[data-step='{step}']")
    page.mouse.move(0, 0)
    path = out / "screenshot-first-game.png"
    page.screenshot(path=str(path))
    context.close()
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        server, base = start_server(Path(scratch) / "tables.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=LAUNCH_ARGS)
                desktop = browser.new_context(viewport={"width": 1280, "height": 800})
                desktop.set_default_timeout(30_000)
                page = desktop.new_page()
                page.goto(base + "/")
                page.select_option("#preset", "partnership")
                page.fill("#my-name", "Ann")
                for seat, bot in ((1, "expert"), (2, "simple"), (3, "expert")):
                    page.select_option(f"#seat-kind-{seat}", "bot")
                    page.select_option(f"#seat-bot-{seat}", bot)
                page.click("#options-details summary")
                page.fill("#seed", str(SEED))
                page.click("#create")
                page.wait_for_selector("#game:not([hidden])")
                play_by_hints(page, melds_wanted=4)
                page.fill("#chat-input", "Good luck, partners!")
                page.press("#chat-input", "Enter")
                page.wait_for_selector("#chat-lines li")
                # Ann takes a look at a pair she might meld.
                page.locator("#hand button.card").nth(0).click()
                page.locator("#hand button.card").nth(1).click()
                page.mouse.move(0, 0)
                args.out.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out / "screenshot-web-desktop.png"))
                phone = browser.new_context(viewport={"width": 360, "height": 740},
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True, storage_state=desktop.storage_state())
                small = phone.new_page()
                small.goto(page.url)
                small.wait_for_selector("#game:not([hidden])")
                small.wait_for_selector("#actions button[data-action=hint]:enabled")
                small.screenshot(path=str(args.out / "screenshot-web-phone.png"))
                first_game_shot(browser, base, args.out)
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"wrote {args.out / 'screenshot-web-desktop.png'}, "
          f"{args.out / 'screenshot-web-phone.png'} and {args.out / 'screenshot-first-game.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
