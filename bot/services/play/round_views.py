"""What a round of declarations shows (issue 25 §1): the header that opens a round and the
summary that closes it.  Built by :mod:`.rounds`; rendered by ``cogs/ui/render_rounds.py``.

The summary carries the resolved attacks' own views (:class:`.attack_record.AttackView`),
which already know what a player may read of a hidden NPC: the renderer shows their public
numbers only, as the reply of a live ``/attack`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.services.play.abilities import AbilityUseView
from bot.services.play.attack_record import AttackView
from bot.services.play.checks import CheckView
from bot.services.play.pain import PainAsk, PainView, StandView
from bot.services.play.spells import CastView

__all__ = ["ActionLine", "Owed", "RoundHeader", "RoundSummary"]


@dataclass(frozen=True, slots=True)
class Owed:
    """A combatant who must declare, and whose word it is: its player's id, or None for
    the GM (an NPC, a group)."""

    name: str
    user_id: int | None


@dataclass(frozen=True, slots=True)
class RoundHeader:
    """A round opened: its number, who must declare and until when (``deadline``, UTC; the
    renderer shows it in each reader's zone), and the GM to mention for the NPCs."""

    fight_id: int
    channel_id: int
    round: int
    owed: tuple[Owed, ...]
    deadline: datetime | None
    gm_user_id: int | None = None


@dataclass(frozen=True, slots=True)
class ActionLine:
    """One line of the round's resolution, in initiative order.

    ``kind``: ``attack`` (``attack`` is its view), ``hold`` (declared nothing: the GM's
    default, waiting), ``target_fell`` (its target was out of the fight before it acted:
    ``target`` names it), ``refused`` (the rules refused it then: ``problem`` and
    ``params``), ``test`` (its turn owed a test, rolweb's death test: the bot rolled it,
    ``check``), ``pain`` (a pain threshold's choice, rolweb: ``pain``), ``stand`` (getting
    up, rolweb: ``stand``).
    """

    name: str
    kind: str
    attack: AttackView | None = None
    target: str = ""
    problem: str = ""
    params: tuple[tuple[str, str], ...] = ()
    #: rolweb: the defending player never rolled the defence asked of them: the bot did
    defence_by_bot: bool = False
    #: ``test``: the turn's owed test the bot rolled (rolweb's death test)
    check: CheckView | None = None
    #: ``target_fell``: the declaration's number, for the GM's redirect button
    ref: int = 0
    #: ``cast``: the declared spell, cast at resolution (its view)
    cast: CastView | None = None
    #: ``ability``: the declared ability, used at resolution (its view)
    ability: AbilityUseView | None = None
    #: a standing order (``accion_por_defecto`` = ``repetir``): it declared nothing and
    #: repeated its last round's act, with new dice
    repeated: bool = False
    #: ``pain``: a pain threshold's choice made during the resolution (rolweb): an NPC's,
    #: or a player's at the pause's deadline, by the campaign's default; or the player's own
    pain: PainView | None = None
    #: ``stand``: getting up, declared and rolled in its turn (rolweb)
    stand: StandView | None = None


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A round resolved: what each combatant did, in order; the next round's header (None
    when the fight is over or no longer by declarations); ``at_deadline``: closed by its
    deadline rather than by the last declaration or the GM."""

    fight_id: int
    channel_id: int
    round: int
    lines: tuple[ActionLine, ...]
    next: RoundHeader | None
    at_deadline: bool = False
    locale: str | None = None
    nonce: str = ""
    #: rolweb: the resolution paused here for a player's pain threshold choice (its prompt,
    #: with the buttons); it goes on when they choose, or at ``waiting_until`` by default
    waiting: PainAsk | None = None
    waiting_until: datetime | None = None
    #: this summary goes on from a pause (its lines are those after it)
    resumed: bool = False
