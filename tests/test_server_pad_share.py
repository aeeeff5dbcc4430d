"""Shared score pads on a real server (SQLite, then PostgreSQL): the scorekeeper's token
writes, anyone with the link reads the pad with the engine's scores, and the bounds hold:
a pad too large, one that cannot be right, a wrong token, too many pads from one address."""

from __future__ import annotations

from typing import Any

from rawhttp import call
from rummy500.server.pad_share import MAX_PAD_BYTES, PADS_PER_ADDRESS
from serverkit import ServerProcess


def pad(*deals: dict[str, Any], names: tuple[str, ...] = ("Ann", "Bob")) -> dict[str, Any]:
    return {"format": "rummy500-pad", "version": 1, "rules": {"preset": "classic"},
            "players": list(names), "deals": list(deals)}


DEAL = {"dealer": 0, "went_out": 1, "melds": [{"seat": 1, "cards": "7h 7d 7s"}],
        "hands": ["Kd As", ""]}


def test_a_shared_pad_is_written_with_its_token_and_read_by_its_link(
        own_server: ServerProcess) -> None:
    base = own_server.base
    made = call(base, "POST", "/api/pads", {"pad": pad()})
    assert made.status == 201, made.body
    pad_id, token = made.json()["id"], made.json()["token"]
    first = call(base, "GET", f"/api/pads/{pad_id}").json()
    assert first["version"] == 1 and first["scores"]["totals"] == [0, 0]
    assert first["sides"] == ["Ann", "Bob"]
    assert call(base, "GET", f"/api/pads/{pad_id}?since=1").json() == {"version": 1}
    written = call(base, "PUT", f"/api/pads/{pad_id}", {"token": token, "pad": pad(DEAL)})
    assert written.json() == {"version": 2}
    second = call(base, "GET", f"/api/pads/{pad_id}?since=1").json()
    assert second["scores"]["totals"] == [-25, 21] and second["pad"]["deals"][0] == DEAL
    # Only the token writes; a pad that cannot be right is refused in words.
    wrong = call(base, "PUT", f"/api/pads/{pad_id}", {"token": "x" * 43, "pad": pad()})
    assert (wrong.status, wrong.code) == (403, "bad_token")
    broken = dict(DEAL, melds=[{"seat": 1, "cards": "7h 8d 7s"}])
    refused = call(base, "PUT", f"/api/pads/{pad_id}", {"token": token, "pad": pad(broken)})
    assert (refused.status, refused.code) == (422, "bad_pad")
    assert "7♥ 8♦ 7♠ is not a meld" in refused.json()["message"]
    assert call(base, "GET", f"/api/pads/{pad_id}").json()["version"] == 2
    # The engine's tables for the page, refused in words where the rules cannot be played.
    tables = call(base, "GET", "/api/pad/tables?rules=%7B%22preset%22%3A%22persian%22%7D&players=4")
    assert tables.json()["melds"]["* * * *"] == {"kind": "joker_set", "points": [20] * 4,
                                                 "doubles": True}
    for query, status in (("rules=%7B%22preset%22%3A%22nope%22%7D&players=2", 422),
                          ("rules=%7B%22preset%22%3A%22persian%22%7D&players=3", 422),
                          ("rules=nope&players=2", 400), ("players=99999", 400)):
        refused_rules = call(base, "GET", f"/api/pad/tables?{query}")
        assert refused_rules.status == status and refused_rules.json()["message"], query
    missing = call(base, "GET", "/api/pads/nothing-here")
    assert (missing.status, missing.code) == (404, "no_pad")
    assert call(base, "GET", "/api/pads/..%2f..%2fetc").status == 404


def test_the_bounds_of_shared_pads(own_server: ServerProcess) -> None:
    base = own_server.base
    huge = pad(names=tuple(f"{'N' * 20_000}{seat}" for seat in range(8)))
    big = call(base, "POST", "/api/pads", {"pad": huge}, source="127.0.0.31")
    assert len(str(huge)) > MAX_PAD_BYTES
    assert (big.status, big.code) == (413, "too_large"), big.body
    for number in range(PADS_PER_ADDRESS):
        made = call(base, "POST", "/api/pads", {"pad": pad()}, source="127.0.0.32")
        assert made.status == 201, (number, made.body)
    over = call(base, "POST", "/api/pads", {"pad": pad()}, source="127.0.0.32")
    assert (over.status, over.code) == (429, "too_many_pads")
    assert "at most 20 pads" in over.json()["message"]
    other = call(base, "POST", "/api/pads", {"pad": pad()}, source="127.0.0.33")
    assert other.status == 201
