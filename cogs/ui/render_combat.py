"""Combat view-models → Discord messages: the turn panel, its buttons, health reports.

The panel is what a play-by-post group reads hours later: whose turn (with a mention of the
player), the round, and the whole order.  Its buttons carry only the fight's id and version
(``arb:1:init-next:<id>:<version>``) and are added by :mod:`cogs.combat`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import catalogue, t
from bot.services.play.combat_views import (
    CombatantLine,
    CombatView,
    HealthView,
    Reminder,
    TickView,
)
from bot.services.shared.audience import Part, Shown
from cogs.ui.render import COLOUR, truncate
from cogs.ui.render_groups import group_lines
from cogs.ui.render_pain import defaults_lines
from rules.names import display_state

__all__ = [
    "health",
    "health_secret",
    "line_text",
    "panel",
    "reminder",
    "secret_numbers",
    "state_name",
    "turn_ping",
]

SIDE_KEYS = {"jugadores": "combat.side_jugadores", "enemigos": "combat.side_enemigos"}


def _rounds(rounds: int | None, locale: str) -> str:
    if rounds is None:
        return t("effects.until_removed", locale)
    return t("effects.rounds_left", locale, count=rounds)


def state_name(system: str, word: str, locale: str, gender: str | None) -> str:
    """A state id (or a campaign's own word) in the reader's language, agreeing with the
    character and lowercase as it reads mid-line («· malherida», «(inconsciente)»)."""
    return display_state(system or None, word, locale, gender)


def health_text(line: CombatantLine, locale: str, *, system: str = "") -> str:
    """The state, with hit points where the viewer may see them: a player character's and a
    revealed NPC's for everyone, a hidden NPC's only for the GM (else its description)."""
    if not line.state:
        return ""
    if line.hit_points is not None and not line.secret:
        left, maximum = line.hit_points
        state = state_name(system, line.state, locale, line.gender)
        return t("combat.health_numbers", locale, state=state, left=left, maximum=maximum)
    word = state_name(system, line.description or line.state, locale, line.gender)
    return t("combat.health_word", locale, state=word)


def line_text(line: CombatantLine, view: CombatView, locale: str) -> str:
    # by rounds of declarations nobody has "the turn": everyone declares (issue 25 §1)
    current = line.current and view.mode != "declarations"
    marker = "▶" if current else "•"
    name = f"**{line.name}**" if current else line.name
    if line.count > 1 or (line.fallen and line.count > 0):  # a group: how many stand
        name += f" ×{line.count}"
    parts = [f"{marker} {name}"]
    if line.initiative is None:
        parts.append(t("combat.no_initiative", locale))
    elif view.by_side:
        parts.append(t(SIDE_KEYS[line.side], locale))
    elif line.secret:  # a hidden NPC's initiative would bound its stats: its place only
        parts.append("(?)")
    else:
        parts.append(f"({line.initiative})")
    if line.actions > 1:
        parts.append(t("combat.actions", locale, count=line.actions))
    if line.waited_after:
        parts.append(t("combat.waits_after", locale, name=line.waited_after))
    if line.skips_this_round:
        parts.append(t("combat.skips_round", locale))
    state = health_text(line, locale, system=view.system)
    if state:
        parts.append(state)
    if line.fallen:
        parts.append(t("combat.group_fallen", locale, count=line.fallen))
    if line.prone:
        parts.append(t("pain.panel_prone", locale))
    if line.choice_owed and not line.secret:
        parts.append(t("pain.panel_owed", locale))
    text = " ".join(parts)
    if current and view.active and view.actions_left and not line.turn_test:
        text += "\n" + actions_left(view, locale)
    for name, rounds in line.effects:
        text += "\n" + t("effects.panel_line", locale, name=name, rounds=_rounds(rounds, locale))
    return text


def _left_key(system: str, kind: str) -> str:
    """The system's own word for a kind of action («de combate», «mayor»), else the
    common one."""
    own = f"actions.left_{system}.{kind}"
    return own if catalogue().has(own) else f"actions.left.{kind}"


def actions_left(view: CombatView, locale: str) -> str:
    """What the combatant whose turn it is has left («quedan: 1 de combate, 1 de
    movimiento»), in the system's words for each kind of action (issue 23 §1)."""
    kinds = [
        t(_left_key(view.system, kind), locale, count=count) for kind, count in view.actions_left
    ]
    return t("actions.left_line", locale, actions=", ".join(kinds))


def _announcement(view: CombatView, locale: str) -> str:
    turn, current = view.turn, view.current
    if view.effects_ended:
        key = "effects.fight_kept" if view.effects_kept else "effects.fight_ended"
        return "\n".join(
            t(key, locale, owner=owner, names=", ".join(names))
            for owner, names in view.effects_ended
        )
    if turn is None or current is None:
        return ""
    lines = _tick_lines(view.ended, locale)  # the turn that ended: its effects' rounds
    if turn.new_round:
        lines.append(t("combat.new_round", locale, round=turn.round))
        if turn.side_rolls:
            rolls = dict(turn.side_rolls)
            lines.append(
                t(
                    "combat.side_rolls",
                    locale,
                    jugadores=rolls.get("jugadores", "?"),
                    enemigos=rolls.get("enemigos", "?"),
                )
            )
    for skipped in turn.skipped:
        lines.append(t("combat.skipped", locale, name=skipped.name))
    states = {line.key: line for line in view.lines}
    for gone in turn.left:
        line = states.get(gone.key)
        word = (line.description or line.state) if line is not None else ""
        if word and line is not None:
            word = state_name(view.system, word, locale, line.gender)
        lines.append(t("combat.left_order", locale, name=gone.name, state=word or "—"))
    who = f"<@{current.owner_id}> " if current.owner_id else ""
    if current.turn_test:
        # a dying character's turn is its test: the tracker waits for it, so its player is
        # pinged like any turn's (the button below is for them, or the GM)
        state = state_name(view.system, current.state, locale, current.gender)
        lines.append(who + t("combat.turn_test", locale, name=current.name, state=state))
    else:
        key = "combat.turn_actions" if turn.actions > 1 else "combat.turn"
        lines.append(who + t(key, locale, name=current.name, count=turn.actions))
    lines += _tick_lines(view.ticked, locale)
    lines += defaults_lines(view.pain_defaults, locale)  # rolweb: a pain choice unmade
    return "\n".join(lines)


def _tick_lines(tick: TickView | None, locale: str) -> list[str]:
    if tick is None:
        return []
    lines = [
        t("effects.expired", locale, name=effect.name, owner=tick.name)
        for effect in tick.ticked.expired
    ]
    for roll in tick.ticked.rolls:
        if tick.secret:  # a hidden NPC's heal would tell its hit points
            lines.append(t("effects.turn_heal_hidden", locale, effect=roll.effect, owner=tick.name))
            continue
        lines.append(
            t(
                "effects.turn_heal",
                locale,
                effect=roll.effect,
                owner=tick.name,
                amount=roll.amount,
                breakdown=roll.breakdown,
            )
        )
    return lines


def panel(shown: Shown[CombatView], locale: str, *, note: str = "") -> dict[str, Any]:
    """The order with the turn marker; mentions the player whose turn just began.

    Rendered for its reader (:func:`bot.services.play.combat.combat_for`): a panel posted in
    the channel never shows a hidden NPC's numbers; the GM's own copy does."""
    view = shown.value
    if view.declaring is not None:
        title = t("declare.title", locale, round=view.declaring[0])
    elif view.round:
        title = t("combat.title_round", locale, round=view.round)
    else:
        title = t("combat.title_setup", locale)
    if not view.active:
        title = t("combat.title_ended", locale)
    body = [line_text(line, view, locale) for line in view.lines] or [t("combat.empty", locale)]
    if view.by_side and view.side_rolls:
        rolls = dict(view.side_rolls)
        body.append(
            "\n"
            + t(
                "combat.side_rolls",
                locale,
                jugadores=rolls.get("jugadores", "?"),
                enemigos=rolls.get("enemigos", "?"),
            )
        )
    for rolled in view.rolled:
        if rolled.breakdown is None:
            body.append(t("combat.rolled_hidden", locale, name=rolled.name))
        else:
            body.append(t("combat.rolled", locale, name=rolled.name, breakdown=rolled.breakdown))
    if view.declaring is not None:  # a round of declarations (issue 25 §1): who owes one
        number, done, waiting = view.declaring
        nobody = t("declare.nobody", locale)
        body.append(
            "\n"
            + t(
                "declare.panel_line",
                locale,
                round=number,
                done=", ".join(done) or nobody,
                waiting=", ".join(waiting) or nobody,
            )
        )
    embed = discord.Embed(
        title=title, description=truncate("\n".join(body), 4000), colour=COLOUR[None]
    )
    # an ended fight has no next turn to point at: only its version
    footer = t("combat.footer", locale, version=view.version) if view.active else f"v{view.version}"
    embed.set_footer(text=footer)
    content = "\n".join(part for part in (note, _announcement(view, locale)) if part)
    return {
        "content": truncate(content, 2000) or None,
        "embed": embed,
        "allowed_mentions": turn_ping(view),
    }


def turn_ping(view: CombatView) -> discord.AllowedMentions:
    """Only the player whose turn just began is pinged; any other ``<@…>`` in the message
    (a combatant's name, a note) is text.  Nobody when no player's turn began.  A dying
    character's turn is its death test, which holds the tracker until its player (or the GM)
    presses the button: its player is pinged too, or a forum fight would wait unseen."""
    current = view.current if view.turn is not None else None
    if current is None or not current.owner_id:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=current.owner_id)]
    )


def secret_numbers(shown: Shown[CombatView], locale: str) -> str:
    """For the GM alone: the hidden NPCs' hit points the public panel leaves out, and the
    wounded groups' (their creature in front); empty for any other reader: his view has
    them sealed."""
    view = shown.value
    lines = [
        t(
            "combat.secret_line",
            locale,
            name=line.name,
            state=state_name(view.system, line.state, locale, line.gender),
            left=hp[0],
            maximum=hp[1],
        )
        for line in view.lines
        if shown.sight.reader.is_gm
        and (line.secrecy.npc_sealed or Part.DETAIL in line.secrecy.sealed)
        and line.state
        and (hp := line.hit_points) is not None
    ]
    return "\n".join(lines)


def secret_rolls(shown: Shown[CombatView], locale: str) -> str:
    """For the GM alone: the initiatives just rolled that the channel's panel keeps sealed."""
    if not shown.sight.reader.is_gm:
        return ""
    return "\n".join(
        t("combat.rolled_secret", locale, name=rolled.name, breakdown=rolled.breakdown)
        for rolled in shown.value.rolled
        if rolled.secrecy.npc_sealed and rolled.breakdown is not None
    )


def health(view: HealthView, locale: str) -> dict[str, Any]:
    """The public reply to ``/init damage|heal``: the new state and, unless the target is a
    hidden NPC, what is left (its numbers go to the GM: :func:`health_secret`)."""
    key = "combat.healed" if view.healed else "combat.damaged"
    lines = [t(key, locale, name=view.name, amount=view.amount)]
    if view.group is not None:  # a sheetless group: its word, who fell; numbers: the GM's
        if not view.group.fell:
            word = state_name("", view.group.state.value, locale, None)
            lines.append(t("combat.state", locale, state=word))
        lines += group_lines(view.group, locale, numbers=not view.secret)
        return _health_embed(view, lines, locale)
    label = state_name(view.system, view.label or view.state, locale, view.gender)
    if view.hit_points is not None and not view.secret:
        left, maximum = view.hit_points
        lines.append(t("combat.state_left", locale, state=label, left=left, maximum=maximum))
    else:
        word = view.description or view.label or view.state
        lines.append(
            t("combat.state", locale, state=state_name(view.system, word, locale, view.gender))
        )
    lines += [t(note, locale, genero=view.gender) for note in view.notes]
    return _health_embed(view, lines, locale)


def _health_embed(view: HealthView, lines: list[str], locale: str) -> dict[str, Any]:
    colour = COLOUR["success"] if view.healed else COLOUR["fumble"]
    embed = discord.Embed(description="\n".join(lines), colour=colour)
    if view.log_id:
        embed.set_footer(text=t("roll.log_ref", locale, id=view.log_id))
    return {"embed": embed}


def reminder(due: Reminder, locale: str) -> dict[str, Any]:
    """The play-by-post nudge: pings the one member whose turn waits (the player, or the GM
    for an NPC), and nobody a combatant's name may mention."""
    content = t(
        "combat.reminder",
        locale,
        mention=f"<@{due.mention_id}>",
        name=due.name,
        round=due.round,
        hours=due.hours,
    )
    allowed = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=due.mention_id)]
    )
    return {"content": truncate(content, 2000), "allowed_mentions": allowed}


def health_secret(view: HealthView, locale: str) -> str | None:
    """The GM's ephemeral note with a hidden NPC's hit points after damage or healing."""
    if not view.secret or view.hit_points is None:
        return None
    left, maximum = view.hit_points
    if view.group is not None:  # the creature in front (the next one's after a fall)
        count = view.group.standing
        return t(
            "combat.secret_group", locale, name=view.name, count=count, left=left, maximum=maximum
        )
    state = state_name(view.system, view.label or view.state, locale, view.gender)
    return t("combat.secret_line", locale, name=view.name, state=state, left=left, maximum=maximum)
