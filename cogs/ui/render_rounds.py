"""Rounds of declarations (issue 25 §1): the round's header, a declaration's sealed reply
and the round's summary.

The summary is posted in the scene: each resolved attack shows what its live ``/attack``
reply would show everyone (the outcome, the damage, the state in the system's words), never
a hidden NPC's AC/Defensa, target number or hit points (the attack view says which side's
numbers are withheld).  The header mentions exactly the players who must declare (and the
GM for the NPCs); nothing else in it pings.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.play.abilities import AbilityUseView
from bot.services.play.attack_record import AttackView
from bot.services.play.combat_views import CombatView
from bot.services.play.round_views import ActionLine, RoundHeader, RoundSummary
from bot.services.play.spells import CastView
from bot.words import problem_text
from cogs.ui.render import fit_lines, moment
from cogs.ui.render_groups import group_lines
from cogs.ui.render_pain import chosen_text, stand_text
from rules.combat.attack import AttackOutcome
from rules.names import display_state

__all__ = [
    "declared_ability",
    "declared_cast",
    "declared_note",
    "header",
    "round_messages",
    "rounds_of",
    "summary",
]


def header(view: RoundHeader, locale: str) -> dict[str, Any]:
    """The round's opening: number, deadline (each reader's zone), who must declare."""
    deadline = view.deadline
    text = t(
        "declare.header",
        locale,
        round=view.round,
        deadline=moment(deadline, "f") if deadline else "—",
        relative=moment(deadline, "R") if deadline else "—",
    )
    names = []
    users: set[int] = set()
    for owed in view.owed:
        if owed.user_id is not None:
            names.append(t("declare.owed_player", locale, name=owed.name, user=owed.user_id))
            users.add(owed.user_id)
        elif view.gm_user_id is not None:
            names.append(t("declare.owed_gm_mention", locale, name=owed.name, user=view.gm_user_id))
            users.add(view.gm_user_id)
        else:
            names.append(t("declare.owed_gm", locale, name=owed.name))
    if names:
        text += "\n" + t("declare.header_owed", locale, names=", ".join(names))
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=u) for u in sorted(users)]
    )
    return {"content": text[:2000], "allowed_mentions": mentions}


def declared_cast(view: CastView, locale: str) -> str:
    """A declared spell's private reply: what will be cast, when (issue 25 §1)."""
    declared = view.declared
    if declared is None:
        return ""
    key = "declare.cast_changed" if declared.changed else "declare.cast_declared"
    return t(
        key, locale, round=declared.round, name=view.character_name,
        spell=view.result.label or "?", target=view.target or "—",
    )  # fmt: skip


def declared_ability(view: AbilityUseView, locale: str) -> str:
    """A declared ability's private reply, above what it would do now (issue 25 §1)."""
    declared = view.declared
    if declared is None:
        return ""
    key = "declare.declared_changed" if declared.changed else "declare.declared"
    return t(key, locale, round=declared.round)


def declared_note(view: AttackView, locale: str) -> str:
    """The first line of a declaration's private reply (its dice follow)."""
    declared = view.declared
    if declared is None:
        return ""
    key = "declare.declared_changed" if declared.changed else "declare.declared"
    return t(key, locale, round=declared.round)


def summary(view: RoundSummary, locale: str) -> dict[str, Any]:
    """The round's resolution, public numbers only (module docstring)."""
    # a hidden NPC's pain threshold choice would bound its Fuerte: the GM's (the panel still
    # shows it on the ground: that is seen)
    shown = [ln for ln in view.lines if ln.pain is None or ln.pain.secrecy.npc_id is None]
    lines = [_line(line, locale) for line in shown] or [t("declare.summary_empty", locale)]
    if view.at_deadline:
        key = "declare.summary_choice_deadline" if view.resumed else "declare.summary_deadline"
        lines.append(t(key, locale))
    if view.waiting is not None:  # rolweb: paused for a player's pain threshold choice
        until = moment(view.waiting_until) if view.waiting_until else "—"
        lines.append(t("declare.summary_waiting", locale, name=view.waiting.name, until=until))
    title_key = "declare.summary_title_resumed" if view.resumed else "declare.summary_title"
    embed = discord.Embed(
        title=t(title_key, locale, round=view.round),
        description=fit_lines(lines, locale),
        colour=discord.Colour.dark_gold(),
    )
    return {"embed": embed, "allowed_mentions": discord.AllowedMentions.none()}


def _line(line: ActionLine, locale: str) -> str:
    if line.kind == "hold":
        return t("declare.line_hold", locale, name=line.name)
    if line.kind == "pain" and line.pain is not None:
        return chosen_text(line.pain, locale)
    if line.kind == "stand" and line.stand is not None:
        return stand_text(line.stand, locale)
    if line.kind == "target_fell":
        return t("declare.line_target_fell", locale, name=line.name, target=line.target)
    if line.kind == "cast" and line.cast is not None:
        key = "declare.line_cast_on" if line.cast.target else "declare.line_cast"
        return t(
            key, locale, name=line.name, spell=line.cast.result.label,
            target=line.cast.target or "",
        )  # fmt: skip
    if line.kind == "ability" and line.ability is not None:
        used = line.ability
        return t(
            "declare.line_ability", locale, name=line.name, ability=used.ability,
            target=used.target, effect=used.effect or "—",
        )  # fmt: skip
    if line.kind == "test" and line.check is not None:
        check = line.check
        notes = "; ".join(t(n, locale, genero=check.gender) for n in check.result.notes)
        return t(
            "declare.line_test", locale, name=line.name, label=check.result.label,
            total=check.result.total, notes=notes or "—",
        )  # fmt: skip
    if line.kind == "attack" and line.attack is not None:
        text = _attack_line(line.attack, locale)
        if line.defence_by_bot:
            text += " " + t("declare.line_bot_defence", locale)
        if line.repeated:
            text += " " + t("declare.line_repeated", locale)
        return text
    reason = problem_text(line.problem, dict(line.params), locale) if line.problem else "—"
    return t("declare.line_refused", locale, name=line.name, reason=reason)


def _attack_line(view: AttackView, locale: str) -> str:
    """One resolved attack as everyone may read it."""
    result = view.result
    if result.outcome is AttackOutcome.UNJUDGED:
        verdict = t("attack.unjudged", locale, total=result.total)
    else:
        verdict = t(f"attack.outcome.{result.outcome.value}", locale)
    parts = [
        t(
            "declare.line_attack",
            locale,
            name=view.attacker,
            target=view.target,
            weapon=result.weapon,
            verdict=f"**{verdict}**",
        )
    ]
    if result.damage:
        parts.append(t("declare.line_damage", locale, damage=result.damage))
    if view.group is not None:  # a sheetless group: who fell (its numbers are the GM's)
        return " · ".join(parts + group_lines(view.group, locale, numbers=not view.target_hidden))
    word = view.description if view.target_hidden and view.description else view.state
    if word:
        state = display_state(view.system or None, word, locale, view.target_gender)
        if view.hit_points is not None and not view.target_hidden:
            left, maximum = view.hit_points
            parts.append(
                t(
                    "declare.line_state_numbers",
                    locale,
                    target=view.target,
                    state=state,
                    left=left,
                    maximum=maximum,
                )
            )
        else:
            parts.append(t("declare.line_state", locale, target=view.target, state=state))
    return " · ".join(parts)


def round_messages(
    closed: RoundSummary | None, opened: RoundHeader | None, locale: str
) -> list[dict[str, Any]]:
    """The scene's messages: the resolved round's summary, then the next round's header."""
    messages = [summary(closed, locale)] if closed is not None else []
    if opened is not None:
        messages.append(header(opened, locale))
    return messages


def rounds_of(view: CombatView, locale: str) -> list[dict[str, Any]]:
    """The round messages of a ``/init`` use case: the round it resolved (and the next
    one's header), or the round it opened; none when it did neither."""
    if view.summary is not None:
        return round_messages(view.summary, view.summary.next, locale)
    return round_messages(None, view.header, locale)
