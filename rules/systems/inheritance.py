"""A dead character's experience passed to its player's next character.

Seed 001 (rolweb), MUERTE DE UN PERSONAJE JUGADOR: «el jugador puede crear un nuevo
personaje empleando todos los puntos de experiencia acumulados hasta el momento. Así se evita
que el nuevo personaje empiece con desventaja respecto del resto del grupo».  A system that
has such a rule implements :class:`XpInheritance`; the creation wizard offers it.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from rules.systems.base import Settings, Sheet

__all__ = ["XpInheritance"]


@runtime_checkable
class XpInheritance(Protocol):
    def inherited_xp(self, previous: Sheet, settings: Settings) -> int | None:
        """The experience a new character takes over from ``previous`` (its player's last
        character), or None when ``previous`` passes nothing on (it is not dead)."""
        ...

    def inherit_xp(self, draft: Sheet, xp: int, settings: Settings) -> Sheet:
        """A new draft (not mutated) that starts with ``xp`` experience to spend."""
        ...
