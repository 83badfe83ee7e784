"""A roll request's circumstances (``roll_request.circumstances``) and a campaign's pending
handover (``campaign.offered_to``).

Issue 23 §5: a request asks for a check as ``/check`` rolls it, circumstances included (S&W's
``amenaza:veneno``, so a cleric's +2 against poison counts in a requested save); and
``/campaign transfer`` offers the campaign to a member, who takes it by accepting.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("roll_request") as batch:
        batch.add_column(sa.Column("circumstances", sa.String(length=200), nullable=True))
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(sa.Column("offered_to", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("offered_to")
    with op.batch_alter_table("roll_request") as batch:
        batch.drop_column("circumstances")
