"""Who takes part in a fight: a character (PC or NPC sheet) by id, or an ad-hoc group.

A character combatant never copies hit points: its sheet stays the one source of truth and
the combat only remembers *which* sheet it is.  An ad-hoc combatant ("3 trasgos") is a name
and an initiative the referee typed; it has no sheet, so its hit points (when the GM gave
them) are kept here, per creature (:mod:`rules.combat.groups`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["Kind", "Side", "Combatant"]


class Kind(enum.StrEnum):
    CHARACTER = "character"
    ADHOC = "adhoc"


class Side(enum.StrEnum):
    """The two sides S&W rolls for (seed 000: «Cada bando tira un d6»)."""

    JUGADORES = "jugadores"
    ENEMIGOS = "enemigos"


@dataclass(frozen=True, slots=True)
class Combatant:
    """One place in the order.

    ``key`` is stable inside the fight (``"c12"`` for character 12, ``"a3"`` for the third
    ad-hoc group); ``owner_id`` is the member who plays it (None for the referee's);
    ``initiative`` is None until rolled or typed; ``sort_key`` orders (higher acts first)
    and carries the system's tie-break; ``actions`` per turn (Núcleo 20+ → 2);
    ``waited_after`` names the combatant it chose to follow (rolweb, final once chosen).
    """

    key: str
    name: str
    kind: Kind
    side: Side
    character_id: int | None = None
    owner_id: int | None = None
    count: int = 1
    initiative: int | None = None
    sort_key: tuple[int, ...] = ()
    breakdown: str = ""
    actions: int = 1
    skips_first_round: bool = False
    goes_last: bool = False
    waited_after: str | None = None
    # What the GM said about a sheetless combatant (``/init add``), so ``/attack`` can judge
    # and wound it: AC/Defensa, armour (rolweb dice, Núcleo absorption), hit points left/max.
    defence: int | None = None
    armour: str | None = None
    hit_points: int | None = None
    max_hit_points: int | None = None
    # a group's creatures that fell (``count`` is those still standing; rules.combat.groups)
    fallen: int = 0

    @property
    def rolled(self) -> bool:
        return self.initiative is not None

    def with_initiative(
        self,
        total: int,
        sort_key: tuple[int, ...],
        breakdown: str,
        *,
        actions: int = 1,
        skips_first_round: bool = False,
        goes_last: bool = False,
    ) -> Combatant:
        return replace(
            self,
            initiative=total,
            sort_key=tuple(sort_key),
            breakdown=breakdown,
            actions=max(1, actions),
            skips_first_round=skips_first_round,
            goes_last=goes_last,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "kind": self.kind.value,
            "side": self.side.value,
            "character_id": self.character_id,
            "owner_id": self.owner_id,
            "count": self.count,
            "initiative": self.initiative,
            "sort_key": list(self.sort_key),
            "breakdown": self.breakdown,
            "actions": self.actions,
            "skips_first_round": self.skips_first_round,
            "goes_last": self.goes_last,
            "waited_after": self.waited_after,
            **{
                name: getattr(self, name) for name in STAT_FIELDS if getattr(self, name) is not None
            },
            **({"fallen": self.fallen} if self.fallen else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        return cls(
            key=str(data["key"]),
            name=str(data["name"]),
            kind=Kind(data["kind"]),
            side=Side(data["side"]),
            character_id=data.get("character_id"),
            owner_id=data.get("owner_id"),
            count=int(data.get("count", 1)),
            initiative=data.get("initiative"),
            sort_key=tuple(int(v) for v in data.get("sort_key") or ()),
            breakdown=str(data.get("breakdown", "")),
            actions=int(data.get("actions", 1)),
            skips_first_round=bool(data.get("skips_first_round", False)),
            goes_last=bool(data.get("goes_last", False)),
            waited_after=data.get("waited_after"),
            defence=_int_or_none(data.get("defence")),
            armour=str(data["armour"]) if data.get("armour") is not None else None,
            hit_points=_int_or_none(data.get("hit_points")),
            max_hit_points=_int_or_none(data.get("max_hit_points")),
            fallen=int(data.get("fallen") or 0),
        )


#: The sheetless combatant's numbers, stored only when the GM gave them.
STAT_FIELDS = ("defence", "armour", "hit_points", "max_hit_points")


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)
