"""GM roll requests (``roll_request``) and the approval state of characters.

``roll_request`` holds one ``/request check``: the characters asked, what each rolled, whether
the numbers are hidden from players, open or closed.  ``character.approval`` is ``approved``
for every existing row (they stay playable); campaigns that ask for approval create new
characters ``pending``.

Revision ID: 0015
Revises: 0013
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "roll_request",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("requested_by", sa.BigInteger(), nullable=False),
        sa.Column("option", sa.String(100), nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("difficulty", sa.Integer(), nullable=True),
        sa.Column("modifier", sa.Integer(), nullable=False),
        sa.Column("hidden", sa.String(10), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("completed_at", sa.DateTime(), nullable=True),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("closed_by", sa.BigInteger(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_roll_request_guild_id", "roll_request", ["guild_id"])
    op.create_index("ix_roll_request_campaign", "roll_request", ["campaign_id", "status"])
    with op.batch_alter_table("character") as batch:
        batch.add_column(
            sa.Column("approval", sa.String(10), nullable=False, server_default="approved")
        )


def downgrade() -> None:
    with op.batch_alter_table("character") as batch:
        batch.drop_column("approval")
    op.drop_index("ix_roll_request_campaign", table_name="roll_request")
    op.drop_index("ix_roll_request_guild_id", table_name="roll_request")
    op.drop_table("roll_request")
