"""Indexes for ``/history`` scoped to the campaign (all rolls, or one member's), newest first.

Checked with EXPLAIN on SQLite and PostgreSQL (``tests/bot/test_rolls.py``): both walk the
index backwards on ``id`` instead of sorting the campaign's whole log.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_roll_log_campaign", "roll_log", ["guild_id", "campaign_id", "id"])
    op.create_index(
        "ix_roll_log_campaign_user", "roll_log", ["guild_id", "campaign_id", "user_id", "id"]
    )


def downgrade() -> None:
    op.drop_index("ix_roll_log_campaign_user", table_name="roll_log")
    op.drop_index("ix_roll_log_campaign", table_name="roll_log")
