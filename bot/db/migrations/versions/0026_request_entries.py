"""One row per character a roll request asks (``roll_request_entry``), where its press stores
the roll (issue 26).

A press wrote the whole request row with a compare-and-set on its version, so presses for
different characters at once conflicted and were redone from the start (5.3 attempts per
press at 20–100 at once).  Now each character's roll is a compare-and-set on its own row.
Requests already stored get their rows here, with the rolls their ``entries`` hold (those
entries keep their numbers too, for requests whose audit rows are gone).

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "roll_request_entry",
        sa.Column(
            "request_id",
            sa.Integer(),
            sa.ForeignKey("roll_request.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("character_id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("log_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    bind = op.get_bind()
    requests = sa.table(
        "roll_request",
        sa.column("id", sa.Integer),
        sa.column("guild_id", sa.BigInteger),
        sa.column("entries", sa.JSON),
    )
    entries = sa.table(
        "roll_request_entry",
        sa.column("request_id", sa.Integer),
        sa.column("character_id", sa.Integer),
        sa.column("guild_id", sa.BigInteger),
        sa.column("log_id", sa.Integer),
        sa.column("version", sa.Integer),
    )
    rows = []
    query = sa.select(requests.c.id, requests.c.guild_id, requests.c.entries)
    for request_id, guild_id, asked in bind.execute(query):
        for entry in asked or []:
            if entry.get("unable"):
                continue
            log_id = entry.get("log_id")
            rows.append(
                {
                    "request_id": request_id,
                    "character_id": int(entry["character_id"]),
                    "guild_id": guild_id,
                    "log_id": log_id,
                    "version": 2 if log_id is not None else 1,
                }
            )
    if rows:
        op.bulk_insert(entries, rows)


def downgrade() -> None:
    op.drop_table("roll_request_entry")
