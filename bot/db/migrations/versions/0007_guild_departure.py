"""Guild departures: when the bot leaves a guild, the date its data is purged.

``purge_at`` is the durable timer of the purge (``ARBITRO_RETENTION_DAYS`` after the bot was
removed); re-adding the bot before then deletes the row and keeps everything.

Revision ID: 0007
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "guild_departure",
        sa.Column("guild_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("left_at", sa.DateTime(), nullable=False),
        sa.Column("purge_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_guild_departure_purge_at", "guild_departure", ["purge_at"])


def downgrade() -> None:
    op.drop_index("ix_guild_departure_purge_at", table_name="guild_departure")
    op.drop_table("guild_departure")
