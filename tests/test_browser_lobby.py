"""The lobby and joining: a table started with a game and rule options, the creator at the
table with its invitation link, the table listed to return to, a second person taking a seat,
someone watching (no hand shown), unplayable settings explained, an unknown link; and the
pages' strict Content-Security-Policy, with no inline script or style anywhere."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from html.parser import HTMLParser
from typing import Any

import pytest

from browserkit import PHONE, Seat, Server, create_in_lobby, join_by_link, new_page


def test_a_table_started_in_the_lobby_and_joined_by_its_link(web_server: Server,
                                                             browser: Any) -> None:
    ann_context, ann_page = new_page(browser)
    ann = Seat(ann_page)
    ann_page.goto(web_server.url + "/")
    ann_page.select_option("#preset", "simplified")
    assert "2-9 score 5" in ann_page.inner_text("#preset-help")
    ann_page.click("#options-details summary")
    ann_page.fill("#opt-target_score", "300")
    ann_page.dispatch_event("#opt-target_score", "change")
    assert ann_page.inner_text("#changed-count") == "1 changed"
    ann_page.click("#explain-details summary")
    ann_page.wait_for_function("() => /300/.test(document.querySelector('#explain').textContent)")
    ann_page.fill("#opt-min_run", "20")
    ann_page.dispatch_event("#opt-min_run", "change")
    ann_page.wait_for_function("() => /min_run/.test(document.querySelector('#create-error')"
                               ".textContent)")
    ann_page.fill("#opt-min_run", "3")
    ann_page.dispatch_event("#opt-min_run", "change")
    ann_page.wait_for_function("() => !document.querySelector('#create-error').textContent")

    link = create_in_lobby(ann_page, web_server, name="Ann", preset="simplified",
                           seats=["person", "person", "mcts"], options={"target_score": 300},
                           takeover_s=90)
    table = link.rsplit("/", 1)[1]
    summary = web_server.get(f"/api/tables/{table}")
    assert summary["rules"] == {"preset": "simplified", "target_score": 300}
    assert [s["kind"] for s in summary["seats"]] == ["person", "person", "bot"]
    assert summary["seats"][2]["bot"] == "mcts" and summary["takeover_s"] == 90
    assert summary["status"] == "waiting"
    assert ann_page.url == link and ann_page.is_visible("#waiting")
    ann_page.click("#copy-link")
    ann_page.wait_for_selector("#copy-said:not(:empty)")
    assert "copied" in ann_page.inner_text("#copy-said") or "copy it" in \
        ann_page.inner_text("#copy-said")

    # The lobby lists the table to return to; returning needs no name again.
    ann_page.goto(web_server.url + "/")
    listed = ann_page.locator("#my-tables li")
    ann_page.wait_for_selector("#my-tables li[data-status]")  # its state read from the server
    assert "waiting for players" in listed.first.inner_text()
    listed.first.locator("a", has_text="Return to the table").click()
    ann_page.wait_for_selector("#waiting:not([hidden])")

    # Someone watches: the seats, then the table without any hand.
    watch_context, watcher = new_page(browser)
    watcher.goto(link)
    watcher.wait_for_selector("#join:not([hidden])")
    seats_shown = watcher.inner_text("#join-seats")
    assert "Ann" in seats_shown and "open" in seats_shown and "Mcts" in seats_shown
    watcher.click("#watch-button")
    bob_context, bob_page = new_page(browser)
    join_by_link(bob_page, link, "Bob <b>&")
    for page in (ann_page, bob_page, watcher):
        page.wait_for_selector("#game:not([hidden])")
    assert watcher.is_hidden("#mine") and watcher.query_selector("#hand .card") is None
    assert len(watcher.eval_on_selector_all("#players .player", "e => e")) == 3
    # A name is shown as written, never read as markup.
    assert "Bob <b>&" in ann_page.inner_text("#players")
    assert ann_page.query_selector("#players b") is None
    assert ann.problems.real() == []
    for context in (ann_context, watch_context, bob_context):
        context.close()


def test_an_unknown_table_link_says_so(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    page.goto(web_server.url + "/t/AAAAAAAAAAAAAAAAAAAAAA")
    page.wait_for_function("() => /no such table/.test(document.querySelector('#loading')"
                           ".textContent)")
    context.close()


class _Inline(HTMLParser):
    """Inline scripts, inline styles and outside addresses in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if "style" in names or any(name.startswith("on") for name in names):
            self.found.append(f"<{tag}> with an inline style or handler")
        if tag == "style":
            self.found.append("a <style> element")
        if tag == "script" and not names.get("src"):
            self.found.append("an inline <script>")
        for name in ("src", "href"):
            value = names.get(name) or ""
            if re.match(r"(https?:)?//", value):
                self.found.append(f"{name}={value}: from elsewhere")


def test_pages_have_a_strict_content_security_policy(web_server: Server) -> None:
    for path in ("/", "/t/AAAAAAAAAAAAAAAAAAAAAA", "/replay", "/t/AAAAAAAAAAAAAAAAAAAAAA/replay",
                 "/pad", "/pad-sw.js", "/static/js/table.js", "/static/style.css"):
        with urllib.request.urlopen(web_server.url + path) as response:
            policy = response.headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "script-src 'self'" in policy
            assert "style-src 'self'" in policy and "unsafe" not in policy
            assert response.headers["Referrer-Policy"] == "no-referrer"
            body = response.read().decode()
        if path.endswith((".js", ".css")):
            assert "http://" not in body and "https://" not in body
            continue
        parser = _Inline()
        parser.feed(body)
        assert parser.found == [], (path, parser.found)


def test_page_files_revalidate_and_serve_only_their_own(web_server: Server) -> None:
    """The modules come from memory with the hash of their content as their tag: a browser
    that has the same copy gets a 304, one whose copy is older gets the file; nothing
    outside static/ (nor a file that is not there) is ever served."""
    path = "/static/js/table.js"
    with urllib.request.urlopen(web_server.url + path) as response:
        tag, body = response.headers["ETag"], response.read()
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.headers["Content-Type"].startswith("text/javascript")
    assert body.startswith(b"// The table page") and tag.startswith('"')
    same = urllib.request.Request(web_server.url + path, headers={"If-None-Match": tag})
    with pytest.raises(urllib.error.HTTPError) as not_modified:
        urllib.request.urlopen(same)
    assert not_modified.value.code == 304
    assert not_modified.value.headers["ETag"] == tag
    older = urllib.request.Request(web_server.url + path, headers={"If-None-Match": '"older"'})
    with urllib.request.urlopen(older) as response:
        assert response.status == 200 and response.read() == body
    for outside in ("/static/../pages.py", "/static/%2e%2e/pages.py", "/static/js/nothing.js",
                    "/static/js/..%2f..%2fpages.py", "/static/"):
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(web_server.url + outside)
        assert missing.value.code == 404, outside
        assert missing.value.headers["Content-Security-Policy"], outside


def test_the_lobby_fits_a_phone(web_server: Server, browser: Any) -> None:
    """At 360x740 the lobby, with four seats and the rule options open, is never wider than
    the screen (a fieldset's default min-width once pushed the seats past its edge)."""
    context, page = new_page(browser, PHONE, is_mobile=True, has_touch=True)
    page.goto(web_server.url + "/")
    page.select_option("#players", "4")
    for seat in range(1, 4):
        page.select_option(f"#seat-kind-{seat}", "bot")
    page.click("#options-details summary")
    page.click("#explain-details summary")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the lobby is {width}px wide on a {PHONE['width']}px screen"
    for box in page.eval_on_selector_all(
            "select, input, button", "els => els.filter(e => e.offsetParent).map(e => "
            "{ const r = e.getBoundingClientRect(); return [e.id, r.left, r.right]; })"):
        assert box[1] >= 0 and box[2] <= PHONE["width"] + 0.5, box
    context.close()
