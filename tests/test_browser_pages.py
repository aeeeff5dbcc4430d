"""The pages announce their scripts up front: every ES module a page loads is named in its
head as a ``modulepreload`` link (read from the modules' imports by the server), so that
the browser asks for them all at once instead of one level of imports at a time."""

from __future__ import annotations

from typing import Any

from browserkit import Server, create_in_lobby, new_page

LOADED_SCRIPTS = """() => performance.getEntriesByType('resource')
    .map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.js'))"""
PRELOADS = """() => [...document.querySelectorAll('link[rel=modulepreload]')]
    .map((l) => new URL(l.href).pathname)"""
ENTRIES = """() => [...document.querySelectorAll('script[type=module]')]
    .map((s) => new URL(s.src).pathname)"""


def test_every_module_a_page_loads_is_preloaded(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser)
    create_in_lobby(page, web_server, name="Ann", seats=["person", "simple"], seed=2)
    page.wait_for_selector("#game:not([hidden]) #hand .card")
    for address in (page.url, web_server.url + "/", web_server.url + "/replay"):
        page.goto(address)
        page.wait_for_load_state("load")
        loaded = set(page.evaluate(LOADED_SCRIPTS))
        preloaded = page.evaluate(PRELOADS)
        entries = set(page.evaluate(ENTRIES))
        assert entries and preloaded, address
        assert len(preloaded) == len(set(preloaded)), f"{address}: a module named twice"
        assert loaded - entries <= set(preloaded), (
            f"{address}: loaded but not preloaded: {sorted(loaded - entries - set(preloaded))}")
        # Nothing preloaded that the page does not use (a module no longer imported).
        assert set(preloaded) <= loaded, f"{address}: {sorted(set(preloaded) - loaded)}"
    context.close()
