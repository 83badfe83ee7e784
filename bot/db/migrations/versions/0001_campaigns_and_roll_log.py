"""Campaigns, their channel bindings, and the roll audit log.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaign",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("system", sa.String(20), nullable=False),
        sa.Column("gm_user_id", sa.BigInteger(), nullable=False),
        sa.Column("gm_role_id", sa.BigInteger(), nullable=True),
        sa.Column("gm_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("locale", sa.String(5), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False, server_default="active"),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False, server_default="1"),
    )
    op.create_index("ix_campaign_guild_id", "campaign", ["guild_id"])
    op.create_table(
        "campaign_binding",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("target_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_campaign_binding_campaign_id", "campaign_binding", ["campaign_id"])
    op.create_index(
        "uq_active_binding",
        "campaign_binding",
        ["guild_id", "target_id"],
        unique=True,
        sqlite_where=sa.text("active"),
        postgresql_where=sa.text("active"),
    )
    op.create_table(
        "roll_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("user_name", sa.String(100), nullable=False),
        sa.Column("character_name", sa.String(100), nullable=True),
        sa.Column("kind", sa.String(20), nullable=False, server_default="roll"),
        sa.Column("expression", sa.String(250), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("breakdown", sa.Text(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(20), nullable=True),
        sa.Column("fumble", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("message_url", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_roll_log_channel_time", "roll_log", ["guild_id", "channel_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_roll_log_channel_time", table_name="roll_log")
    op.drop_table("roll_log")
    op.drop_index("uq_active_binding", table_name="campaign_binding")
    op.drop_index("ix_campaign_binding_campaign_id", table_name="campaign_binding")
    op.drop_table("campaign_binding")
    op.drop_index("ix_campaign_guild_id", table_name="campaign")
    op.drop_table("campaign")
