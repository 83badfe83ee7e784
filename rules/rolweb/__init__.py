"""Partida Rol por web (``rolweb``, seed 001): a Symbaroum-style d20 roll-under system.

Usable on its own::

    >>> from rules import rolweb
    >>> rolweb.toughness(8), rolweb.pain_threshold(13), rolweb.opposed_modifier(13)
    (10, 7, -3)

The game-system object is :data:`rules.rolweb.system.SYSTEM` (``rules.systems.get("rolweb")``).
"""

from rules.rolweb.checks import opposed_modifier
from rules.rolweb.damage import pain_threshold, toughness

__all__ = ["toughness", "pain_threshold", "opposed_modifier"]
