"""Alembic environment: runs on the connection the bot hands over (see bot.db.migrate)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import bot.db.models  # noqa: F401 - registers the tables on SQLModel.metadata

target_metadata = SQLModel.metadata


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through bot.db.migrate.upgrade (python -m bot migrate)")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run()
