"""Pace of the play-by-post table: absences, reminder preferences, NPCized characters and
the record of posting reminders sent (one per character, scene and round of posts); an index
on ``post`` for reading a scene's round.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_post_scene_round", "post", ["scene_id", "character_id", "created_at"])
    op.create_table(
        "absence",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.Column("note", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("cancelled_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_absence_guild_id", "absence", ["guild_id"])
    op.create_index("ix_absence_member", "absence", ["campaign_id", "user_id"])
    op.create_table(
        "pace_member",
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("remind_by", sa.String(10), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_pace_member_guild_id", "pace_member", ["guild_id"])
    op.create_table(
        "npcization",
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("player_user_id", sa.BigInteger(), nullable=False),
        sa.Column("by_user_id", sa.BigInteger(), nullable=False),
        sa.Column("since", sa.DateTime(), nullable=False),
        sa.Column("until", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_npcization_guild_id", "npcization", ["guild_id"])
    op.create_table(
        "pace_reminder",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scene.id"), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), nullable=False),
        sa.Column("round_key", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_pace_reminder_guild_id", "pace_reminder", ["guild_id"])
    op.create_index(
        "uq_pace_reminder", "pace_reminder", ["scene_id", "character_id", "round_key"], unique=True
    )


def downgrade() -> None:
    op.drop_table("pace_reminder")
    op.drop_table("npcization")
    op.drop_table("pace_member")
    op.drop_table("absence")
    op.drop_index("ix_post_scene_round", table_name="post")
