"""A new table's set-up from the body of ``POST /api/tables``: rules, players, seats,
``takeover_s``, ``deal_pause_s``, ``turn_s``, ``bank_s`` and (where the operator allows
it) the seed and the moves to start from (:mod:`.prefix`), each checked; and the limits
per address on making tables, a new one or a Play again table alike."""

from __future__ import annotations

import secrets
import time
from dataclasses import replace
from typing import Any

from ..bots import BOT_NAMES
from ..rules import RulesError, rules_from_record
from . import metrics
from .apierror import ApiError
from .cleaning import BadName, clean_name, name_clash
from .live import BOT, PERSON, SEED_LIMIT, Seat, Spec
from .prefix import check_moves, played_prefix
from .settings import ServerSettings
from .store import Store

TAKEOVER_LIMIT = 24 * 3600
DEAL_PAUSE_LIMIT = 600
"""The longest deal pause (``deal_pause_s``), in seconds."""
TURN_LIMITS = (5, 3600)
"""The turn clock (``turn_s``) when on: from 5 seconds to an hour (0 is off)."""
BANK_LIMIT = 3600
"""The longest time bank (``bank_s``) of each person, in seconds."""


def table_spec(data: dict[str, Any], *, allow_seeds: bool = False) -> tuple[Spec, list[Seat]]:
    """A new table's set-up from a POST /api/tables body, or :class:`ApiError` saying why.
    A ``seed`` is taken only when the operator allows seeds: whoever chooses the shuffle
    knows every hand."""
    rules_data = data.get("rules", {"preset": "classic"})
    try:
        rules = rules_from_record(rules_data)
    except (RulesError, TypeError, ValueError) as error:
        raise ApiError(400, "bad_rules", f"rules: {error}") from None
    players = data.get("players", rules.default_players)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ApiError(400, "bad_players", "players must be a whole number")
    try:
        rules.check_players(players)
    except RulesError as error:
        raise ApiError(400, "bad_players", str(error)) from None
    takeover = data.get("takeover_s", 60)
    if (not isinstance(takeover, int | float) or isinstance(takeover, bool)
            or not 0 <= takeover <= TAKEOVER_LIMIT):
        raise ApiError(400, "bad_takeover",
                       f"takeover_s must be a number of seconds from 0 to {TAKEOVER_LIMIT}")
    pause = _seconds(data, "deal_pause_s", 0, DEAL_PAUSE_LIMIT, "bad_deal_pause")
    turn_s = _seconds(data, "turn_s", 0, TURN_LIMITS[1], "bad_turn_s")
    if 0 < turn_s < TURN_LIMITS[0]:
        raise ApiError(400, "bad_turn_s", f"turn_s must be 0 (no clock) or from "
                       f"{TURN_LIMITS[0]} to {TURN_LIMITS[1]} seconds")
    bank_s = _seconds(data, "bank_s", 0, BANK_LIMIT, "bad_bank_s")
    if bank_s and not turn_s:
        raise ApiError(400, "bad_bank_s", "bank_s needs a turn clock: it is spent once a turn's "
                       "clock has run out (give turn_s, or a bank_s of 0)")
    seed = data.get("seed")
    if seed is not None and not allow_seeds:
        raise ApiError(400, "seeds_disabled", "this server shuffles every table itself: a "
                       "seed is taken only by a server started with --allow-seeds")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < SEED_LIMIT):
        raise ApiError(400, "bad_seed", "seed must be a whole number from 0 to 2**63 - 1")
    moves = check_moves(data.get("moves"), allow_seeds=allow_seeds, seeded=seed is not None)
    seats = _seats(data.get("seats"), players)
    spec = Spec(rules=rules.to_record(), players=players,
                seed=secrets.randbelow(SEED_LIMIT) if seed is None else seed,
                takeover_s=float(takeover), seeded=seed is not None, deal_pause_s=pause,
                turn_s=turn_s, bank_s=bank_s)
    if moves:
        spec = replace(spec, prefix=played_prefix(spec, moves))
    return spec, seats


def _seconds(data: dict[str, Any], key: str, low: float, high: float, code: str) -> float:
    value = data.get(key, 0)
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not low <= value <= high):
        raise ApiError(400, code, f"{key} must be a number of seconds from {low} to {high}")
    return float(value)


def _seats(given: Any, players: int) -> list[Seat]:
    if given is None:
        return [Seat(seat, PERSON) for seat in range(players)]
    if not isinstance(given, list) or len(given) != players:
        raise ApiError(400, "bad_seats", f"seats must list one entry for each of the {players} "
                                         "players")
    seats: list[Seat] = []
    for index, entry in enumerate(given):
        if not isinstance(entry, dict):
            raise ApiError(400, "bad_seats", f"seat {index} must be an object with a kind")
        kind = entry.get("kind")
        if kind == PERSON:
            name = entry.get("name")
            name = None if name is None else person_name(name)
            clash = None if name is None else name_clash(name, [s.name or "" for s in seats])
            if clash:
                raise ApiError(400, "bad_name", f"seat {index}: {clash}")
            seats.append(Seat(index, PERSON, name=name))
        elif kind == BOT:
            bot = entry.get("bot", "expert")
            if bot not in BOT_NAMES:
                raise ApiError(400, "bad_seats", f"seat {index}: unknown computer player "
                               f"{str(bot)[:40]!r}; the computer players are: "
                               f"{', '.join(BOT_NAMES)}")
            seats.append(Seat(index, BOT, bot=str(bot)))
        else:
            raise ApiError(400, "bad_seats", f"seat {index}: kind must be person or bot")
    return seats


def person_name(value: Any) -> str:
    """A person's name at a table (:func:`.cleaning.clean_name`), or 400 ``bad_name``
    saying why not: one that cannot be read, or that the table gives someone else ("You",
    "Seat 2", "Expert"…: :func:`.cleaning.name_clash`)."""
    try:
        name = clean_name(value)
    except BadName as error:
        raise ApiError(400, "bad_name", str(error)) from None
    clash = name_clash(name, ())
    if clash:
        raise ApiError(400, "bad_name", clash)
    return name


async def check_name_free(store: Store, table_id: str, seat: int, name: str | None) -> None:
    """Refuse (409 ``name_taken``) ``name`` at ``table_id`` when another person there has
    it or one that looks like it (the store checks again as it seats them)."""
    if not name:
        return
    others = [other.name or "" for other in await store.seats_of(table_id)
              if other.seat != seat and other.kind != BOT]
    clash = name_clash(name, others)
    if clash:
        raise ApiError(409, "name_taken", clash)


async def check_table_limits(store: Store, settings: ServerSettings, creator: str) -> None:
    """Refuse (429 ``too_many_tables``) a table ``creator`` (an address's hash) would make
    beyond ``--tables-per-hour`` or ``--open-tables-per-address``: counted in the database,
    so across processes; a Play again table counts like any other (issue 30). Call it and
    make the table under one lock, else requests sent at once would all pass."""
    made, unfinished = await store.made_by(creator, since=time.time() - 3600)
    if made >= settings.tables_per_hour:
        metrics.limit_hit("tables_per_hour")
        raise ApiError(429, "too_many_tables", f"at most {settings.tables_per_hour} "
                       "new tables an hour from one address: try again later")
    if unfinished >= settings.open_tables_per_address:
        metrics.limit_hit("open_tables")
        raise ApiError(429, "too_many_tables",
                       f"at most {settings.open_tables_per_address} unfinished tables "
                       "from one address: finish or leave some first")


__all__ = ["DEAL_PAUSE_LIMIT", "TAKEOVER_LIMIT", "TURN_LIMITS", "check_name_free",
           "check_table_limits", "person_name", "table_spec"]
