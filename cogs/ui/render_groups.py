"""A sheetless group's wound in words: «Trasgo: cae 1 (queda 1 en pie)» for everyone, the
hit points of the creature in front for the GM alone (``numbers``).

Used by every reply that wounds a group: ``/attack`` (and its GM copy), ``/init
damage|heal`` and a round of declarations' summary.
"""

from __future__ import annotations

from bot.i18n import t
from rules.combat.groups import GroupChange

__all__ = ["group_lines"]


def group_lines(group: GroupChange, locale: str, *, numbers: bool) -> list[str]:
    """Who fell (no numbers: the count is on the panel) and, with ``numbers``, what the
    creature in front has left («Le quedan 4/12», or the next one's after a fall)."""
    lines: list[str] = []
    if group.fell and group.out:
        key = "attack.group_out_alone" if group.alone else "attack.group_out"
        lines.append(t(key, locale, name=group.name))
    elif group.fell:
        lines.append(t("attack.group_fell", locale, name=group.name, count=group.standing))
    if numbers and group.hit_points is not None:
        left, maximum = group.hit_points
        key = "attack.group_next" if group.fell else "attack.hit_points_left"
        lines.append(t(key, locale, left=left, maximum=maximum))
    return lines
