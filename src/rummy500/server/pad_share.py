"""Score pads shared by their scorekeeper (issue 31): stored in the tables' database
(migration 0007), written only with the token given when the pad was shared, read by
anyone with its link. Each is bounded in size, each address keeps a bounded number, and
pads not written for :data:`KEEP_DAYS` days are deleted.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    update,
)

from ..errors import PadError
from ..pad import pad_from_json
from ..pad_score import score_pad
from ..session.pad_sheets import pad_summary
from .apierror import ApiError
from .ids import new_table_id, new_token, token_hash
from .store import Store

MAX_PAD_BYTES = 128 * 1024
"""The largest pad file stored (fifty deals of four players take about 40 KB)."""
PADS_PER_ADDRESS = 20
"""Shared pads one address keeps at once."""
KEEP_DAYS = 30
"""A shared pad not written for this many days is deleted."""

shared_pads = Table(
    "shared_pads", MetaData(),
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("address", String(64), nullable=False),
    Column("body", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)


def checked_body(pad: Any) -> str:
    """The pad's file as stored, once the engine has read and scored it (refused in words
    otherwise, or when too large)."""
    body = json.dumps(pad, ensure_ascii=False, separators=(",", ":"))
    if len(body.encode()) > MAX_PAD_BYTES:
        raise ApiError(413, "too_large", f"a shared pad holds at most {MAX_PAD_BYTES // 1024} KB")
    try:
        score_pad(pad_from_json(pad))
    except PadError as error:
        raise ApiError(422, "bad_pad", str(error)) from None
    return body


async def share(store: Store, address: str, pad: Any) -> dict[str, str]:
    """Store a new shared pad for ``address``: its id and the token that writes it."""
    body = checked_body(pad)
    now = time.time()
    async with store.engine.begin() as conn:
        await conn.execute(delete(shared_pads).where(
            shared_pads.c.updated < now - KEEP_DAYS * 86400))
        kept = (await conn.execute(select(func.count()).select_from(shared_pads).where(
            shared_pads.c.address == address))).scalar() or 0
        if kept >= PADS_PER_ADDRESS:
            raise ApiError(429, "too_many_pads",
                           f"one address shares at most {PADS_PER_ADDRESS} pads at once; "
                           f"a pad not written for {KEEP_DAYS} days goes")
        pad_id, token = new_table_id(), new_token()
        await conn.execute(insert(shared_pads).values(
            id=pad_id, token_hash=token_hash(token), address=address, body=body, version=1,
            created=now, updated=now))
    return {"id": pad_id, "token": token}


async def write(store: Store, pad_id: str, token: str, pad: Any) -> int:
    """Replace the shared pad ``pad_id`` (with its token): its new version."""
    async with store.engine.begin() as conn:
        row = (await conn.execute(select(shared_pads.c.token_hash, shared_pads.c.version).where(
            shared_pads.c.id == pad_id))).first()
        if row is None:
            raise ApiError(404, "no_pad", "no shared pad has this link (or it was deleted)")
        if not secrets.compare_digest(row.token_hash, token_hash(token)):
            raise ApiError(403, "bad_token", "only the phone that shared this pad writes it")
        body = checked_body(pad)
        version = int(row.version) + 1
        await conn.execute(update(shared_pads).where(shared_pads.c.id == pad_id).values(
            body=body, version=version, updated=time.time()))
    return version


async def read(store: Store, pad_id: str, since: int = 0) -> dict[str, Any]:
    """The shared pad with the engine's scores, or only its version when it is ``since``."""
    async with store.engine.connect() as conn:
        row = (await conn.execute(select(shared_pads.c.body, shared_pads.c.version,
                                         shared_pads.c.updated).where(
            shared_pads.c.id == pad_id))).first()
    if row is None:
        raise ApiError(404, "no_pad", "no shared pad has this link (or it was deleted)")
    if int(row.version) == since:
        return {"version": since}
    pad = json.loads(row.body)
    read_pad = pad_from_json(pad)
    rules, names = read_pad.rules, read_pad.players
    sides = [" & ".join(name for seat, name in enumerate(names) if rules.side_of(seat) == side)
             for side in range(rules.sides(len(names)))]
    return {"version": int(row.version), "updated": row.updated, "pad": pad, "sides": sides,
            "scores": pad_summary(read_pad, score_pad(read_pad))}


__all__ = ["KEEP_DAYS", "MAX_PAD_BYTES", "PADS_PER_ADDRESS", "read", "share", "write"]
