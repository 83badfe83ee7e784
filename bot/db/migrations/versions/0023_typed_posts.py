"""Posting by typing (issue 24): proxy tags per character and the character that sticks to a
member in a scene; private threads of several members.

``proxy_tag`` holds the tags members set with ``/proxy add`` (the name-and-colon tag of every
character needs no row), unique per campaign by their folded text; ``scene_speaker`` the
character a member last posted as with a tag in a scene (a message without a tag speaks as it).
``private_thread`` learns its members (a player's ``/post to:`` opens one with other players
and the GM): unique per campaign by the sorted member ids, which the GM ↔ player threads
already there get from their two members.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "proxy_tag",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), nullable=False),
        sa.Column("prefix", sa.String(40), nullable=False),
        sa.Column("suffix", sa.String(40), nullable=False),
        sa.Column("tag_key", sa.String(90), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_proxy_tag_guild_id", "proxy_tag", ["guild_id"])
    op.create_index("ix_proxy_tag_character_id", "proxy_tag", ["character_id"])
    op.create_index("uq_proxy_tag_campaign", "proxy_tag", ["campaign_id", "tag_key"], unique=True)
    op.create_table(
        "scene_speaker",
        sa.Column(
            "scene_id",
            sa.Integer(),
            sa.ForeignKey("scene.id"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("user_id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("character.id"), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_scene_speaker_guild_id", "scene_speaker", ["guild_id"])
    op.create_index("ix_scene_speaker_character_id", "scene_speaker", ["character_id"])
    with op.batch_alter_table("private_thread") as batch:
        batch.add_column(sa.Column("members", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("member_key", sa.String(200), nullable=False, server_default=""))
    threads = sa.table(
        "private_thread",
        sa.column("id", sa.Integer()),
        sa.column("player_user_id", sa.BigInteger()),
        sa.column("gm_user_id", sa.BigInteger()),
        sa.column("members", sa.JSON()),
        sa.column("member_key", sa.String()),
    )
    connection = op.get_bind()
    for row in connection.execute(
        sa.select(threads.c.id, threads.c.player_user_id, threads.c.gm_user_id)
    ).all():
        members = sorted({row.player_user_id, row.gm_user_id})
        connection.execute(
            threads.update()
            .where(threads.c.id == row.id)
            .values(members=members, member_key=",".join(map(str, members)))
        )
    op.drop_index("uq_private_thread_pair", table_name="private_thread")
    op.create_index(
        "uq_private_thread_members", "private_thread", ["campaign_id", "member_key"], unique=True
    )


def downgrade() -> None:
    op.drop_index("uq_private_thread_members", table_name="private_thread")
    op.create_index(
        "uq_private_thread_pair",
        "private_thread",
        ["campaign_id", "player_user_id", "gm_user_id"],
        unique=True,
    )
    with op.batch_alter_table("private_thread") as batch:
        batch.drop_column("member_key")
        batch.drop_column("members")
    op.drop_index("ix_scene_speaker_character_id", table_name="scene_speaker")
    op.drop_index("ix_scene_speaker_guild_id", table_name="scene_speaker")
    op.drop_table("scene_speaker")
    op.drop_index("uq_proxy_tag_campaign", table_name="proxy_tag")
    op.drop_index("ix_proxy_tag_character_id", table_name="proxy_tag")
    op.drop_index("ix_proxy_tag_guild_id", table_name="proxy_tag")
    op.drop_table("proxy_tag")
