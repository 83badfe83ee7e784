"""Spell lists, spell entries, casts and rests → embeds inside Discord's limits.

Nothing here knows the system: a list line shows a difficulty when the spell has one, a cast
shows its roll when it made one, its effect dice, the target's save and the critical's
benefits when the system reported them.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import groupby
from typing import Any

import discord

from bot.i18n import t
from bot.services.play.spells import CastView, RestView, SpellListView, SpellView
from bot.services.shared.audience import Shown
from cogs.ui import render_attack
from cogs.ui.render import COLOUR, percent, truncate, turn_warnings
from rules.names import display_state
from rules.systems.base import SpellInfo, SpellPool, SpellState

__all__ = ["cast", "listing", "rest", "spell"]


def _cost(spell: SpellInfo, locale: str) -> str:
    return t("spell.cost_variable", locale) if spell.cost is None else str(spell.cost)


def _line(spell: SpellInfo, locale: str) -> str:
    if spell.difficulty is None:
        return t(
            "spell.list_line_free",
            locale,
            name=spell.name,
            cost=_cost(spell, locale),
            range=spell.range,
        )
    return t(
        "spell.list_line",
        locale,
        name=spell.name,
        difficulty=spell.difficulty,
        cost=_cost(spell, locale),
        range=spell.range,
    )


def _pools(pools: tuple[SpellPool, ...], locale: str) -> str:
    if not pools:
        return t("spell.no_pools", locale)
    return "\n".join(
        t("spell.pool_line", locale, label=p.label, left=p.left, maximum=p.maximum) for p in pools
    )


def _state_text(state: SpellState, locale: str) -> str:
    text = _pools(state.pools, locale)
    if state.known:
        spells = ", ".join(f"{name} {level}" for name, level in state.known.items())
        text += "\n" + t("spell.known", locale, spells=truncate(spells, 600))
    return truncate(text, 1024)


def listing(view: SpellListView, locale: str) -> dict[str, Any]:
    """One page: spells grouped by difficulty band, then the caster's pools."""
    embed = discord.Embed(
        title=truncate(t("spell.list_title", locale, system=view.system_name), 256),
        colour=COLOUR[None],
    )
    parts = []
    if view.notice:
        parts.append(t(view.notice, locale))
    for (difficulty, level), group in groupby(view.spells, key=lambda s: (s.difficulty, s.level)):
        heading = (
            t("spell.band_other", locale)
            if difficulty is None
            else t("spell.band", locale, difficulty=difficulty, level=level)
        )
        parts.append(f"__{heading}__\n" + "\n".join(_line(s, locale) for s in group))
    if not view.spells and not view.notice:
        parts.append(t("spell.list_empty", locale))
    embed.description = truncate("\n\n".join(parts), 4000)
    if view.state is not None and view.character_name:
        embed.add_field(
            name=truncate(t("spell.pools_title", locale, name=view.character_name), 256),
            value=_state_text(view.state, locale),
            inline=False,
        )
    if view.spells:
        embed.set_footer(
            text=t(
                "spell.list_footer",
                locale,
                page=view.page,
                pages=view.pages,
                matches=view.matches,
                count=view.matches,  # «1 conjuro» (spell.list_footer_one)
            )
        )
    return {"embed": embed, "ephemeral": True}


def spell(view: SpellView, locale: str) -> dict[str, Any]:
    """The full entry of one spell."""
    entry = view.spell
    embed = discord.Embed(
        title=truncate(entry.name, 256),
        description=truncate(entry.description, 4000),
        colour=COLOUR[None],
    )
    if entry.difficulty is not None:
        embed.add_field(name=t("spell.show_difficulty", locale), value=str(entry.difficulty))
        embed.add_field(name=t("spell.show_level", locale), value=str(entry.level))
    embed.add_field(name=t("spell.show_cost", locale), value=_cost(entry, locale))
    embed.add_field(name=t("spell.show_range", locale), value=truncate(entry.range, 1024))
    if entry.duration:
        embed.add_field(name=t("spell.show_duration", locale), value=truncate(entry.duration, 1024))
    if entry.critical:
        benefits = "\n".join(f"• {t(f'spell.critical.{b}', locale)}" for b in entry.critical)
        embed.add_field(name=t("spell.cast_critical", locale), value=benefits, inline=False)
    if entry.melee_attack:
        embed.add_field(
            name=t("spell.show_touch", locale), value=t("spell.show_touch_line", locale)
        )
    if view.known_level is not None:
        embed.add_field(name=t("spell.show_known", locale), value=str(view.known_level))
    return {"embed": embed, "ephemeral": True}


def _effect(view: CastView, locale: str) -> str | None:
    effect = view.result.effect
    if effect is None:
        return None
    key = "spell.effect.damage_ignores_armour" if effect.ignores_armour else None
    return t(
        key or f"spell.effect.{effect.kind}",
        locale,
        unit=_unit(view, locale),
        total=effect.total,
        expression=effect.expression,
        breakdown=truncate(effect.breakdown, 400),
    )


def cast(view: CastView, locale: str) -> dict[str, Any]:
    """The roll (if any), what it spent and left, the effect, the save and the critical; a
    touch spell's melee attack first (as ``/attack`` shows it: a hidden NPC's numbers left
    out), alone when it missed (nothing was cast)."""
    if view.touch is not None and not view.touch.result.hit:
        message = render_attack.attack(view.touch, locale)
        message["content"] = t(
            "touch.missed", locale, target=view.target or "", spell=view.result.label
        )
        return message
    embed = _cast_embed(view, locale)
    warned = {"content": turn_warnings(view.turn_warnings, locale)} if view.turn_warnings else {}
    if view.touch is not None:
        return {
            "embeds": [render_attack.attack(view.touch, locale)["embed"], embed],
            "allowed_mentions": discord.AllowedMentions.none(),
            **warned,
        }
    return {"embed": embed, **warned}


def touch_gm_copy(view: CastView, locale: str, channel_mention: str) -> dict[str, Any]:
    """The GM channel's copy of a touch spell's attack, with every number."""
    assert view.touch is not None
    return {"embed": render_attack.attack_gm_copy(view.touch, locale, channel_mention)["embed"]}


def _cast_roll(view: CastView, locale: str) -> discord.Embed:
    """The cast's roll (or that it rolls none), its verdict against the target and its
    chance, coloured by the outcome."""
    result = view.result
    check = result.check
    who = t("roll.who_as_character", locale, user=view.user_name, character=view.character_name)
    title = t("spell.cast_title", locale, who=who, label=result.label)
    outcome = str(check.outcome) if check and check.outcome else None
    lines = []
    if check is not None:
        lines += [
            f"`{truncate(check.expression, 200)}`",
            truncate(check.breakdown, 1500),
            t("roll.total", locale, total=check.total),
        ]
    else:
        lines.append(t("spell.cast_no_roll", locale))
    embed = discord.Embed(
        title=truncate(title, 256),
        description="\n".join(lines),
        colour=COLOUR.get(outcome, COLOUR[None]),
    )
    if check is not None and outcome:
        verdict = t(f"check.outcome.{outcome}", locale)
        if check.target is not None:
            verdict = t("check.against", locale, verdict=verdict, target=check.target)
        embed.add_field(name=t("roll.result", locale), value=verdict, inline=True)
        if check.probability is not None:
            embed.add_field(
                name=t("check.chance", locale),
                value=percent(Fraction(*check.probability), locale),
                inline=True,
            )
    return embed


def _cast_embed(view: CastView, locale: str) -> discord.Embed:
    result = view.result
    embed = _cast_roll(view, locale)
    if result.pool is not None:
        spent = t(
            "spell.cast_spent_line",
            locale,
            spent=result.spent,
            pool=result.pool.label,
            left=result.pool.left,
            maximum=result.pool.maximum,
        )
        embed.add_field(name=t("spell.cast_spent", locale), value=spent, inline=False)
    if view.target:
        embed.add_field(name=t("spell.cast_target", locale), value=truncate(view.target, 1024))
    effect = _effect(view, locale)
    if effect:
        embed.add_field(name=t("spell.cast_effect", locale), value=effect, inline=False)
    landed = _landed(view, locale)
    if landed:
        embed.add_field(name=t("spell.cast_landed", locale), value=landed, inline=False)
    if result.save is not None:
        attribute, difficulty = result.save
        embed.add_field(
            name=t("spell.cast_save", locale),
            value=t("spell.cast_save_line", locale, attribute=attribute, difficulty=difficulty),
            inline=False,
        )
    if result.critical_benefits:
        benefits = "\n".join(
            f"• {t(f'spell.critical.{b}', locale)}" for b in result.critical_benefits
        )
        embed.add_field(name=t("spell.cast_critical", locale), value=benefits, inline=False)
    if result.notes:
        embed.add_field(
            name=t("check.circumstances", locale),
            value=truncate(
                "\n".join(
                    f"• {t(note, locale, genero=view.caster_gender)}" for note in result.notes
                ),
                1024,
            ),
            inline=False,
        )
    footer = [t("roll.log_ref", locale, id=view.log_id)]
    if view.private:
        footer.append(t("roll.private_footer", locale))
    embed.set_footer(text=" · ".join(footer))
    return embed


def _landed(view: CastView, locale: str) -> str:
    """What the cast left on its caster and did to its target: the timed effect with its
    rounds, the damage or heal with the new state (a hidden NPC's: described, no numbers),
    and a touch spell's damage held until its melee attack."""
    lines = []
    subjects = [(view.character_name, view.own, False, view.caster_gender)]
    # Cast on oneself, what it did to the caster is what it did to the target: said once
    # (issue 23 §6: «Kára recupera 12 PV (estado: normal).» came twice).
    if view.landed is None or view.landed is not view.own:
        subjects.append((view.target or "", view.landed, view.target_secret, view.target_gender))
    for who, landed, secret, gender in subjects:
        if landed is None:
            continue
        if landed.effect is not None:
            rounds = landed.effect.rounds
            length = (
                t("effects.until_removed", locale)
                if rounds is None
                else t("effects.rounds_left", locale, count=rounds)
            )
            lines.append(
                t("effects.added", locale, name=who, effect=landed.effect.name, rounds=length)
            )
        health = landed.health
        state = display_state(view.system or None, health.state, locale, gender) if health else ""
        if health is not None and view.touch is not None and landed is view.own:
            lines.append(  # Toque vampírico: the drained points the caster received
                t("touch.drained", locale, name=who, amount=health.amount, state=state)
            )
        elif health is not None:
            if secret:  # a hidden NPC: after absorption the amount would tell its armour
                lines.append(t("spell.landed_state", locale, name=who, state=state))
            else:
                key = "spell.landed_heal" if _healed(view) else "spell.landed_damage"
                amount, unit = health.amount, _unit(view, locale)
                lines.append(t(key, locale, name=who, amount=amount, unit=unit, state=state))
        if landed.held:
            lines.append(t("spell.landed_held", locale, name=who))
    return truncate("\n".join(lines), 1024)


def _unit(view: CastView, locale: str) -> str:
    """What the system heals («puntos de golpe» in S&W, «PV» in Núcleo): a healing spell's
    lines say it in the system's own words, not one system's abbreviation for all."""
    return t(f"{view.system}.health_unit" if view.system else "spell.health_unit", locale)


def _healed(view: CastView) -> bool:
    effect = view.result.effect
    return effect is not None and effect.kind == "healing"


def rest(shown: Shown[RestView], locale: str) -> dict[str, Any]:
    """Each pool before → after (to its reader: a hidden NPC's rest, to the GM alone)."""
    view = shown.value
    before = {p.key: p.left for p in view.result.before}
    lines = [
        t(
            "spell.rest_line",
            locale,
            label=p.label,
            before=before.get(p.key, 0),
            after=p.left,
            maximum=p.maximum,
        )
        for p in view.result.after
    ]
    embed = discord.Embed(
        title=truncate(t("spell.rest_title", locale, name=view.character_name), 256),
        description=truncate("\n".join(lines) or t("spell.rest_nothing", locale), 4000),
        colour=COLOUR["success"],
    )
    return {"embed": embed}
