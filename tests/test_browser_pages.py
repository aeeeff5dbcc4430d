"""The pages load fast: each loads its scripts as one bundle (``static/dist``, built from the
modules by ``npm run bundle``; tests/js/bundle.test.js checks they are current), and the table
page announces its first request, the table's summary, in its head (``rel=preload``) so that
it goes out beside the script instead of after it."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from browserkit import Problems, Server, create_in_lobby, new_page

LOADED = """() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)"""
ENTRIES = """() => [...document.querySelectorAll('script[type=module]')]
    .map((s) => new URL(s.src).pathname)"""
SUMMARY_PRELOAD = """() => [...document.querySelectorAll('link[rel=preload][as=fetch]')]
    .map((l) => new URL(l.href).pathname)"""


def _fetch(server: Server, path: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    return status, {name.lower(): value for name, value in headers.items()}, body


def test_every_page_loads_one_bundle_a_script(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    problems = Problems(page)
    create_in_lobby(page, web_server, name="Ann", seats=["person", "simple"], seed=2)
    page.wait_for_selector("#game:not([hidden]) #hand .card")
    for address in (page.url, web_server.url + "/", web_server.url + "/replay"):
        page.goto(address)
        page.wait_for_load_state("load")
        scripts = [path for path in page.evaluate(LOADED) if path.endswith(".js")]
        entries = page.evaluate(ENTRIES)
        assert entries and all(e.startswith("/static/dist/") for e in entries), address
        assert sorted(scripts) == sorted(entries), f"{address}: loaded {scripts}"
    assert problems.real() == []
    context.close()


def test_the_table_page_preloads_its_summary_and_uses_it(web_server: Server,
                                                         browser: Any) -> None:
    context, page = new_page(browser)
    problems = Problems(page)
    create_in_lobby(page, web_server, name="Ann", seats=["person", "simple"], seed=3)
    page.wait_for_selector("#game:not([hidden]) #hand .card")
    table = page.url.rstrip("/").split("/")[-1]
    page.reload()
    page.wait_for_selector("#game:not([hidden]) #hand .card")
    summary = f"/api/tables/{table}"
    assert page.evaluate(SUMMARY_PRELOAD) == [summary]
    # One request for the summary: the script's fetch took the preloaded answer (Chromium
    # warns in the console when a preload goes unused, which Problems would catch).
    assert [p for p in page.evaluate(LOADED) if p == summary] == [summary]
    page.wait_for_timeout(500)
    assert problems.real() == []
    context.close()


def test_only_a_table_id_goes_into_the_preload(web_server: Server) -> None:
    status, _, body = _fetch(web_server, "/t/not.an.id")
    assert status == 200 and b'rel="preload"' not in body
    status, _, body = _fetch(web_server, "/t/" + "a" * 65)
    assert status == 200 and b'rel="preload"' not in body
    status, headers, body = _fetch(web_server, "/t/Ab_c-9")
    assert b'<link rel="preload" href="/api/tables/Ab_c-9" as="fetch" crossorigin>' in body
    assert int(headers["content-length"]) == len(body)


def test_the_bundles_source_maps_are_served(web_server: Server) -> None:
    status, headers, body = _fetch(web_server, "/static/dist/table.js.map")
    assert status == 200 and headers["content-type"] == "application/json"
    source_map = json.loads(body)
    assert source_map["sourceRoot"] == "/static/js/"
    for source in source_map["sources"]:
        assert _fetch(web_server, "/static/js/" + source)[0] == 200, source
