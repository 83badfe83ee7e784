"""A minimal discord.py bot that exercises what the stand-in must model.

It is independent of Árbitro's code, so the stand-in's own tests do not depend on the real bot:
a command group, options of every type, a button view, a select, a modal, an autocomplete, a
deferred reply with follow-ups and edits, a channel message, a thread, a forum post, a webhook,
an attachment, a localized command name and a reply too long for Discord.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

import discord
from discord import app_commands

SPELLS = ["Bola de fuego", "Bola de nieve", "Curar heridas", "Dardo mágico", "Luz"]


class Translator(app_commands.Translator):
    """Spanish names for /ping, to check that localizations reach the synced payload."""

    async def translate(self, string, locale, context):
        if locale is discord.Locale.spain_spanish and string.message == "ping":
            return "sonda"
        return None


class Counter(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="Sumar", style=discord.ButtonStyle.primary, custom_id="tiny:add")
    async def add(self, itx: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        await itx.response.edit_message(content=f"cuenta: {self.count}", view=self)

    @discord.ui.button(
        label="Privado", style=discord.ButtonStyle.secondary, custom_id="tiny:private"
    )
    async def private(self, itx: discord.Interaction, button: discord.ui.Button) -> None:
        await itx.response.send_message(f"solo para {itx.user.name}", ephemeral=True)

    @discord.ui.select(
        custom_id="tiny:pick",
        placeholder="Elige",
        options=[
            discord.SelectOption(label=s, value=s, description=f"el color {s}")
            for s in ("rojo", "verde", "azul")
        ],
    )
    async def pick(self, itx: discord.Interaction, select: discord.ui.Select) -> None:
        await itx.response.send_message(f"elegiste {select.values[0]}")


class Panel(discord.ui.LayoutView):
    """A Components V2 layout: container, section with a button accessory, separator, row."""

    def __init__(self, state: str = "activo") -> None:
        super().__init__(timeout=None)
        toggle = discord.ui.Button(label="Cambiar", custom_id="tiny:toggle")
        toggle.callback = self.toggle
        close = discord.ui.Button(
            label="Cerrar", custom_id="tiny:close", style=discord.ButtonStyle.danger
        )
        close.callback = self.close
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("## Panel"),
                discord.ui.Section(discord.ui.TextDisplay(f"Estado: {state}"), accessory=toggle),
                discord.ui.Separator(),
                discord.ui.ActionRow(close),
            )
        )
        self.state = state

    async def toggle(self, itx: discord.Interaction) -> None:
        await itx.response.edit_message(
            view=Panel("pausado" if self.state == "activo" else "activo")
        )

    async def close(self, itx: discord.Interaction) -> None:
        await itx.response.defer()
        await itx.delete_original_response()


class Assign(discord.ui.View):
    @discord.ui.select(
        cls=discord.ui.UserSelect, custom_id="tiny:who", placeholder="¿Quién?", max_values=2
    )
    async def who(self, itx: discord.Interaction, select: discord.ui.UserSelect) -> None:
        names = ", ".join(sorted(u.display_name for u in select.values))
        await itx.response.send_message(f"asignado a {names}")

    @discord.ui.select(
        cls=discord.ui.ChannelSelect,
        custom_id="tiny:where",
        channel_types=[discord.ChannelType.text],
    )
    async def where(self, itx: discord.Interaction, select: discord.ui.ChannelSelect) -> None:
        await itx.response.send_message(f"en {select.values[0].name}")


class Note(discord.ui.Modal, title="Nota"):
    text = discord.ui.TextInput(label="Texto", custom_id="text", max_length=50)
    mood = discord.ui.TextInput(label="Ánimo", custom_id="mood", required=False)

    async def on_submit(self, itx: discord.Interaction) -> None:
        await itx.response.send_message(f"nota: {self.text.value} ({self.mood.value or '-'})")


class Tools(app_commands.Group, name="tools", description="Tools"):
    dice = app_commands.Group(name="dice", description="Dice tools")

    @dice.command(name="sum", description="Adds numbers")
    @app_commands.describe(a="first", b="second", scale="multiplier")
    async def dice_sum(
        self,
        itx: discord.Interaction,
        a: app_commands.Range[int, 0, 100],
        b: int = 0,
        scale: float = 1.0,
    ) -> None:
        await itx.response.send_message(f"suma={(a + b) * scale:g}")

    @app_commands.command(name="echo", description="Echoes")
    @app_commands.choices(
        style=[
            app_commands.Choice(name="plain", value="plain"),
            app_commands.Choice(name="embed", value="embed"),
        ]
    )
    async def echo(
        self,
        itx: discord.Interaction,
        text: app_commands.Range[str, 1, 100],
        style: app_commands.Choice[str],
        loud: bool = False,
    ) -> None:
        text = text.upper() if loud else text
        if style.value == "embed":
            embed = discord.Embed(title="Eco", description=text).add_field(
                name="by", value=itx.user.name
            )
            await itx.response.send_message(embed=embed)
        else:
            await itx.response.send_message(text)


class TinyBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(Tools())
        for command in COMMANDS:
            self.tree.add_command(command)

    async def on_message(self, message: discord.Message) -> None:
        """Says what it saw of a member's message: its content is empty without the Message
        Content intent (this bot does not ask for it) unless the bot is mentioned."""
        if message.author.bot or message.guild is None:
            return
        reply = message.reference.message_id if message.reference else None
        await message.channel.send(
            f"vi «{message.content}» adjuntos={len(message.attachments)} respuesta={reply}",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def on_raw_message_delete(self, event: discord.RawMessageDeleteEvent) -> None:
        cached = event.cached_message  # a member's message it saw created
        channel = self.get_channel(event.channel_id)
        if (
            cached is not None
            and not cached.author.bot
            and isinstance(channel, discord.TextChannel)
        ):
            await channel.send(f"borrado {event.message_id}")

    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        self.add_view(Counter())
        guild_id = os.environ.get("DEV_GUILD_ID")
        if guild_id:
            guild = discord.Object(int(guild_id))
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


@app_commands.command(name="guilds", description="The servers the bot is in")
async def guilds(itx: discord.Interaction) -> None:
    names = sorted(g.name for g in itx.client.guilds)
    await itx.response.send_message("en: " + ", ".join(names))


@app_commands.command(name="ping", description="Pong")
async def ping(itx: discord.Interaction) -> None:
    await itx.response.send_message(
        f"pong {itx.locale.value} {itx.guild.name if itx.guild else 'dm'}"
    )


@app_commands.command(name="who", description="Resolved objects")
async def who(
    itx: discord.Interaction,
    user: discord.Member,
    role: discord.Role | None = None,
    where: discord.TextChannel | discord.Thread | None = None,
    thing: discord.Member | discord.Role | None = None,
) -> None:
    parts = [f"user={user.display_name}", f"admin={itx.permissions.administrator}"]
    if role:
        parts.append(f"role={role.name}")
    if where:
        parts.append(f"where={where.name}")
    if thing:
        parts.append(f"thing={thing.name}")
    await itx.response.send_message(" ".join(parts), ephemeral=True)


@app_commands.command(name="slow", description="Defers, then follows up")
async def slow(itx: discord.Interaction, private: bool = False) -> None:
    await itx.response.defer(ephemeral=private, thinking=True)
    await asyncio.sleep(0.3)
    await itx.followup.send("primero")
    await itx.followup.send("segundo", file=discord.File(__file__, filename="tiny.py"))


@app_commands.command(name="linger", description="Answers, works a while, then follows up")
async def linger(itx: discord.Interaction) -> None:
    await itx.response.send_message("en ello")
    await asyncio.sleep(1.0)  # longer than the stand-in's quiet period
    await itx.followup.send("hecho")


class Sure(discord.ui.View):
    """A confirmation the command waits on, with a timeout timer of its own."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.click: discord.Interaction | None = None

    @discord.ui.button(label="Sí", custom_id="tiny:sure")
    async def yes(self, itx: discord.Interaction, button: discord.ui.Button) -> None:
        self.click = itx
        await itx.response.edit_message(content="borrando…", view=None)
        self.stop()


@app_commands.command(name="erase", description="Asks, waits for the click, then works")
async def erase(itx: discord.Interaction) -> None:
    view = Sure()
    await itx.response.send_message("¿Seguro?", view=view)
    await view.wait()
    await asyncio.sleep(1.0)  # the work the click unblocks runs in this command's task
    assert view.click is not None
    await view.click.followup.send("borrado")


@app_commands.command(name="edit", description="Answers, then edits the answer")
async def edit(itx: discord.Interaction) -> None:
    await itx.response.send_message("borrador")
    await itx.edit_original_response(content="final")


@app_commands.command(name="counter", description="A button view")
async def counter(itx: discord.Interaction) -> None:
    await itx.response.send_message("cuenta: 0", view=Counter())


@app_commands.command(name="panel", description="A Components V2 layout")
async def panel(itx: discord.Interaction) -> None:
    await itx.response.send_message(view=Panel())


@app_commands.command(name="assign", description="User and channel selects")
async def assign(itx: discord.Interaction) -> None:
    await itx.response.send_message("elige", view=Assign())


@app_commands.command(name="note", description="Opens a modal")
async def note(itx: discord.Interaction) -> None:
    await itx.response.send_modal(Note())


@app_commands.command(name="spell", description="Autocomplete")
async def spell(itx: discord.Interaction, name: str) -> None:
    await itx.response.send_message(f"hechizo: {name}")


@spell.autocomplete("name")
async def spell_name(itx: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=s, value=s)
        for s in SPELLS
        if s.lower().startswith(current.lower())
    ]


@app_commands.command(name="announce", description="Posts to a channel and opens a thread")
async def announce(itx: discord.Interaction, channel: discord.TextChannel, text: str) -> None:
    message = await channel.send(f"anuncio: {text}")
    thread = await message.create_thread(name=f"hilo {text}")
    await thread.send("dentro del hilo")
    await itx.response.send_message(f"hecho: {thread.name}", ephemeral=True)


@app_commands.command(name="post", description="Creates a forum post")
async def post(itx: discord.Interaction, forum: discord.ForumChannel, title: str) -> None:
    created = await forum.create_thread(name=title, content="primer mensaje")
    await itx.response.send_message(f"post {created.thread.name} {created.thread.id}")


@app_commands.command(name="npc", description="Speaks as a character through a webhook")
async def npc(itx: discord.Interaction, name: str, text: str) -> None:
    hook = await itx.channel.create_webhook(name="tiny")
    await hook.send(text, username=name, wait=True)
    await itx.response.send_message("dicho", ephemeral=True)


@app_commands.command(name="herald", description="Opens a forum post through a webhook")
async def herald(itx: discord.Interaction, forum: discord.ForumChannel, title: str) -> None:
    hook = await forum.create_webhook(name="heraldo")
    message = await hook.send("¡Oíd!", username="Heraldo", thread_name=title, wait=True)
    await itx.response.send_message(f"abierto {message.channel.id}", ephemeral=True)


@app_commands.command(name="purge", description="Deletes a message by its id")
async def purge(itx: discord.Interaction, message_id: str) -> None:
    try:
        await itx.channel.get_partial_message(int(message_id)).delete()
    except discord.Forbidden as exc:
        await itx.response.send_message(f"prohibido {exc.code}")
        return
    await itx.response.send_message("purgado")


@app_commands.command(name="chorus", description="Many webhook posts in a row")
async def chorus(itx: discord.Interaction, count: int) -> None:
    await itx.response.defer(thinking=True)
    hook = await itx.channel.create_webhook(name="coro")
    for index in range(count):
        await hook.send(f"voz {index}", username="Coro", wait=True)
    await itx.followup.send("cantado")


@app_commands.command(name="upload", description="Reads an attachment")
async def upload(itx: discord.Interaction, file: discord.Attachment) -> None:
    data = await file.read()
    await itx.response.send_message(
        f"{file.filename}: {len(data)} bytes, {data[:5].decode(errors='replace')}"
    )


@app_commands.command(name="long", description="Sends more than Discord allows")
async def long(itx: discord.Interaction, size: int) -> None:
    try:
        await itx.response.send_message("x" * size)
    except discord.HTTPException as exc:
        await itx.response.send_message(f"rechazado: {exc.code}")


@app_commands.command(name="late", description="Answers without deferring, too late")
async def late(itx: discord.Interaction, seconds: float) -> None:
    await asyncio.sleep(seconds)
    await itx.response.send_message("tarde")


@app_commands.command(name="whisper", description="Sends a DM to the user")
async def whisper(itx: discord.Interaction, text: str) -> None:
    await itx.user.send(f"susurro: {text}")
    await itx.response.send_message("enviado", ephemeral=True)


@app_commands.command(name="admin", description="Administrators only")
@app_commands.default_permissions(manage_guild=True)
async def admin(itx: discord.Interaction) -> None:
    await itx.response.send_message("ok admin")


@app_commands.command(name="mention", description="Repeats text, pinging only as told")
async def mention(
    itx: discord.Interaction, text: str, only: discord.Member | None = None, parse_all: bool = False
) -> None:
    """The same text as a response, a follow-up, a channel message and a webhook post."""
    if parse_all:
        allowed = discord.AllowedMentions.all()
    elif only is not None:
        allowed = discord.AllowedMentions(everyone=False, roles=False, users=[only])
    else:
        allowed = discord.AllowedMentions.none()
    await itx.response.send_message(text, allowed_mentions=allowed)
    await itx.followup.send(text, allowed_mentions=allowed)
    await itx.channel.send(text, allowed_mentions=allowed)
    hook = await itx.channel.create_webhook(name="eco")
    await hook.send(text, username="Eco", allowed_mentions=allowed, wait=True)


@app_commands.context_menu(name="Saludar")
async def greet(itx: discord.Interaction, member: discord.Member) -> None:
    await itx.response.send_message(f"hola {member.display_name}", ephemeral=True)


@app_commands.context_menu(name="Contar")
async def count_words(itx: discord.Interaction, message: discord.Message) -> None:
    await itx.response.send_message(f"{len(message.content.split())} palabras")


COMMANDS = [
    ping,
    purge,
    chorus,
    linger,
    erase,
    guilds,
    mention,
    who,
    slow,
    edit,
    counter,
    panel,
    assign,
    note,
    spell,
    announce,
    post,
    npc,
    herald,
    upload,
    long,
    late,
    whisper,
    greet,
    count_words,
    admin,
]


def main(argv: list[str] | None = None) -> int:
    bot = TinyBot()
    bot.run(os.environ["DISCORD_TOKEN"], log_level=logging.INFO, root_logger=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
