"""Create or upgrade the database with alembic, from inside the running process.

The bot calls :func:`upgrade` before it connects to Discord, so a fresh clone and a
year-old deployment both end up at the latest schema.  ``python -m bot migrate`` does
the same from the command line.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["upgrade", "alembic_config"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Apply every pending migration in one transaction on ``engine``.

    Raises :class:`bot.db.preflight.DatabaseProblem` (nothing written) when the database
    carries a revision this code does not know.
    """

    def run(sync_connection) -> None:  # noqa: ANN001 - SQLAlchemy Connection
        from alembic.runtime.migration import MigrationContext

        from bot.db.preflight import check_revisions

        # A schema written by a newer Árbitro is refused before alembic tries to walk it.
        check_revisions(list(MigrationContext.configure(sync_connection).get_current_heads()))
        config = alembic_config()
        config.attributes["connection"] = sync_connection
        command.upgrade(config, revision)

    async with engine.begin() as connection:
        await connection.run_sync(run)
