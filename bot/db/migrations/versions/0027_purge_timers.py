"""A guild's purge moves onto the durable timers (``timer``, kind ``guild.purge``).

The purge had a scheduler of its own (a loop over ``guild_departure.purge_at``); it is now a
timer like every other deadline, written with the departure, and the timer's ``due_at`` is
the one place the purge date is kept: each departure pending when this runs gets its timer,
due at its ``purge_at``, and the column goes.  A departure whose purge had begun (main's
batched purge marked it with ``purge_at`` = 1970-01-01) keeps that as ``purge_begun``.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "INSERT INTO timer (kind, ref, guild_id, due_at, generation, attempts) "
        "SELECT 'guild.purge', CAST(guild_id AS VARCHAR(80)), guild_id, purge_at, 1, 0 "
        "FROM guild_departure"
    )
    with op.batch_alter_table("guild_departure") as batch:
        batch.add_column(
            sa.Column("purge_begun", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.execute("UPDATE guild_departure SET purge_begun = (purge_at < '1971-01-01')")
    op.drop_index("ix_guild_departure_purge_at", table_name="guild_departure")
    with op.batch_alter_table("guild_departure") as batch:
        batch.drop_column("purge_at")


def downgrade() -> None:
    with op.batch_alter_table("guild_departure") as batch:
        batch.add_column(sa.Column("purge_at", sa.DateTime(), nullable=True))
    op.execute(
        "UPDATE guild_departure SET purge_at = (SELECT due_at FROM timer WHERE "
        "timer.kind = 'guild.purge' AND timer.ref = CAST(guild_departure.guild_id AS VARCHAR(80)))"
    )
    op.execute("UPDATE guild_departure SET purge_at = left_at WHERE purge_at IS NULL")
    op.execute("UPDATE guild_departure SET purge_at = '1970-01-01' WHERE purge_begun")
    with op.batch_alter_table("guild_departure") as batch:
        batch.alter_column("purge_at", existing_type=sa.DateTime(), nullable=False)
    op.create_index("ix_guild_departure_purge_at", "guild_departure", ["purge_at"])
    with op.batch_alter_table("guild_departure") as batch:
        batch.drop_column("purge_begun")
    op.execute("DELETE FROM timer WHERE kind = 'guild.purge'")
