"""Macros (issue 24 §4): named rolls per character and per campaign.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "macro",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), nullable=True),
        sa.Column("owner_key", sa.String(24), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("body", sa.String(200), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_macro_guild_id", "macro", ["guild_id"])
    op.create_index("ix_macro_character_id", "macro", ["character_id"])
    op.create_index(
        "uq_macro_owner_name", "macro", ["campaign_id", "owner_key", "name_key"], unique=True
    )


def downgrade() -> None:
    op.drop_index("uq_macro_owner_name", table_name="macro")
    op.drop_index("ix_macro_character_id", table_name="macro")
    op.drop_index("ix_macro_guild_id", table_name="macro")
    op.drop_table("macro")
