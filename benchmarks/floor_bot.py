"""The floor of ``benchmarks/roll_load_bench.py`` and ``command_load_bench.py``: a bare
discord.py bot answering ``/roll`` and a button.

Same command, same options, same dice engine and the same Markdown line as Árbitro's
``/roll``, but no database, no campaign, no audit log, no catalogue: what any bot pays to
receive an interaction and answer it.  Árbitro's cost per ``/roll`` is compared with this
one, measured in the same run under the same load.

``/form`` opens a one-field form; its submission is posted through the channel's webhook
and the member told privately that it was: the floor of ``/post`` (a modal answered by a
webhook post), and of every other modal the benchmarks submit.

``/panel`` posts a message of 20 persistent buttons (``DynamicItem``s, as Árbitro's request
buttons are); a press answers its member privately with a ``1d20+5`` line: the floor of a
roll request's «Tirar» button.

With ``FLOOR_PROXY=1`` it is also the floor of ``benchmarks/typing_bench.py``: a bare proxy
bot (Tupperbox's or PluralKit's core) that reads members' messages (Message Content), reposts
``Name: text`` in a thread through its parent's webhook under that name, in the order the
messages came (a lock per thread), and deletes the original — no tags to look up, no sheet,
no record, no rolls.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import sys

import discord
from discord import app_commands

from rules import dice

_rng = random.SystemRandom()


@app_commands.command(name="roll", description="Roll dice")
async def roll(
    itx: discord.Interaction,
    expression: app_commands.Range[str, 1, 200],
    reason: app_commands.Range[str, 1, 200] | None = None,
    private: bool = False,
    difficulty: app_commands.Range[int, -999, 9999] | None = None,
) -> None:
    result = dice.roll(expression, rng=_rng)
    text = f"**{itx.user.display_name}** {result.markdown()}"
    await itx.response.send_message(text, ephemeral=private)


class FloorButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"floor:(?P<n>\d+)"
):
    """One persistent button: a press rolls ``1d20+5`` for its member, privately."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Pj {n}", custom_id=f"floor:{n}"))

    @classmethod
    async def from_custom_id(cls, itx: discord.Interaction, item: discord.ui.Button[discord.ui.View], match: re.Match[str]) -> FloorButton:  # type: ignore[override]  # fmt: skip
        return cls(int(match["n"]))

    async def callback(self, itx: discord.Interaction) -> None:  # type: ignore[override]
        result = dice.roll("1d20+5", rng=_rng)
        text = f"**{itx.user.display_name}** {result.markdown()}"
        await itx.response.send_message(text, ephemeral=True)


@app_commands.command(name="form", description="Open a form")
async def form(itx: discord.Interaction) -> None:
    modal = discord.ui.Modal(title="Publicar", custom_id=f"floor-post:{itx.id}")
    modal.add_item(discord.ui.TextInput(label="Texto", custom_id="text"))
    await itx.response.send_modal(modal)


@app_commands.command(name="panel", description="Post 20 buttons")
async def panel(itx: discord.Interaction) -> None:
    view = discord.ui.View(timeout=None)
    for n in range(20):
        view.add_item(FloorButton(n))
    await itx.response.send_message("Tirad", view=view)


class FloorBot(discord.Client):
    def __init__(self) -> None:
        self.proxy = os.environ.get("FLOOR_PROXY") == "1"
        intents = discord.Intents.default()
        intents.message_content = self.proxy
        super().__init__(intents=intents)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(roll)
        self.tree.add_command(panel)
        self.tree.add_command(form)
        self.hooks: dict[int, discord.Webhook] = {}
        self.order: dict[int, asyncio.Lock] = {}

    async def on_interaction(self, itx: discord.Interaction) -> None:
        """A ``/form`` submission: posted through the channel's webhook, its author told."""
        data = itx.data or {}
        if itx.type is not discord.InteractionType.modal_submit:
            return
        if not str(data.get("custom_id", "")).startswith("floor-post:"):
            return
        text = next(
            (
                c["value"]
                for row in data.get("components", [])
                for c in row.get("components", [row.get("component", {})])
                if c.get("custom_id") == "text"
            ),
            "",
        )
        channel = itx.channel
        if not isinstance(channel, discord.TextChannel):
            return
        hook = self.hooks.get(channel.id)
        if hook is None:
            hook = self.hooks[channel.id] = await channel.create_webhook(name="floor")
        sent = await hook.send(
            text,
            username=itx.user.display_name,
            wait=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await itx.response.send_message(f"Publicado: {sent.jump_url}", ephemeral=True)

    async def on_message(self, message: discord.Message) -> None:
        """``Name: text`` in a thread, reposted as Name; then the original goes."""
        channel = message.channel
        if not self.proxy or message.author.bot or message.webhook_id is not None:
            return
        if not isinstance(channel, discord.Thread) or channel.parent is None:
            return
        name, tagged, text = message.content.partition(": ")
        if not tagged or not isinstance(channel.parent, discord.ForumChannel | discord.TextChannel):
            return
        async with self.order.setdefault(channel.id, asyncio.Lock()):  # arrival order
            hook = self.hooks.get(channel.parent.id)
            if hook is None:
                hook = self.hooks[channel.parent.id] = await channel.parent.create_webhook(
                    name="floor"
                )
            await hook.send(
                text,
                username=name,
                thread=channel,
                wait=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        await message.delete()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(FloorButton)
        await self.tree.sync()


def main(argv: list[str] | None = None) -> int:
    FloorBot().run(os.environ["DISCORD_TOKEN"], log_level=logging.WARNING, root_logger=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
