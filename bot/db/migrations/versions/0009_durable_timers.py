"""Durable timers (``timer``): one row per pending action, claimed with a lease.

Several processes (shards) share one PostgreSQL; a timer must fire exactly once even when the
process that claimed it dies.  The turn reminders of active fights move here from
``combat.due_at`` (which stays as the fight's displayed deadline).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "timer",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("ref", sa.String(80), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("due_at", sa.DateTime(), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(80), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
    )
    op.create_index("uq_timer_kind_ref", "timer", ["kind", "ref"], unique=True)
    op.create_index("ix_timer_guild_id", "timer", ["guild_id"])
    op.create_index("ix_timer_due_at", "timer", ["due_at"])
    op.execute(
        "INSERT INTO timer (kind, ref, guild_id, due_at, generation, attempts) "
        "SELECT 'combat.turn', CAST(id AS VARCHAR(80)), guild_id, due_at, version, 0 "
        "FROM combat WHERE status = 'active' AND due_at IS NOT NULL"
    )


def downgrade() -> None:
    op.drop_index("ix_timer_due_at", table_name="timer")
    op.drop_index("ix_timer_guild_id", table_name="timer")
    op.drop_index("uq_timer_kind_ref", table_name="timer")
    op.drop_table("timer")
