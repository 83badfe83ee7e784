"""Create or upgrade the database with alembic, from inside the running process.

The bot calls :func:`upgrade` before it connects to Discord, so a fresh clone and a
year-old deployment both end up at the latest schema.  ``python -m bot migrate`` does
the same from the command line.

On PostgreSQL several processes (shards) may start together: the upgrade runs under a
transaction-level advisory lock, so the first process migrates and the others wait for its
commit, then find the schema current and apply nothing.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["upgrade", "alembic_config", "MIGRATION_LOCK"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# pg_advisory_xact_lock key shared by every Árbitro process on one database ("ARBITRO\0")
MIGRATION_LOCK = 0x41524249_54524F00


def alembic_config() -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Apply every pending migration in one transaction on ``engine``.

    Raises :class:`bot.db.preflight.DatabaseProblem` (nothing written) when the database
    carries a revision this code does not know.
    """

    def run(sync_connection: Connection) -> None:
        from alembic.runtime.migration import MigrationContext

        from bot.db.preflight import check_revisions

        # A schema written by a newer Árbitro is refused before alembic tries to walk it.
        check_revisions(list(MigrationContext.configure(sync_connection).get_current_heads()))
        config = alembic_config()
        config.attributes["connection"] = sync_connection
        command.upgrade(config, revision)

    async with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # held until this transaction commits: one migrator at a time, the rest wait
            await connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
            )
        await connection.run_sync(run)
