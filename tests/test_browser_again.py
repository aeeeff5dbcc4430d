""""Play again" in the browser: two people finish a one-deal game (a table made a few moves
before its end); one presses Play again in
the game-over dialog and lands at the new table; the other, who closed the dialog, is told
on the table page that a new game is ready and joins it; a spectator is offered to watch it.
Both end in their own seats at the new table, where the game starts."""

from __future__ import annotations

from typing import Any

from browserkit import PHONE, Server, deal_over, make_table, new_page, opening, play_deal


def me(page: Any) -> str:
    name: str = page.inner_text("#players .player.me .player-name")
    return name


def test_play_again_takes_both_people_to_a_new_table(web_server: Server, browser: Any) -> None:
    ann_context, ann_page = new_page(browser)
    bob_context, bob_page = new_page(browser)
    watch_context, watch_page = new_page(browser, PHONE)
    # A one-deal game a few moves before its end, each person's page opened by its token.
    options: dict[str, Any] = {"max_deals": 1, "target_score": None}
    made = make_table(web_server, seats=["person", "person", "simple"], seed=3, options=options,
                      moves=opening(3, 3, deal_over(1), options=options, back=6))
    link = made.link
    ann, bob = made.open(ann_page, 0), made.open(bob_page, 1)
    for page in (ann_page, bob_page):
        page.wait_for_selector("#game:not([hidden])")
    play_deal({0: ann, 1: bob})
    for page in (ann_page, bob_page):
        page.wait_for_selector("#sheet[open] .winner")
        assert page.is_visible("#sheet-again button[data-action=again]")
        assert page.inner_text("#sheet-again button[data-action=again]") == "Play again"
    # A spectator of the finished game, on a phone.
    watch_page.goto(link)
    watch_page.click("#watch-button")
    watch_page.wait_for_selector("#sheet[open] .winner")
    assert watch_page.query_selector("#sheet-again button") is None  # no seat: nothing to press

    # Bob closes the dialog; the page itself offers Play again.
    bob_page.click("#sheet-close")
    bob_page.wait_for_selector("#again:not([hidden]) button[data-action=again]")

    # Ann presses Play again and lands at the new table, in her seat, waiting for Bob.
    old = ann_page.url
    ann_page.click("#sheet-again button[data-action=again]")
    ann_page.wait_for_url(lambda url: url != old and "/t/" in url)
    new = ann_page.url
    table = new.rsplit("/", 1)[1]
    ann_page.wait_for_selector("#waiting:not([hidden])")
    summary = web_server.get(f"/api/tables/{table}")
    assert [(s["name"], s["open"]) for s in summary["seats"]] == [
        ("Ann", False), ("Bob", True), ("Simple", False)]
    assert web_server.get(link.replace(web_server.url, "").replace("/t/", "/api/tables/"))[
        "next"] == table

    # Bob's page says a new game is ready; Join takes his own seat there.
    bob_page.wait_for_function(
        "() => document.querySelector('#again').textContent.includes('A new game is ready')")
    assert bob_page.inner_text("#again button[data-action=again]") == "Join"
    assert any("A new game is ready" in line for line in bob.log())
    # The spectator's dialog offers to watch it.
    watch_page.wait_for_selector("#sheet[open] #sheet-again a[data-action=watch-next]")
    assert watch_page.get_attribute("#sheet-again a[data-action=watch-next]", "href") == \
        f"/t/{table}"
    watch_page.click("#sheet-again a[data-action=watch-next]")
    watch_page.wait_for_url(new)

    bob_page.click("#again button[data-action=again]")
    bob_page.wait_for_url(new)
    for page in (ann_page, bob_page):
        page.wait_for_selector("#game:not([hidden])")
        assert page.evaluate("document.body.dataset.phase") != "waiting"
    assert (me(ann_page), me(bob_page)) == ("Ann", "Bob")
    summary = web_server.get(f"/api/tables/{table}")
    assert summary["status"] == "playing" and summary["next"] is None
    # The tokens are kept as joining keeps them: a reload is the same seat.
    bob_page.reload()
    bob_page.wait_for_selector("#game:not([hidden])")
    assert me(bob_page) == "Bob"
    watch_page.wait_for_selector("#join:not([hidden])")
    for seat in (ann, bob):
        assert seat.problems.real() == []
    for context in (ann_context, bob_context, watch_context):
        context.close()
