"""An absence remembers whether its member wants a catch-up on return (``absence.catch_up``).

Issue 25 §2: ``/absence add … catch_up:yes`` — when the absence ends, the member gets
``/catch-up`` by private message (the ``pace.back`` timer).  Existing absences: no.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("absence") as batch:
        batch.add_column(
            sa.Column("catch_up", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("absence") as batch:
        batch.drop_column("catch_up")
