"""A finished table's game review on a real server (issue 33): asked for by POST, made in
the computer players' workers while its progress is polled, kept with the table (served
again, by another process on the same database, without searching again), and bounded
per address: one at a time, so many an hour, each refusal in words."""

from __future__ import annotations

import asyncio
import random
import urllib.error
import urllib.request
from typing import Any

import pytest

from rummy500.net.client import Api, TableConnection
from rummy500.record import replay
from rummy500.runners.review.game import decision_places
from serverkit import Servers, http_answer, metrics_url, play_out

pytestmark = pytest.mark.asyncio

REVIEW_FLAGS = ("--review-worlds", "8", "--reviews-per-hour", "2")
"""A small search (8 sampled deals a decision: the fewest a label is given over), so that
the review of one short deal takes seconds; two reviews an hour from one address."""


async def finished_table(api: Api, base: str, seed: int) -> str:
    """A one-deal game of Ann against ``expert``, Ann playing at random, played out."""
    made = await api.create_table({
        "players": 2, "rules": {"preset": "classic", "max_deals": 1}, "seed": seed,
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "expert"}]})
    table = str(made["table"])
    ann = await TableConnection.open(base, table, made["token"])
    try:
        await asyncio.wait_for(play_out(ann, random.Random(seed)), 150)
    finally:
        await ann.close()
    return table


async def reviewed(base: str, table: str) -> tuple[dict[str, Any], list[int]]:
    """The table's review once done, and the decisions done each time it was polled."""
    seen: list[int] = []
    total = 0
    for _ in range(1200):
        status, answer = await http_answer(base, f"/api/tables/{table}/review")
        assert status == 200, answer
        if answer["state"] == "done":
            assert len(answer["decisions"]) == total, (total, answer)
            return answer, seen
        assert answer["state"] == "running", answer
        assert total == 0 or answer["total"] == total, (total, answer)  # once known, kept
        total = answer["total"]
        assert 0 <= answer["done"] <= total, answer
        seen.append(answer["done"])
        await asyncio.sleep(0.1)
    raise AssertionError(f"the review of {table} did not end: {seen[-5:]}")


async def test_a_finished_table_is_reviewed_kept_and_served_again(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=REVIEW_FLAGS)
    base = server.base
    made = await server.api.create_table({"players": 2, "seats": [
        {"kind": "person"}, {"kind": "bot", "bot": "expert"}]})
    status, answer = await http_answer(base, f"/api/tables/{made['table']}/review", "POST")
    assert (status, answer["error"]) == (409, "not_over") and "over" in answer["message"]
    status, answer = await http_answer(base, "/api/tables/nosuchtable/review", "POST")
    assert (status, answer["error"]) == (404, "not_found")

    table = await finished_table(server.api, base, seed=3)
    status, answer = await http_answer(base, f"/api/tables/{table}/review")
    assert (status, answer) == (200, {"state": "none"})
    record = await server.api.record(table)
    places = decision_places(replay(record), range(2))

    status, started = await http_answer(base, f"/api/tables/{table}/review", "POST")
    assert status == 202 and started["state"] == "running", started
    assert started["done"] == 0 and started["total"] in (0, len(places)) and len(places) > 5
    # Asked again while it runs: the same review, not a second one.
    status, again = await http_answer(base, f"/api/tables/{table}/review", "POST")
    assert status == 202 and again["state"] == "running", again

    review, seen = await reviewed(base, table)
    print(f"{len(places)} decisions; done at each poll: {seen}")
    assert seen and seen == sorted(seen) and any(0 < done < len(places) for done in seen), seen
    assert review["players"] == 2 and review["names"][0] == "Ann" and review["worlds"] == 8
    assert all(0 < d["worlds"] <= 8 for d in review["decisions"])
    decisions = review["decisions"]
    assert [(d["deal"] - 1, d["index"]) for d in decisions] == places
    for decision in decisions:
        assert decision["loss"] >= 0 and decision["error"] >= 0
        assert decision["label"] in (None, "inaccuracy", "mistake", "blunder")
        assert (decision["move"] == decision["best"]) == (decision["words"] == "")
    assert {seat["seat"] for seat in review["seats"]} == {0, 1}
    assert sum(seat["decisions"] for seat in review["seats"]) == len(places)
    labelled = [d for d in decisions if d["label"]]
    print(f"labels: {[(d['index'], d['label'], d['loss']) for d in labelled]}")
    assert labelled, "Ann played at random: some of her moves must be labelled"

    # Kept: asked for again it is the same at once, and another process on the same
    # database serves it from the store (it never runs there).
    status, again = await http_answer(base, f"/api/tables/{table}/review", "POST")
    assert (status, again) == (200, review)
    other = servers.start(sqlite_url, extra=REVIEW_FLAGS)
    status, there = await http_answer(other.base, f"/api/tables/{table}/review")
    assert (status, there) == (200, review)
    status, there = await http_answer(other.base, f"/api/tables/{table}/review", "POST")
    assert (status, there) == (200, review)


async def test_reviews_are_bounded_per_address(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=REVIEW_FLAGS)
    base = server.base
    tables = [await finished_table(server.api, base, seed) for seed in (4, 5, 6)]
    status, first = await http_answer(base, f"/api/tables/{tables[0]}/review", "POST")
    assert status == 202, first
    # One review at a time from one address: the second waits for the first to end.
    status, answer = await http_answer(base, f"/api/tables/{tables[1]}/review", "POST")
    assert (status, answer["error"]) == (503, "busy"), answer
    assert "under way" in answer["message"]
    await reviewed(base, tables[0])
    status, answer = await http_answer(base, f"/api/tables/{tables[1]}/review", "POST")
    assert status == 202, answer
    await reviewed(base, tables[1])
    # Two reviews an hour: the third is refused; the kept ones are still served.
    status, answer = await http_answer(base, f"/api/tables/{tables[2]}/review", "POST")
    assert (status, answer["error"]) == (429, "too_many_reviews"), answer
    assert "2 reviews an hour" in answer["message"]
    with urllib.request.urlopen(metrics_url(server), timeout=20) as got:
        counted = got.read().decode()
    assert 'rummy500_limits_hit_total{limit="reviews_per_hour"} 1.0' in counted
    status, kept = await http_answer(base, f"/api/tables/{tables[0]}/review", "POST")
    assert status == 200 and kept["state"] == "done"
