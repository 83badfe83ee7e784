"""Experience awards: the referee's grants, kept for the campaign's record.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "xp_award",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), nullable=False),
        sa.Column("character_name", sa.String(100), nullable=False),
        sa.Column("granted_by", sa.BigInteger(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("xp_before", sa.Integer(), nullable=False),
        sa.Column("xp_after", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_xp_award_guild_id", "xp_award", ["guild_id"])
    op.create_index("ix_xp_award_campaign_id", "xp_award", ["campaign_id"])


def downgrade() -> None:
    op.drop_index("ix_xp_award_campaign_id", table_name="xp_award")
    op.drop_index("ix_xp_award_guild_id", table_name="xp_award")
    op.drop_table("xp_award")
