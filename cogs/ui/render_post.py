"""What a ``/post`` looks like in Discord: the text as written, notes small, the roll under it.

The writer's Markdown (dialogue in bold, thoughts in italics) is sent untouched; the bot adds
only subtext (``-# ``) lines: the notes, the roll, "edited", and a GM-only post's link to its
scene.  A post longer than one message is split by :func:`bot.services.shared.post_text.split_post`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.services.play.inline import NamedRolls
from bot.services.shared.audience import Shown
from bot.services.shared.post_text import notes_lines, split_post
from bot.services.sheets.profiles import ProfileView
from bot.services.table.posting import PostRoll
from cogs.ui.render import truncate

__all__ = ["named_rolls", "post_parts", "profile_card", "returned_text", "roll_line"]


def _without_total(breakdown: str, total: int) -> str:
    """The breakdown without the total it may end with: the line adds the total in bold
    (was «… + 13 = 20 = **20**»; a roll-under test's «1d20 (13)» has none to drop)."""
    text = breakdown.rstrip()
    for tail in (f" = '{total}'", f" = {total}"):
        if text.endswith(tail):
            return text[: -len(tail)]
    return text


def roll_line(roll: PostRoll | None, locale: str) -> str:
    """The attached roll in one line; None (its numbers sealed from the readers: a hidden
    NPC's) only that it rolled."""
    if roll is None:
        return t("post.roll_secret", locale)
    outcome = t(f"roll.outcome.{roll.outcome}", locale) if roll.outcome else ""
    label = f"{roll.label}: " if roll.label else ""
    breakdown = _without_total(roll.breakdown.replace("`", "'"), roll.total)
    if len(breakdown) > 300:
        breakdown = breakdown[:299] + "…"
    return t(
        "post.roll_line",
        locale,
        label=label,
        expression=roll.expression.replace("`", "'"),
        breakdown=breakdown,
        total=roll.total,
        outcome=f" — {outcome}" if outcome else "",
    )


def post_parts(
    text: str,
    locale: str,
    *,
    notes: str | None = None,
    rolls: Sequence[Shown[PostRoll | None]] = (),
    edited: bool = False,
    header: str | None = None,
) -> list[str]:
    """The post's messages: header (GM-only link, a reply's quote), text, notes, the rolls
    (numbered as the text marks them when there are several), edited mark.

    ``rolls`` come already decided by the audience rule for the readers of the messages
    (:func:`bot.services.table.posting.rolls_seen`): a raw roll does not type-check."""
    blocks = [header] if header else []
    blocks.append(text)
    tail = []
    if notes:
        tail.append(notes_lines(notes))
    every = [shown.value for shown in rolls]
    for index, one in enumerate(every, start=1):
        line = roll_line(one, locale)
        if len(every) > 1:
            line = line.replace("-# 🎲", f"-# {_superscript(index)} 🎲", 1)
        tail.append(line)
    if edited:
        tail.append(t("post.edited", locale))
    if tail:
        blocks.append("\n".join(tail))
    return split_post("\n\n".join(blocks))


def named_rolls(named: NamedRolls, user: str, locale: str) -> dict[str, Any]:
    """``/roll`` of a macro or a sheet option: who, what was asked, and each roll's line."""
    who = f"{user} ({named.character})" if named.character else user
    lines = [roll_line(roll, locale).removeprefix("-# ") for roll in named.rolls]
    embed = discord.Embed(
        title=t("macro.rolled", locale, who=who, written=named.written)[:256],
        description="\n".join(lines)[:4000],
    )
    ids = ", ".join(f"#{roll.log_id}" for roll in named.rolls)
    embed.set_footer(text=t("macro.log_refs", locale, ids=ids)[:2048])
    return {"embed": embed}


def _superscript(number: int) -> str:
    return "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(digit)] for digit in str(number))


def returned_text(
    locale: str, reason: str, text: str, notes: str | None, *, kind: str = "returned"
) -> dict[str, Any]:
    """The author's text handed back when the post could not be made (``kind`` «returned»:
    nothing is lost), or after its author deleted it («deleted_copy»).

    In a code block when it fits, else as a file (``publicacion.txt``)."""
    body = text if not notes else f"{text}\n\n---\n{notes}"
    intro = t(f"post.{kind}", locale, reason=reason)
    if len(body) + len(intro) < 1900 and "```" not in body:
        return {"content": f"{intro}\n```\n{body}\n```"}
    file = discord.File(io.BytesIO(body.encode("utf-8")), filename="publicacion.txt")
    return {"content": t(f"post.{kind}_file", locale, reason=reason), "file": file}


#: Characters of a profile's history an embed shows (Discord: 4096); the whole is in the chronicle.
HISTORY_SHOWN = 3900


def gm_note(view: ProfileView, locale: str) -> dict[str, Any]:
    """The referees' note on a character (private: sent only as an ephemeral message), as a
    file when it does not fit a message."""
    note = view.gm_note or ""
    heading = t("umbria.gm_note", locale, name=view.name)
    if len(heading) + len(note) + 2 <= 2000:
        return {"content": f"{heading}\n{note}", "ephemeral": True}
    name = f"{view.name[:40] or 'nota'}.md"
    return {
        "content": heading,
        "file": discord.File(io.BytesIO(note.encode("utf-8")), filename=name),
        "ephemeral": True,
    }


def profile_card(view: ProfileView, locale: str, *, public_only: bool = False) -> dict[str, Any]:
    """A character's public profile: name, avatar, concept, description."""
    embed = discord.Embed(title=t("post.profile.title", locale, name=view.name)[:256])
    if view.concept:
        embed.add_field(name=t("post.profile.concept", locale), value=view.concept, inline=False)
    if view.description:
        embed.add_field(
            name=t("post.profile.description", locale), value=view.description, inline=False
        )
    if view.history:
        embed.description = truncate(view.history, HISTORY_SHOWN)
    if not view.concept and not view.description and not view.history and view.avatar is None:
        embed.description = t("post.profile.no_profile", locale)
    message: dict[str, Any] = {"embed": embed}
    if view.avatar is not None:
        filename = f"avatar.{view.avatar.kind}"
        embed.set_thumbnail(url=f"attachment://{filename}")
        message["file"] = discord.File(io.BytesIO(view.avatar.data), filename=filename)
    if public_only:
        embed.set_footer(text=t("post.profile.public_only", locale).removeprefix("-# "))
    return message
