"""``/attack`` replies: the public (or private) reply and the GM's copy with the numbers.

A hidden NPC's numbers (:data:`rules.combat.attack.SECRET_FIELDS`, its hit points and any
roll line that prints the target number) never reach :func:`attack` unless ``gm`` is set or
the view is not secret; the player reads the outcome, the damage and the state in the
system's own words (``description``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.play.attack_notes import GmNote
from bot.services.play.attacks import AttackView
from cogs.ui.render import truncate, turn_warnings
from cogs.ui.render_groups import group_lines
from rules.combat.attack import AttackOutcome
from rules.combat.groups import GroupState
from rules.names import display_state

__all__ = ["attack", "attack_gm_copy", "gm_notes"]

COLOUR = {
    AttackOutcome.HIT: discord.Colour.green(),
    AttackOutcome.MISS: discord.Colour.dark_grey(),
    AttackOutcome.UNJUDGED: discord.Colour.blurple(),
    AttackOutcome.DEFENCE_REQUESTED: discord.Colour.blurple(),
}


def _lines(view: AttackView, locale: str, numbers: bool) -> list[str]:
    """``numbers``: the GM's copy, or nothing to withhold; else a hidden attacker keeps its
    bonuses and a hidden target its AC/Defensa and hit points (the roll's total and the
    outcome are always shown)."""
    result = view.result
    lines: list[str] = []
    own_bonuses = numbers or not view.attacker_hidden
    target_numbers = numbers or not view.target_hidden
    if result.attack is not None:
        shown = result.attack.breakdown if numbers else str(result.total)
        lines.append(f"{result.attack.label}: {truncate(shown, 400)}")
    if result.modifiers and own_bonuses:
        mods = ", ".join(f"{name} {value:+d}" for name, value in result.modifiers)
        lines.append(t("attack.modifiers", locale, modifiers=truncate(mods, 300)))
    if result.outcome is AttackOutcome.DEFENCE_REQUESTED:
        request = result.defence_request
        if numbers and request is not None:
            lines.append(t("attack.defence_target", locale, target=request.target))
        lines.append(t("attack.defence_requested", locale, target=view.target))
        return lines
    verdict = t(f"attack.outcome.{result.outcome.value}", locale)
    if numbers and result.target_number is not None:
        verdict = t("attack.against", locale, verdict=verdict, target=result.target_number)
    if result.outcome is AttackOutcome.UNJUDGED:
        verdict = t("attack.unjudged", locale, total=result.total)
    lines.append(f"**{verdict}**")
    if result.critical:
        lines.append(t("attack.critical", locale))
    if result.fumble:
        lines.append(t("attack.fumble", locale))
    for roll in result.damage_rolls:
        lines.append(f"{roll.label}: {truncate(roll.breakdown, 300)}")
    if result.hit or result.damage:
        lines.append(t("attack.damage", locale, damage=result.damage, target=view.target))
    if view.group is not None:  # a sheetless group: the creature in front, who fell
        return lines + _group_lines(view, locale, target_numbers)
    if view.state is not None or view.description:
        state = (
            display_state(view.system or None, view.state, locale, view.target_gender)
            if view.state is not None
            else None
        )
        if target_numbers and view.hit_points is not None:
            left, maximum = view.hit_points
            lines.append(t("attack.state_numbers", locale, state=state, left=left, maximum=maximum))
        else:
            word = (
                display_state(view.system or None, view.description, locale, view.target_gender)
                if view.description
                else state
            )
            lines.append(t("attack.state", locale, state=word))
    return lines


def _group_lines(view: AttackView, locale: str, numbers: bool) -> list[str]:
    """A group's state word (none after a fall: the next one stands unhurt), who fell, and
    the GM's numbers (``numbers``)."""
    group = view.group
    if group is None:
        return []
    lines = []
    if not group.fell and group.state is not GroupState.UNHURT:
        state = display_state(None, group.state.value, locale, None)
        lines.append(t("attack.state", locale, state=state))
    return lines + group_lines(group, locale, numbers=numbers)


def _embed(view: AttackView, locale: str, numbers: bool) -> discord.Embed:
    result = view.result
    title = t(
        "attack.title", locale, attacker=view.attacker, target=view.target, weapon=result.weapon
    )
    embed = discord.Embed(
        title=truncate(title, 256),
        description=truncate("\n".join(_lines(view, locale, numbers)), 3500),
        colour=COLOUR.get(result.outcome, discord.Colour.blurple()),
    )
    if view.notes:
        embed.add_field(
            name=t("attack.notes", locale),
            value=truncate(
                "\n".join(
                    f"• {t(note, locale, genero=_gender_of(view, note))}" for note in view.notes
                ),
                1024,
            ),
            inline=False,
        )
    embed.set_footer(text=t("roll.log_ref", locale, id=view.log_id))
    return embed


def attack(view: AttackView, locale: str, *, defence: bool = False) -> dict[str, Any]:
    """The reply everyone (or, private, the attacker) sees: numbers only if not secret.

    Headed by the character who acts, never the member who pressed (issue 23 §6: a wolf's
    bite, resolved by its target's player pressing «Defender», was «Ataque de ana»):
    ``defence`` heads the reply of a defence with the defender."""
    if defence:
        content = t("attack.defence_by", locale, name=view.target)
    else:
        content = t("attack.by", locale, name=view.attacker)
    if view.turn_warnings:
        content += "\n" + turn_warnings(view.turn_warnings, locale)
    return {
        "content": content,
        "embed": _embed(view, locale, numbers=not view.secret),  # see _lines
        "allowed_mentions": discord.AllowedMentions.none(),
    }


def attack_gm_copy(view: AttackView, locale: str, channel_mention: str) -> dict[str, Any]:
    """The GM channel's copy, with every number."""
    return {
        "content": t("attack.gm_copy", locale, name=view.attacker, channel=channel_mention),
        "embed": _embed(view, locale, numbers=True),
        "allowed_mentions": discord.AllowedMentions.none(),
    }


def gm_notes(notes: tuple[GmNote, ...], locale: str) -> str:
    """The GM's pending numbers of secret attacks (no GM channel), one line each."""
    lines = [t("attack.notes_title", locale)]
    for note in notes:
        lines.append(
            t(
                "attack.note_line",
                locale,
                id=note.log_id,
                channel=f"<#{note.channel_id}>",
                attacker=note.attacker,
                target=note.target,
                outcome=t(f"attack.outcome.{note.outcome}", locale)
                if note.outcome in {"hit", "miss", "unjudged"}
                else note.outcome,
                total=note.total,
                target_number=note.target_number if note.target_number is not None else "?",
                defence=note.defence if note.defence is not None else "?",
                left=_note_left(note, locale),
                damage=note.damage,
            )
        )
    return truncate("\n".join(lines), 1900)


def _note_left(note: GmNote, locale: str) -> str:
    """What the target has left; a group's after one of it fell: the next one's."""
    if note.out:
        return t("attack.note_left_out", locale)
    left = note.hit_points_left if note.hit_points_left is not None else "?"
    return t("attack.note_left_next", locale, left=left) if note.fell else str(left)


def _gender_of(view: AttackView, note: str) -> str | None:
    """Whom a note speaks of: the attacker for its roll's notes, else the target."""
    return view.attacker_gender if note in view.result.notes else view.target_gender
