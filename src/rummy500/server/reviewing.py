"""Game reviews of finished tables (issue 33): asked for by anyone who may see the record,
made in the computer players' workers, kept with the table once done.

``POST /api/tables/{table}/review`` starts the review of a finished table (or gives the
one kept); ``GET`` gives how far it has gone (``{"state": "running", "done", "total"}``)
or the review itself (``{"state": "done", ...}``), or ``{"state": "none"}`` before any
review was asked for (or after one failed: ``{"state": "failed", "message"}``), so a page
polls it for its progress.

Each decision is judged in a worker of :class:`~.thinking.Thinking`, one call a decision,
in the turn of the address that asked (as its hints are), behind nothing on the event
loop; so a review never delays another address's computer players by more than one
decision. An address makes at most ``reviews_per_hour`` reviews and runs one at a time;
more are refused in words (429, 503). A review kept is served again without searching.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Column, Float, MetaData, String, Table, Text, insert, select
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import metrics
from .addresses import client_address, creator_id
from .apierror import ApiError
from .hub import Hub
from .ids import valid_id
from .rate import RateWindow
from .settings import ServerSettings
from .thinking import ThinkingBusy, address_party

log = logging.getLogger("rummy500.server")

REVIEW_SEED = 0
"""Every table's review searches with this seed: the same record, the same review."""
BUSY_RETRY_S = 1.0
"""How long a review waits when its address's decisions fill their queue, before asking again."""

reviews = Table(
    "reviews", MetaData(),
    Column("table_id", String(64), primary_key=True),
    Column("body", Text, nullable=False),
    Column("made", Float, nullable=False),
)


# -- in a worker --------------------------------------------------------------------------------

_worker_game: tuple[str, Any] | None = None
"""The game last replayed in this worker, by its record's text (a review sends the same
record with each of its decisions)."""


def _game(record_text: str) -> Any:
    from ..record import replay

    global _worker_game
    if _worker_game is None or _worker_game[0] != record_text:
        _worker_game = (record_text, replay(json.loads(record_text)))
    return _worker_game[1]


def review_places(record_text: str) -> list[tuple[int, int]]:
    """In a worker: where the record's decisions are, every seat's (deal, move index)."""
    from ..runners.review.game import decision_places

    game = _game(record_text)
    return decision_places(game, range(game.players))


def review_one(record_text: str, deal_index: int, move_index: int,
               worlds: int) -> dict[str, Any]:
    """In a worker: one decision of the record reviewed (:func:`.review_decision`), as
    ``rummy500 review --json`` writes it."""
    from ..runners.review.game import Settings, review_decision

    settings = Settings(seed=REVIEW_SEED, worlds=worlds)
    return review_decision(_game(record_text), deal_index, move_index, settings).as_json()


# -- on the server ------------------------------------------------------------------------------


@dataclass(eq=False)
class _Running:
    address: str
    total: int
    done: int = 0
    failed: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        if self.failed is not None:
            return {"state": "failed", "message": self.failed}
        return {"state": "running", "done": self.done, "total": self.total}


def review_body(record: Mapping[str, Any], names: list[str], worlds: int,
                decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """The review as kept and served: every decision, each seat's summary, the labels'
    thresholds (what the page says of them); ``worlds``: the sampled deals a decision is
    judged over at most (each decision says how many it took)."""
    from ..runners.review.game import DecisionReview, seat_summaries
    from ..runners.review.labels import BLUNDER, INACCURACY, MISTAKE

    players = int(record["players"])
    summaries = seat_summaries(
        [DecisionReview(**{key: value for key, value in decision.items()
                           if key != "all_cards"}) for decision in decisions], players)
    return {
        "state": "done", "players": players, "names": names, "worlds": worlds,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "decisions": decisions,
        "seats": [{"seat": s.seat, "decisions": s.decisions,
                   "accuracy": None if s.accuracy is None else round(s.accuracy, 1),
                   "lost": round(s.lost, 1), "mean_loss": round(s.mean_loss, 2),
                   "labels": s.labels} for s in summaries],
    }


class Reviews:
    """The reviews under way in this process, and the ones kept in the store."""

    def __init__(self, hub: Hub, settings: ServerSettings) -> None:
        self.hub = hub
        self.settings = settings
        self.window = RateWindow(settings.reviews_per_hour, 3600.0)
        self.running: dict[str, _Running] = {}

    async def kept(self, table_id: str) -> dict[str, Any] | None:
        async with self.hub.store.engine.connect() as conn:
            row = (await conn.execute(select(reviews.c.body).where(
                reviews.c.table_id == table_id))).first()
        return None if row is None else dict(json.loads(row.body))

    async def start(self, table_id: str, address: str) -> tuple[int, dict[str, Any]]:
        """Start the review of the finished table ``table_id`` for ``address`` (or give the
        kept one, or the one under way): the status code and the answer."""
        kept = await self.kept(table_id)
        if kept is not None:
            return 200, kept
        under_way = self.running.get(table_id)
        if under_way is not None and under_way.failed is None:
            return 202, under_way.status()
        table = await self.hub.table(table_id)
        if table is None:
            raise ApiError(404, "not_found", "there is no such table")
        if not table.game.finished:
            raise ApiError(409, "not_over", "a game is reviewed once it is over")
        if any(job.address == address and job.failed is None
               for job in self.running.values()):
            metrics.limit_hit("thinking")
            raise ApiError(503, "busy", "a review asked for from your address is under way: "
                           "ask for this one when it is done")
        if not self.window.allow(address):
            metrics.limit_hit("reviews_per_hour")
            raise ApiError(429, "too_many_reviews", f"at most {self.settings.reviews_per_hour} "
                           "reviews an hour from one address")
        record = table.record()
        names = [info.name for info in table.seat_infos()]
        job = self.running[table_id] = _Running(address, 0)
        job.task = asyncio.ensure_future(self._review(table_id, record, names, job))
        return 202, job.status()

    def status(self, table_id: str) -> dict[str, Any] | None:
        job = self.running.get(table_id)
        return None if job is None else job.status()

    async def _review(self, table_id: str, record: dict[str, Any], names: list[str],
                      job: _Running) -> None:
        record_text = json.dumps(record, separators=(",", ":"))
        party = address_party(job.address)
        thinking = self.hub.thinking
        slots = asyncio.Semaphore(max(1, thinking.per_party))

        async def in_worker(work: Any, *args: Any) -> Any:
            """``work(*args)`` in a thinking worker, in the asking address's turn."""
            async with slots:
                while True:
                    try:
                        return await thinking.run(f"review {table_id}", work, *args,
                                                  party=party)
                    except ThinkingBusy:
                        await asyncio.sleep(BUSY_RETRY_S)

        async def one(deal_index: int, move_index: int) -> dict[str, Any]:
            answer: dict[str, Any] = await in_worker(review_one, record_text, deal_index,
                                                     move_index, self.settings.review_worlds)
            job.done += 1
            return answer

        try:  # even finding the decisions replays the game: not on the event loop
            places: list[tuple[int, int]] = await in_worker(review_places, record_text)
            job.total = len(places)
            decisions = list(await asyncio.gather(*(one(d, m) for d, m in places)))
            body = review_body(record, names, self.settings.review_worlds, decisions)
            try:
                async with self.hub.store.engine.begin() as conn:
                    await conn.execute(insert(reviews).values(
                        table_id=table_id, body=json.dumps(body, separators=(",", ":")),
                        made=time.time()))
            except IntegrityError:  # another server process kept its review first: the same
                pass
            del self.running[table_id]
        except asyncio.CancelledError:
            self.running.pop(table_id, None)
            raise
        except Exception as error:
            log.error("the review of table %s failed: %s", table_id, error)
            job.failed = "the review failed on the server; ask for it again later"

    def close(self) -> None:
        for job in self.running.values():
            if job.task is not None:
                job.task.cancel()


def review_routes(hub: Hub, settings: ServerSettings) -> tuple[list[Route], Reviews]:
    """``POST`` and ``GET /api/tables/{table}/review`` (see the module's words)."""
    state = Reviews(hub, settings)

    def table_id_of(request: Request) -> str:
        table_id = str(request.path_params["table"])
        if not valid_id(table_id):
            raise ApiError(404, "not_found", "there is no such table")
        return table_id

    async def ask(request: Request) -> Response:
        address = creator_id(client_address(request.scope))
        status, body = await state.start(table_id_of(request), address)
        return JSONResponse(body, status_code=status)

    async def look(request: Request) -> Response:
        table_id = table_id_of(request)
        body = state.status(table_id) or await state.kept(table_id)
        return JSONResponse(body if body is not None else {"state": "none"})

    return [Route("/api/tables/{table}/review", ask, methods=["POST"]),
            Route("/api/tables/{table}/review", look, methods=["GET"])], state


__all__ = ["Reviews", "review_body", "review_one", "review_routes", "reviews"]
