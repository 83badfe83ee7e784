"""The GM's pending notes: ``campaign.gm_notes_seen`` is the last audit row shown to the GM.

An attack on a hidden NPC in a campaign without a GM channel keeps its numbers in the audit
log (``detail.gm_note``); the GM reads them, once, the next time the GM uses a fight
command.  The marker is the id of the last row handed out.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(
            sa.Column("gm_notes_seen", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("gm_notes_seen")
