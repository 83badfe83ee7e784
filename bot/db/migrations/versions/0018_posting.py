"""Posting as a character: public profiles, GM ↔ player private threads, private notes.

``character_profile`` keeps a character's public face (avatar bytes, concept, description);
``private_thread`` the one private thread per (campaign, player, GM); ``post`` learns whether
its notes went to the GM channel only and which GM-channel messages belong to it;
``post_message`` maps each Discord message of a post back to it (the context menus start
from a message).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "character_profile",
        sa.Column(
            "character_id",
            sa.Integer(),
            sa.ForeignKey("character.id"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("concept", sa.String(100), nullable=True),
        sa.Column("description", sa.String(1000), nullable=True),
        sa.Column("avatar", sa.LargeBinary(), nullable=True),
        sa.Column("avatar_type", sa.String(10), nullable=True),
        sa.Column("avatar_hash", sa.String(64), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_character_profile_guild_id", "character_profile", ["guild_id"])
    op.create_table(
        "private_thread",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("player_user_id", sa.BigInteger(), nullable=False),
        sa.Column("gm_user_id", sa.BigInteger(), nullable=False),
        sa.Column("parent_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_private_thread_guild_id", "private_thread", ["guild_id"])
    op.create_index(
        "uq_private_thread_pair",
        "private_thread",
        ["campaign_id", "player_user_id", "gm_user_id"],
        unique=True,
    )
    op.create_table(
        "post_message",
        sa.Column("message_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("post_id", sa.Integer(), sa.ForeignKey("post.id"), nullable=False),
    )
    op.create_index("ix_post_message_post_id", "post_message", ["post_id"])
    with op.batch_alter_table("post") as batch:
        batch.add_column(
            sa.Column("notes_private", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("origin_channel_id", sa.BigInteger(), nullable=True))
        batch.add_column(
            sa.Column("gm_message_ids", sa.JSON(), nullable=False, server_default="[]")
        )


def downgrade() -> None:
    with op.batch_alter_table("post") as batch:
        batch.drop_column("gm_message_ids")
        batch.drop_column("origin_channel_id")
        batch.drop_column("notes_private")
    op.drop_index("ix_post_message_post_id", table_name="post_message")
    op.drop_table("post_message")
    op.drop_index("uq_private_thread_pair", table_name="private_thread")
    op.drop_index("ix_private_thread_guild_id", table_name="private_thread")
    op.drop_table("private_thread")
    op.drop_index("ix_character_profile_guild_id", table_name="character_profile")
    op.drop_table("character_profile")
