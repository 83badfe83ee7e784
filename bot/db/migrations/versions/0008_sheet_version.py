"""Stored sheets carry the schema version they were written in (``character.sheet_version``).

Rows stored before this revision are version 1; the bot converts them when it reads them
(:mod:`bot.services.sheets.schema`) and every write stores the current version.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("character") as batch:
        batch.add_column(
            sa.Column("sheet_version", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    with op.batch_alter_table("character") as batch:
        batch.drop_column("sheet_version")
