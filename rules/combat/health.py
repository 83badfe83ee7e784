"""A combatant's health as the tracker and the action commands need it (issue 11 §2).

Every system reads its own sheet into a :class:`CombatState`: a common :class:`Condition`
(so the tracker never branches on the system), the system's own word for it (``state``,
``label``: Núcleo «malherido», rolweb «moribundo», S&W «incapacitado»), whether the turn
order skips it, which test its turn asks for instead (rolweb's ``muerte``), what it may still
do, and a description a player may read about a hidden NPC (no numbers).  The numbers
(``hit_points``) are kept apart for the bot to withhold.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules.systems.base import Problem, RulesError

__all__ = ["Act", "CombatState", "Condition", "require"]


class Condition(enum.StrEnum):
    """The common ladder every system's states map onto."""

    OK = "ok"
    WOUNDED = "wounded"
    UNCONSCIOUS = "unconscious"
    DYING = "dying"
    DEAD = "dead"
    OUT = "out"  # left the fight (fled, captured): skipped like the dead


class Act(enum.StrEnum):
    """What acting *with* a character means (``/check``, ``/attack``, ``/spell cast``)."""

    CHECK = "check"
    ATTACK = "attack"
    CAST = "cast"


ALL_ACTS = frozenset(Act)


@dataclass(frozen=True, slots=True)
class CombatState:
    """One combatant's health now.

    ``state`` is the system's life state id; ``label`` the id the tracker shows (rolweb's
    «ileso»/«herido» split its ``activo``) — both ids of the system's ``estado`` names
    table, never words: :func:`rules.names.display_state` names them in the reader's
    language, agreeing with the character («malherida»), lowercase as Spanish writes a
    state mid-sentence.  ``skip_turn``: the order passes over it (dead, out, unconscious); ``turn_test``: the
    check option its turn asks for instead of an ordinary turn (rolweb ``"muerte"``);
    ``allowed``: the acts it may still do; ``reason``: the catalogue key explaining a
    refusal; ``description``: what a player may read about a hidden NPC (an id as well, or
    the campaign's own words: S&W's ``descripcion_pg``); ``hit_points``:
    ``(left, maximum)`` — secret for a hidden NPC; ``prone`` and ``choice_owed`` below.
    """

    condition: Condition
    state: str
    label: str
    skip_turn: bool = False
    turn_test: str | None = None
    allowed: frozenset[Act] = ALL_ACTS
    reason: str | None = None
    description: str = ""
    hit_points: tuple[int, int] | None = None
    #: «en el suelo» (rolweb, seed 001 LEVANTARSE): shown on the panel, costs getting up
    prone: bool = False
    #: a choice the rules owe its player (rolweb's pain threshold): applied by default when
    #: its turn begins unchosen
    choice_owed: bool = False

    @property
    def removed(self) -> bool:
        """Dead or out: the turn order reports it once and never gives it a turn again."""
        return self.condition in (Condition.DEAD, Condition.OUT)


def require(
    state: CombatState,
    act: Act,
    name: str = "",
    option: str | None = None,
    *,
    system: str = "",
    gender: str | None = None,
) -> None:
    """Refuse ``act`` for a combatant that cannot do it, saying why (translated key).

    The check its turn asks for (``option == state.turn_test``: rolweb's death test) is
    always allowed — it is the one thing a moribundo does.  ``system`` and ``gender`` go
    with the problem so that the state is named in the system's words, agreeing with the
    character («Aldara está inconsciente»)."""
    if act in state.allowed or (act is Act.CHECK and option and option == state.turn_test):
        return
    params: dict[str, object] = {"name": name, "state": state.label, "act": act.value}
    if system:
        params["system"] = system
    if gender:
        params["genero"] = gender
    raise RulesError(Problem(state.reason or "combat.problem.cannot_act", "", params))
