"""Combats: one fight per channel or forum post, its state and version (``/init``).

``due_at`` is the durable timer of the play-by-post turn reminder (``turn_hours`` after the
last change), so a restart loses no deadline.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "combat",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("turn_hours", sa.Integer(), nullable=True),
        sa.Column("due_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_combat_guild_id", "combat", ["guild_id"])
    op.create_index("ix_combat_campaign_id", "combat", ["campaign_id"])
    op.create_index("ix_combat_due_at", "combat", ["due_at"])
    op.create_index(
        "uq_combat_active_channel",
        "combat",
        ["guild_id", "channel_id"],
        unique=True,
        sqlite_where=sa.text("status = 'active'"),
        postgresql_where=sa.text("status = 'active'"),
    )


def downgrade() -> None:
    op.drop_index("uq_combat_active_channel", table_name="combat")
    op.drop_index("ix_combat_due_at", table_name="combat")
    op.drop_index("ix_combat_campaign_id", table_name="combat")
    op.drop_index("ix_combat_guild_id", table_name="combat")
    op.drop_table("combat")
