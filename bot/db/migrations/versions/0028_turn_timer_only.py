"""A fight's turn reminder is kept once: its ``combat.turn`` timer (``timer.due_at``).

``combat.due_at`` repeated it since the timers came (0009) and nothing read it but a method
only the tests called; the column and its index go.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_combat_due_at", table_name="combat")
    with op.batch_alter_table("combat") as batch:
        batch.drop_column("due_at")


def downgrade() -> None:
    with op.batch_alter_table("combat") as batch:
        batch.add_column(sa.Column("due_at", sa.DateTime(), nullable=True))
    op.execute(
        "UPDATE combat SET due_at = (SELECT due_at FROM timer WHERE timer.kind = 'combat.turn' "
        "AND timer.ref = CAST(combat.id AS VARCHAR(80)))"
    )
    op.create_index("ix_combat_due_at", "combat", ["due_at"])
