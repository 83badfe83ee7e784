"""Audiences: every roll-log row, post and XP award carries who may see it (issue 22 §1).

``audience`` (everyone | player | gm), ``audience_user_id`` (the player of ``player``) and
``secrets`` (the parts only the GM reads, and those a hidden NPC seals until it is
revealed) on ``roll_log``, ``post`` and ``xp_award``; ``reveal`` records each NPC the GM
revealed (bot/services/shared/audience.py).

Stored rows get the audience the outputs used to work out each time:

* a private roll: its roller and the GM;
* a check against a hidden NPC, a roll asked by the GM with a hidden difficulty, an attack
  whose hidden side's numbers were kept: those numbers sealed (for good: the old rows do not
  say which NPC, so no reveal lifts them);
* a roll or an XP award of an NPC hidden today: its numbers (the award: the whole record)
  sealed until that NPC is revealed;
* a GM-only post: its author and the GM; a post in a GM ↔ player private thread: that
  player and the GM; private notes: sealed.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-02
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

TABLES = ("roll_log", "post", "xp_award")
NUMBERS = ["detail", "difficulty", "total"]


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("audience", sa.String(10), nullable=False, server_default="everyone")
            )
            batch.add_column(sa.Column("audience_user_id", sa.BigInteger(), nullable=True))
            batch.add_column(sa.Column("secrets", sa.JSON(), nullable=False, server_default="{}"))
    op.create_table(
        "reveal",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), nullable=False),
        sa.Column("by_user_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_reveal_guild_id", "reveal", ["guild_id"])
    op.create_index("ix_reveal_campaign", "reveal", ["campaign_id", "character_id"])
    _backfill(op.get_bind())


def _json(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}


def _backfill(bind: sa.engine.Connection) -> None:
    bind.execute(
        sa.text("UPDATE roll_log SET audience = 'player', audience_user_id = user_id WHERE private")
    )
    secrets: dict[int, dict[str, Any]] = {}
    detail_text = "CAST(detail AS TEXT)"
    rows = bind.execute(
        sa.text(
            f"SELECT id, detail FROM roll_log WHERE {detail_text} LIKE '%hidden_opponent%' "
            f"OR {detail_text} LIKE '%hidden_request%' OR {detail_text} LIKE '%\"secret\"%'"
        )
    ).all()
    for row_id, raw in rows:
        detail = _json(raw)
        sealed: set[str] = set()
        if detail.get("hidden_opponent"):
            sealed.update(NUMBERS)
        if detail.get("hidden_request"):
            sealed.update(NUMBERS)
            if detail["hidden_request"] == "nothing":
                sealed.add("outcome")
        if "secret" in detail:
            sealed.add("detail")
        if sealed:
            secrets[row_id] = {"sealed": sorted(sealed)}
    hidden = bind.execute(
        sa.text(
            "SELECT id, campaign_id, name FROM character "
            "WHERE is_npc AND hidden AND deleted_at IS NULL"
        )
    ).all()
    for npc_id, campaign_id, name in hidden:
        found = bind.execute(
            sa.text("SELECT id FROM roll_log WHERE campaign_id = :c AND character_name = :n"),
            {"c": campaign_id, "n": name},
        ).all()
        for (row_id,) in found:
            entry = secrets.setdefault(row_id, {})
            entry["npc"] = npc_id
            entry["npc_sealed"] = NUMBERS
        bind.execute(
            sa.text("UPDATE xp_award SET secrets = :s WHERE character_id = :id"),
            {"s": json.dumps({"npc": npc_id, "npc_sealed": ["record"]}), "id": npc_id},
        )
    for row_id, entry in secrets.items():
        bind.execute(
            sa.text("UPDATE roll_log SET secrets = :s WHERE id = :id"),
            {"s": json.dumps(entry), "id": row_id},
        )
    bind.execute(
        sa.text(
            "UPDATE post SET audience = 'player', audience_user_id = author_user_id WHERE gm_only"
        )
    )
    bind.execute(
        sa.text(
            "UPDATE post SET audience = 'player', audience_user_id = ("
            " SELECT player_user_id FROM private_thread"
            " WHERE private_thread.thread_id = post.channel_id"
            " AND private_thread.guild_id = post.guild_id)"
            " WHERE NOT gm_only AND EXISTS (SELECT 1 FROM private_thread"
            " WHERE private_thread.thread_id = post.channel_id"
            " AND private_thread.guild_id = post.guild_id)"
        )
    )
    bind.execute(  # sealed from all but the GM and their writer
        sa.text(
            "UPDATE post SET secrets = :s, audience_user_id = COALESCE(audience_user_id,"
            " author_user_id) WHERE notes_private"
        ),
        {"s": json.dumps({"sealed": ["notes"]})},
    )


def downgrade() -> None:
    op.drop_index("ix_reveal_campaign", table_name="reveal")
    op.drop_index("ix_reveal_guild_id", table_name="reveal")
    op.drop_table("reveal")
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("secrets")
            batch.drop_column("audience_user_id")
            batch.drop_column("audience")
