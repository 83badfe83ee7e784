"""Moving house from Comunidad Umbría (issue 27).

``imported_player`` keeps each Umbría player until a member claims them; ``character`` and
``post`` point at it; ``post.source_ref`` is the post's number there.  ``character_note``
holds a character's note for the GM (Umbría's «Ficha» and «Equipo»); ``character_profile``
gains the public ``history``; ``scene`` its ``opening_text``; ``post_image`` the images shown
inside imported posts; ``import_publication`` the paced posting of imported scenes.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "imported_player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("source", sa.String(10), nullable=False),
        sa.Column("external_id", sa.String(40), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("claimed_by", sa.BigInteger(), nullable=True),
        sa.Column("claimed_at", sa.DateTime(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_imported_player_guild_id", "imported_player", ["guild_id"])
    op.create_index(
        "uq_imported_player",
        "imported_player",
        ["campaign_id", "source", "external_id"],
        unique=True,
    )
    op.create_table(
        "character_note",
        sa.Column(
            "character_id",
            sa.Integer(),
            sa.ForeignKey("character.id"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("audience", sa.String(10), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_character_note_guild_id", "character_note", ["guild_id"])
    with op.batch_alter_table("character") as batch:
        batch.add_column(
            sa.Column(
                "imported_player_id",
                sa.Integer(),
                sa.ForeignKey("imported_player.id", name="fk_character_imported_player"),
                nullable=True,
            )
        )
    with op.batch_alter_table("post") as batch:
        batch.add_column(
            sa.Column(
                "imported_player_id",
                sa.Integer(),
                sa.ForeignKey("imported_player.id", name="fk_post_imported_player"),
                nullable=True,
            )
        )
        batch.add_column(sa.Column("source_ref", sa.String(60), nullable=True))
    with op.batch_alter_table("character_profile") as batch:
        batch.add_column(sa.Column("history", sa.Text(), nullable=True))
    with op.batch_alter_table("scene") as batch:
        batch.add_column(sa.Column("opening_text", sa.Text(), nullable=True))
    op.create_table(
        "post_image",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("post_id", sa.Integer(), sa.ForeignKey("post.id"), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("media_type", sa.String(20), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )
    op.create_index("ix_post_image_guild_id", "post_image", ["guild_id"])
    op.create_index("ix_post_image_post_id", "post_image", ["post_id"])
    op.create_table(
        "import_publication",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("parent_id", sa.BigInteger(), nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("scene_ids", sa.JSON(), nullable=False),
        sa.Column("scene_index", sa.Integer(), nullable=False),
        sa.Column("post_cursor", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("posts_total", sa.Integer(), nullable=False),
        sa.Column("posts_done", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_import_publication_guild_id", "import_publication", ["guild_id"])
    op.create_index("ix_import_publication_campaign_id", "import_publication", ["campaign_id"])


def downgrade() -> None:
    op.drop_index("ix_import_publication_campaign_id", table_name="import_publication")
    op.drop_index("ix_import_publication_guild_id", table_name="import_publication")
    op.drop_table("import_publication")
    op.drop_index("ix_post_image_post_id", table_name="post_image")
    op.drop_index("ix_post_image_guild_id", table_name="post_image")
    op.drop_table("post_image")
    with op.batch_alter_table("scene") as batch:
        batch.drop_column("opening_text")
    with op.batch_alter_table("character_profile") as batch:
        batch.drop_column("history")
    with op.batch_alter_table("post") as batch:
        batch.drop_column("source_ref")
        batch.drop_column("imported_player_id")
    with op.batch_alter_table("character") as batch:
        batch.drop_column("imported_player_id")
    op.drop_index("ix_character_note_guild_id", table_name="character_note")
    op.drop_table("character_note")
    op.drop_index("uq_imported_player", table_name="imported_player")
    op.drop_index("ix_imported_player_guild_id", table_name="imported_player")
    op.drop_table("imported_player")
