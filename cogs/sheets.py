"""``/sheet``: create (wizard), show, profile, list, use, set, item, money, delete/restore,
export/import."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.services.shared.errors import DomainError
from bot.services.shared.post_text import AVATAR_MAX_BYTES
from bot.services.sheets.creation import DraftView
from bot.services.sheets.profiles import MAX_CONCEPT, MAX_DESCRIPTION, ProfileChange
from bot.words import whole_list
from cogs.ui import render_pace, render_post, render_sheet
from cogs.ui.approval import with_approval
from cogs.ui.context import ctx_of
from cogs.ui.cooldowns import fight
from cogs.ui.errors import describe_error
from cogs.ui.options import AnyCharacter, Character, Field, FieldValue, Item
from cogs.ui.slow import acknowledge, reply
from cogs.ui.views import Asking, Confirm
from cogs.ui.wizard import register as register_wizard
from cogs.ui.wizard import wizard_message

if TYPE_CHECKING:
    from bot.app import Arbitro


@app_commands.guild_only()
class SheetCog(commands.GroupCog, group_name="sheet", group_description="Character sheets"):
    def __init__(self, bot: Arbitro) -> None:
        self.bot = bot
        self.characters = bot.services.characters
        self.sheet_exchange = bot.services.sheet_exchange
        self.creation = bot.services.creation
        super().__init__()

    @app_commands.command(
        name="create", description="Create a character step by step (or continue your draft)"
    )
    @app_commands.describe(
        name="The character's name", restart="Discard your open draft and start again"
    )
    @fight()
    async def create(
        self,
        itx: discord.Interaction[Arbitro],
        name: app_commands.Range[str, 1, 100] | None = None,
        restart: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        draft = await self.creation.resume(ctx.place, ctx.actor, name=name)
        if draft is not None and restart:
            await self.creation.cancel(ctx.place, ctx.actor, draft.draft_id, draft.version)
            draft = None
        if draft is None:
            if name is None:
                raise DomainError("sheet.error.name_needed")
            draft = await self.creation.start(ctx.place, ctx.actor, name)
        elif name is not None and name.strip() != draft.name:
            await self._resume_or_replace(itx, draft, name)
            return
        await itx.response.send_message(**wizard_message(draft, ctx.locale), ephemeral=True)

    async def _resume_or_replace(
        self, itx: discord.Interaction[Arbitro], draft: DraftView, name: str
    ) -> None:
        """A draft is open under another name (or «nuno» typed as «ÑUÑO»): ask, never guess.

        Resuming shows the draft as it is; starting the new one abandons the old in the same
        transaction as the new draft's insert (:meth:`CreationService.start`)."""
        ctx = await ctx_of(itx)
        question = t("flows.draft_question", ctx.locale, old=draft.name, new=name.strip())
        view = Confirm(
            itx.user.id,
            ctx.locale,
            confirm_key="flows.draft_new",
            cancel_key="flows.draft_resume",
        )
        await itx.response.send_message(
            question, view=view, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
        await view.wait()
        if view.value is None:
            await itx.edit_original_response(content=t("common.timed_out", ctx.locale), view=None)
            return
        click = view.interaction
        try:
            if view.value:
                shown = await self.creation.start(
                    ctx.place, ctx.actor, name, replacing=(draft.draft_id, draft.version)
                )
            else:
                shown = await self.creation.show(ctx.place, ctx.actor, draft.draft_id)
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            text = describe_error(error, ctx.locale)
            if text is None:
                raise
            await click.response.edit_message(content=text, view=None)
            return
        await click.response.edit_message(content=None, **wizard_message(shown, ctx.locale))

    @app_commands.command(
        name="show", description="Show a character sheet with everything the rules derive"
    )
    @app_commands.describe(
        character="Whose sheet (default: your active character)", private="Only you see it"
    )
    async def show(
        self,
        itx: discord.Interaction[Arbitro],
        character: AnyCharacter | None = None,
        private: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        profiles = self.bot.services.profiles
        profile, view = await profiles.sheet_and_profile(ctx.place, ctx.actor, character)
        if view is None:
            # another player's character: its public profile; the sheet is its owner's and the GM's
            await itx.response.send_message(
                **render_post.profile_card(profile, ctx.locale, public_only=True),
                ephemeral=private,
            )
            return
        await itx.response.send_message(
            **render_sheet.character(view, ctx.locale), ephemeral=private or view.hidden
        )
        if profile.gm_note:  # the referees' note never goes in the (maybe public) reply
            await itx.followup.send(**render_post.gm_note(profile, ctx.locale))

    @app_commands.command(
        name="profile", description="Your character's public profile: avatar, concept, description"
    )
    @app_commands.describe(
        character="Whose (default: your active character)",
        avatar="A PNG, JPEG, GIF or WebP image of at most 256 KiB",
        concept="The concept in one line (e.g. “Mercenary pilot”)",
        description="What everyone knows or sees of them",
        clear_avatar="Remove the avatar",
    )
    @fight()
    async def profile(
        self,
        itx: discord.Interaction[Arbitro],
        character: Character | None = None,
        avatar: discord.Attachment | None = None,
        concept: app_commands.Range[str, 1, MAX_CONCEPT] | None = None,
        description: app_commands.Range[str, 1, MAX_DESCRIPTION] | None = None,
        clear_avatar: bool = False,
    ) -> None:
        ctx = await ctx_of(itx)
        data = None
        if avatar is not None:
            if avatar.size > AVATAR_MAX_BYTES:  # refused before downloading it
                raise DomainError("post.error.bad_avatar", limit=AVATAR_MAX_BYTES // 1024)
            await acknowledge(itx)
            data = await avatar.read()
        change = ProfileChange(
            concept=concept, description=description, avatar=data, clear_avatar=clear_avatar
        )
        view = await self.bot.services.profiles.update(ctx.place, ctx.actor, character, change)
        if change.empty:  # nothing to change: the profile as it is
            await itx.response.send_message(**render_post.profile_card(view, ctx.locale))
            return
        message = render_post.profile_card(view, ctx.locale)
        message["content"] = ctx.t("post.profile.saved", name=view.name)
        await reply(itx, ctx.locale, **message, done=message["content"])

    @app_commands.command(name="list", description="Characters of this campaign")
    @app_commands.describe(deleted="Deleted characters that can be restored (GM)")
    async def list_(self, itx: discord.Interaction[Arbitro], deleted: bool = False) -> None:
        ctx = await ctx_of(itx)
        rows = await self.characters.list(ctx.place, ctx.actor, deleted=deleted)
        await itx.response.send_message(
            **render_sheet.character_list(rows, ctx.locale, npcs=False, deleted=deleted)
        )

    @app_commands.command(
        name="use", description="Make this your active character in this campaign"
    )
    @app_commands.describe(character="Your character")
    @fight()
    async def use(self, itx: discord.Interaction[Arbitro], character: Character) -> None:
        ctx = await ctx_of(itx)
        view = await self.characters.use(ctx.place, ctx.actor, character)
        await itx.response.send_message(ctx.t("sheet.now_playing", name=view.name), ephemeral=True)

    @app_commands.command(name="set", description="Change one field of a sheet")
    @app_commands.describe(
        field="Which field", value="The new value", character="Whose sheet (default: yours)"
    )
    @fight()
    async def set_(
        self,
        itx: discord.Interaction[Arbitro],
        field: Field,
        value: FieldValue,
        character: AnyCharacter | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.characters.set_field(ctx.place, ctx.actor, character, field, value)
        message = render_sheet.character(view, ctx.locale)
        message["content"] = ctx.t("sheet.updated", name=view.name)
        await itx.response.send_message(**message, ephemeral=True)

    @app_commands.command(
        name="item", description="Add or remove equipment (negative quantity removes)"
    )
    @app_commands.describe(
        item="The item",
        quantity="How many (default 1; negative to remove)",
        character="Whose sheet (default: yours)",
    )
    @fight()
    async def item(
        self,
        itx: discord.Interaction[Arbitro],
        item: Item,
        quantity: app_commands.Range[int, -999, 999] = 1,
        character: AnyCharacter | None = None,
    ) -> None:
        ctx = await ctx_of(itx)

        view = await self.characters.adjust_inventory(
            ctx.place, ctx.actor, item, quantity, character
        )
        key = "sheet.item_added" if quantity > 0 else "sheet.item_removed"
        await itx.response.send_message(
            ctx.t(key, name=view.name, item=item, quantity=abs(quantity)), ephemeral=True
        )

    @app_commands.command(name="money", description="Add or spend money (negative spends)")
    @app_commands.describe(
        amount="Amount (negative to spend)",
        currency="Currency (default: the system's main one; in S&W: mo, mp or mc)",
        character="Whose sheet",
    )
    @fight()
    async def money(
        self,
        itx: discord.Interaction[Arbitro],
        amount: app_commands.Range[int, -10_000_000, 10_000_000],
        currency: app_commands.Range[str, 1, 20] | None = None,
        character: AnyCharacter | None = None,
    ) -> None:
        ctx = await ctx_of(itx)

        view, purse = await self.characters.adjust_money(
            ctx.place, ctx.actor, amount, currency, character
        )
        await itx.response.send_message(
            render_sheet.money_changed(view.name, amount, purse, ctx.locale), ephemeral=True
        )

    @app_commands.command(name="delete", description="Delete a character (the GM can restore it)")
    @app_commands.describe(character="The character to delete")
    @fight()
    async def delete(self, itx: discord.Interaction[Arbitro], character: Character) -> None:
        ctx = await ctx_of(itx)
        asking = Asking(
            itx, ctx.locale, question_key="sheet.delete_confirm", confirm_key="sheet.delete_button"
        )
        summary = await self.characters.delete(ctx.place, ctx.actor, character, asking)
        if summary is None or asking.click is None:
            return
        await asking.click.edit_original_response(content=ctx.t("sheet.deleted", name=summary.name))

    @app_commands.command(name="restore", description="Restore a deleted character (GM)")
    @app_commands.describe(character="The deleted character's name")
    @fight()
    async def restore(
        self, itx: discord.Interaction[Arbitro], character: app_commands.Range[str, 1, 100]
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.characters.restore(ctx.place, ctx.actor, character)
        await itx.response.send_message(ctx.t("sheet.restored", name=view.name))

    @app_commands.command(name="export", description="Download a character as a JSON file")
    @app_commands.describe(character="Whose sheet (default: yours)")
    async def export(
        self, itx: discord.Interaction[Arbitro], character: AnyCharacter | None = None
    ) -> None:
        ctx = await ctx_of(itx)
        filename, payload = await self.sheet_exchange.export(ctx.place, ctx.actor, character)
        await itx.response.send_message(
            ctx.t("sheet.exported"),
            file=discord.File(io.BytesIO(payload), filename=filename),
            ephemeral=True,
        )

    @app_commands.command(
        name="import", description="Create a character from an exported JSON file"
    )
    @app_commands.describe(
        file="A file made by /sheet export (format in docs/sheet-format.md)",
        replace="Replace the sheet of the character with that name (its owner or the GM)",
    )
    @fight()
    async def import_(
        self, itx: discord.Interaction[Arbitro], file: discord.Attachment, replace: bool = False
    ) -> None:
        ctx = await ctx_of(itx)
        if file.size > 256 * 1024:
            raise DomainError("sheet.error.import_too_big", limit=256)
        await acknowledge(itx)  # downloading the file and writing may take a while
        payload = await file.read()
        view = await self.sheet_exchange.import_sheet(
            ctx.place, ctx.actor, payload, replace=replace
        )
        message = render_sheet.character(view, ctx.locale)
        message["content"] = ctx.t("sheet.imported", name=view.name)
        # A hidden NPC's stat block is the GM's secret: only the GM sees it.
        message = with_approval({**message, "ephemeral": view.hidden}, view, ctx.locale)
        await reply(itx, ctx.locale, **message, done=message["content"])

    @app_commands.command(
        name="approve", description="Approve (or reject) a character awaiting the GM (GM)"
    )
    @app_commands.describe(
        character="The character awaiting approval",
        reject="Reject it instead (it can be approved later)",
    )
    @app_commands.guild_only()
    @fight()
    async def approve(
        self, itx: discord.Interaction[Arbitro], character: Character, reject: bool = False
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.approvals.decide_by_name(
            ctx.place, ctx.actor, character, approve=not reject
        )
        if view.approval == "approved":
            key = "approval.approved_active" if view.made_active else "approval.approved"
        else:
            key = "approval.rejected_by_command"
        await itx.response.send_message(ctx.t(key, name=view.name, owner=view.owner_user_id))

    @app_commands.command(
        name="transfer", description="Hand a character to another player for good (GM)"
    )
    @app_commands.describe(
        character="The character (it keeps its history: log, XP ledger)",
        member="Its new player",
    )
    @app_commands.guild_only()
    @fight()
    async def transfer(
        self, itx: discord.Interaction[Arbitro], character: Character, member: discord.Member
    ) -> None:
        ctx = await ctx_of(itx)
        if member.bot:
            raise DomainError("approval.error.bot_owner")
        view = await self.bot.services.approvals.transfer(
            ctx.place, ctx.actor, character, member.id, member.display_name
        )
        text = ctx.t("approval.transferred", name=view.name, owner=view.new_owner_id)
        if view.cleared_active:
            text += "\n" + ctx.t("approval.transferred_cleared", previous=view.previous_owner_id)
        if view.made_active:
            text += "\n" + ctx.t("approval.transferred_active", owner=view.new_owner_id)
        await itx.response.send_message(text)

    @app_commands.command(
        name="claim",
        description="Give a member an Umbría character and everything its player wrote there (GM)",
    )
    @app_commands.describe(
        character="A character brought from Umbría",
        member="The member who played it on Umbría",
    )
    @app_commands.guild_only()
    @fight()
    async def claim(
        self, itx: discord.Interaction[Arbitro], character: Character, member: discord.Member
    ) -> None:
        ctx = await ctx_of(itx)
        if member.bot:
            raise DomainError("approval.error.bot_owner")
        view = await self.bot.services.claims.claim(
            ctx.place, ctx.actor, character, member.id, member.display_name
        )
        await itx.response.send_message(
            ctx.t(
                "umbria.claimed",
                player=view.player,
                member=view.member_id,
                characters=whole_list(view.characters) or "—",
                posts=view.posts,
                rolls=view.rolls,
            )
        )

    # -- "PNJtizar": hand a character to the GM for a while (bot.services.table.pace) -------------

    @app_commands.command(name="npcize", description="Hand a character to the GM for a while (GM)")
    @app_commands.describe(
        character="The player's character",
        until="When the player gets it back: mm/dd/yyyy or yyyy-mm-dd (00:00, campaign time)",
    )
    @fight()
    async def npcize(
        self,
        itx: discord.Interaction[Arbitro],
        character: Character,
        until: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.pace.npcize(
            ctx.place, ctx.actor, character, until, locale=ctx.locale
        )
        await itx.response.send_message(render_pace.npcized(view, ctx.locale))

    @app_commands.command(name="unnpcize", description="Give an NPCized character back (GM)")
    @app_commands.describe(character="The NPCized character")
    @fight()
    async def unnpcize(self, itx: discord.Interaction[Arbitro], character: Character) -> None:
        ctx = await ctx_of(itx)
        view = await self.bot.services.pace.unnpcize(ctx.place, ctx.actor, character)
        await itx.response.send_message(
            ctx.t("pace.unnpcized_done", name=view.name, player=f"<@{view.player_user_id}>")
        )


async def setup(bot: Arbitro) -> None:
    register_wizard(bot)
    await bot.add_cog(SheetCog(bot))
