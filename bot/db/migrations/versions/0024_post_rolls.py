"""A post carries several rolls (issue 24 §3): the ``[[…]]`` of a typed post, a macro's rolls.

``post.roll_log_ids`` lists them in order; ``roll_log_id`` stays the first (what the chronicle
and older code read).  Posts already there get their one roll, if any.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("post") as batch:
        batch.add_column(sa.Column("roll_log_ids", sa.JSON(), nullable=False, server_default="[]"))
    posts = sa.table(
        "post",
        sa.column("id", sa.Integer()),
        sa.column("roll_log_id", sa.Integer()),
        sa.column("roll_log_ids", sa.JSON()),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(posts.c.id, posts.c.roll_log_id).where(posts.c.roll_log_id.is_not(None))
    ).all()
    for row in rows:
        connection.execute(
            posts.update().where(posts.c.id == row.id).values(roll_log_ids=[row.roll_log_id])
        )


def downgrade() -> None:
    with op.batch_alter_table("post") as batch:
        batch.drop_column("roll_log_ids")
