"""Indexes for the hot queries whose cost grew with rows they do not return (issue 14 §1).

* ``roll_log (guild_id, channel_id, user_id, id)``: ``/history user:X`` walked the channel's
  whole log when the member had few or no rolls;
* ``creation_draft (campaign_id, user_id, status)``: the wizard's lookups of a member's open
  draft (it was indexed by guild only);
* ``combat (guild_id, channel_id, status)``: the active fight of a channel, which SQLite
  cannot find through the partial unique index (the query binds ``status`` as a parameter).

``tests/bot/test_query_plans.py`` checks the plans.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_roll_log_channel_user", "roll_log", ["guild_id", "channel_id", "user_id", "id"]
    )
    op.create_index(
        "ix_creation_draft_member", "creation_draft", ["campaign_id", "user_id", "status"]
    )
    op.create_index("ix_combat_channel_status", "combat", ["guild_id", "channel_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_combat_channel_status", table_name="combat")
    op.drop_index("ix_creation_draft_member", table_name="creation_draft")
    op.drop_index("ix_roll_log_channel_user", table_name="roll_log")
