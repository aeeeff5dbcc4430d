"""The score pad's picture for the README: docs/screenshot-pad-phone.png, the pad page on a
phone (360x740) in the middle of a partnership game: two deals scored, the third being
tapped in. Starts ``rummy500 serve`` on a scratch database; needs the [web] extra,
``playwright`` and Debian's Chromium (/usr/bin/chromium)::

    python scripts/pad_screenshot.py
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from screenshots import CHROMIUM, LAUNCH_ARGS, ROOT, start_server

NAMES = ["Ann", "Bob", "Cy", "Di"]
DEALS = [
    {"dealer": 0, "went_out": 2,
     "melds": [{"seat": 0, "cards": "7h 7d 7s"}, {"seat": 1, "cards": "9h 9d 9c"},
               {"seat": 2, "cards": "3h 4h 5h"}, {"seat": 2, "cards": "Jd Jh Jc"},
               {"seat": 3, "cards": "Qh Qd Qc"}],
     "layoffs": [{"seat": 1, "cards": "6h", "on": 3}, {"seat": 3, "cards": "Qs", "on": 5}],
     "hands": ["Kd 2c", "5d 6s Ks", "", "2d 3s"]},
    {"dealer": 1, "went_out": 1,
     "melds": [{"seat": 1, "cards": "Ac 2c 3c"}, {"seat": 3, "cards": "8s 8h 8c"},
               {"seat": 1, "cards": "Ts Js Qs Ks"}],
     "layoffs": [{"seat": 0, "cards": "4c 5c", "on": 1}],
     "hands": ["9d Td", "", "As Ah 6c", "Kc"]},
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        pad = Path(scratch) / "pad.json"
        pad.write_text(json.dumps({"format": "rummy500-pad", "version": 1,
                                   "rules": {"preset": "partnership", "options": {}},
                                   "players": NAMES, "deals": DEALS}))
        server, base = start_server(Path(scratch) / "tables.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                     args=LAUNCH_ARGS)
                phone = browser.new_context(viewport={"width": 360, "height": 740},
                                            device_scale_factor=2, is_mobile=True,
                                            has_touch=True)
                page = phone.new_page()
                page.goto(base + "/pad")
                page.wait_for_selector("body[data-ready=yes]")
                page.set_input_files("#import-file", str(pad))
                page.wait_for_selector("#game:not([hidden])")
                for card in ("9s", "9h", "9d"):
                    page.tap(f"#card-{card}")
                page.tap("#target-hand-1")
                for card in ("Kh", "4s"):
                    page.tap(f"#card-{card}")
                page.evaluate("window.scrollTo(0, 0)")
                args.out.mkdir(parents=True, exist_ok=True)
                path = args.out / "screenshot-pad-phone.png"
                page.screenshot(path=str(path))
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
