"""Reply of ``/init surprise`` (rolweb): the ambush's roll and what it does to round 1.

A hidden NPC's Discreto or Atento is part of the test, so the public reply then shows only
the die and the outcome; :func:`gm_details` has the numbers for the GM alone.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.services.play.surprise import SurpriseView
from bot.services.shared.audience import Part, Shown
from cogs.ui.render import COLOUR, truncate

__all__ = ["gm_details", "surprise"]


def _side(side: str, locale: str) -> str:
    return t(f"rolweb_fight.side.{side}", locale)


def surprise(shown: Shown[SurpriseView], locale: str) -> dict[str, Any]:
    """The ambush as its reader may see it: the values and target only where a hidden NPC's
    secrecy does not seal them."""
    view = shown.value
    secret = not shown.sight.shows(Part.DIFFICULTY)
    test = (
        "rolweb_fight.surprise.test_defence"
        if view.ambushers == "enemigos"
        else ("rolweb_fight.surprise.test")
    )
    lines = [t("rolweb_fight.surprise.title", locale, side=_side(view.ambushers, locale))]
    if secret:
        lines.append(t("rolweb_fight.surprise.roll_hidden", locale, roll=view.roll))
    else:
        lines.append(
            t(test, locale, discreto=view.discreto, atento=view.atento, target=view.target)
        )
        lines.append(f"`{view.breakdown}`")
    if not view.surprised:
        lines.append(t("rolweb_fight.surprise.failed", locale))
    else:
        lines.append(
            t(
                "rolweb_fight.surprise.success",
                locale,
                attackers=", ".join(view.attackers),
                victims=", ".join(view.victims),
            )
        )
        for name, weapon, cost in view.draws:
            if cost is None:
                lines.append(t("rolweb_fight.surprise.draw_unknown", locale, name=name))
            else:
                lines.append(
                    t(
                        f"rolweb_fight.surprise.draw_{cost}",
                        locale,
                        name=name,
                        weapon=weapon or "?",
                    )
                )
        lines.append(t("rolweb_fight.surprise.how", locale))
    colour = COLOUR["success"] if view.surprised else COLOUR["failure"]
    return {"embed": discord.Embed(description=truncate("\n".join(lines), 4000), colour=colour)}


def gm_details(shown: Shown[SurpriseView], locale: str) -> str:
    """The numbers a player may not see (sent to the GM as an ephemeral follow-up)."""
    view = shown.value
    test = (
        "rolweb_fight.surprise.test_defence"
        if view.ambushers == "enemigos"
        else ("rolweb_fight.surprise.test")
    )
    return "\n".join(
        [
            t(test, locale, discreto=view.discreto, atento=view.atento, target=view.target),
            f"`{view.breakdown}`",
        ]
    )
