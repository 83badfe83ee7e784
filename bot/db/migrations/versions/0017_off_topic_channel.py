"""The campaign's off-topic channel: ``campaign.off_topic_channel_id``.

Play-by-post (issue 12 §1): the table talks out of character in one channel of the campaign;
characters are not posted there and pace reminders never look at it.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(sa.Column("off_topic_channel_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("off_topic_channel_id")
