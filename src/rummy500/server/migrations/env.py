"""Alembic's environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context

from rummy500.server.database import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("the migrations run from rummy500 serve, which hands over a connection")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
