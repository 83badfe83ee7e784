"""The play-by-post table: ``scene`` (a forum post or thread of a campaign) and ``post``.

A post made as a character through the bot keeps its text, notes, attached roll and the member
who really wrote it; scenes keep their players and when the GM last posted (the round of posts).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "scene",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("parent_id", sa.BigInteger(), nullable=True),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("header_message_id", sa.BigInteger(), nullable=True),
        sa.Column("opened_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("round_started_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("uq_scene_channel", "scene", ["guild_id", "channel_id"], unique=True)
    op.create_index("ix_scene_campaign_id", "scene", ["campaign_id"])
    op.create_table(
        "post",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("scene_id", sa.Integer(), sa.ForeignKey("scene.id"), nullable=True),
        sa.Column("message_ids", sa.JSON(), nullable=False),
        sa.Column("author_user_id", sa.BigInteger(), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), nullable=True),
        sa.Column("speaker_name", sa.String(100), nullable=False),
        sa.Column("webhook_name", sa.String(80), nullable=True),
        sa.Column("gm_post", sa.Boolean(), nullable=False),
        sa.Column("gm_only", sa.Boolean(), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("notes", sa.String(), nullable=True),
        sa.Column("roll_log_id", sa.Integer(), sa.ForeignKey("roll_log.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("edited_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_post_channel_time", "post", ["guild_id", "channel_id", "created_at"])
    op.create_index("ix_post_campaign", "post", ["campaign_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_post_campaign", table_name="post")
    op.drop_index("ix_post_channel_time", table_name="post")
    op.drop_table("post")
    op.drop_index("ix_scene_campaign_id", table_name="scene")
    op.drop_index("uq_scene_channel", table_name="scene")
    op.drop_table("scene")
