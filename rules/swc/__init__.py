"""Swords & Wizardry Completo (system id ``swc``, seed 000): the pure rules library.

Usable on its own, without the bot::

    >>> from rules import swc
    >>> swc.level_for_xp("guerrero", 16_000)
    5
    >>> swc.xp_for_level("mago", 5)
    20000
    >>> swc.saving_throw("paladin", 3)
    10
    >>> swc.hit_dice("guerrero", 11)          # 9 dice + 4 fixed hit points
    (9, 4)
    >>> swc.spell_slots("explorador", 10)
    {'clerigo': {1: 2, 2: 1}, 'mago': {1: 1}}
    >>> swc.to_hit_target("guerrero", 1, 5)   # d20 roll needed against AC 5 [14]
    14
    >>> swc.thief_skills("ladron", 1, raza="mediano")["ocultarse_en_las_sombras"]
    20

Public API (class ids: ``asesino clerigo druida explorador guerrero ladron mago monje
paladin``; race ids: ``humano enano elfo semielfo mediano``):

* ``level_for_xp(clase, xp) -> int`` and ``xp_for_level(clase, nivel) -> int`` (Tablas 7–19,
  with each class's "21+" rule);
* ``saving_throw(clase, nivel) -> int`` (the single save, before class/race bonuses);
* ``hit_dice(clase, nivel) -> tuple[int, int]`` (dice, fixed hit points after the cap);
* ``spell_slots(clase, nivel) -> dict[str, dict[int, int]]`` (spell list -> level -> slots);
* ``to_hit_target(clase, nivel, ca, ascendente=False) -> int`` (Tablas 29–31, engineer B's
  :mod:`rules.swc.combat`);
* ``thief_skills(clase, nivel, raza="humano") -> dict[str, int]`` (Tablas 6, 13, 14, 17).

Races, multiclassing and class change live in :mod:`rules.swc.races`,
:mod:`rules.swc.multiclass` and :mod:`rules.swc.class_change`; the game-system object the
bot uses is ``rules.swc.system.SYSTEM``.
"""

from rules.swc.advancement import hit_dice, level_for_xp, saving_throw, spell_slots, xp_for_level
from rules.swc.combat import to_hit_target
from rules.swc.thief import thief_skills

__all__ = [
    "hit_dice",
    "level_for_xp",
    "saving_throw",
    "spell_slots",
    "thief_skills",
    "to_hit_target",
    "xp_for_level",
]
