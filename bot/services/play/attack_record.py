"""What an attack leaves behind: its audit-log row and the view the cog renders.

Every attack use case (``/attack``, a defence answered, a touch spell, a pending defence
request) builds both here, so the record of an attack and what a player sees of it are
decided once: the numbers a player must not see about a hidden NPC
(:data:`~rules.combat.attack.SECRET_FIELDS` and its hit points) stay in ``detail.secret``
and are marked ``secret`` in the view; the cog withholds them and sends them to the GM.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.db.models import saved_id
from bot.services.campaigns.context import CampaignContext
from bot.services.play.attack_order import AttackOrder
from bot.services.play.attack_sides import Side, Sides
from bot.services.play.pain_ask import PainAsk
from bot.services.shared.audience import PUBLIC, Part, Secrecy
from bot.services.shared.audit import AuditEntry
from bot.services.shared.context import Actor
from rules.combat.attack import SECRET_FIELDS, AttackResult
from rules.combat.groups import GroupChange
from rules.systems.base import Problem

if TYPE_CHECKING:
    from bot.services.play.round_views import RoundSummary

__all__ = [
    "AttackView",
    "Declared",
    "Landed",
    "attack_audit",
    "attack_secrecy",
    "attack_view",
    "named_audit",
]


@dataclass(frozen=True, slots=True)
class Declared:
    """An attack declared for a round of declarations (issue 25 §1, :mod:`.declarations`):
    its round and slot, whether it changed an earlier one (its dice stay), the round's
    deadline (ISO 8601), whether everyone has now declared, and the player whose defence
    it asks for."""

    round: int
    slot: int
    changed: bool
    deadline: str | None
    complete: bool = False
    #: rolweb: the player asked to roll the defence against it (the button's fight and
    #: declaration number), None when nobody is
    defender_id: int | None = None
    fight_id: int = 0
    ref: int = 0
    seed: int = 0  # the declaration's dice (a preview computed after declaring rolls them)


@dataclass(frozen=True, slots=True)
class AttackView:
    """A resolved attack for the cog.

    ``secret``: the target is a hidden NPC and the campaign does not show numbers, so the
    public reply must leave out :data:`SECRET_FIELDS`, ``hit_points`` and the target's
    defence; ``description`` is the state in the system's own words, safe for players.
    ``log_id`` is the audit row (an undo button may be added to the reply by it).
    """

    log_id: int
    user_name: str
    attacker: str
    target: str
    result: AttackResult
    state: str | None
    description: str
    hit_points: tuple[int, int] | None
    notes: tuple[str, ...]
    secret: bool
    private: bool
    gm_channel_id: int | None
    target_sheetless: bool = False
    #: a pending defence request (the button's version) and the defender's player
    defence_version: int | None = None
    defender_id: int | None = None
    #: Which side's numbers are withheld (``secret`` is either): a hidden attacker's bonuses
    #: and the target number its stats give; a hidden target's AC/Defensa and hit points.
    attacker_hidden: bool = False
    target_hidden: bool = False
    #: whose ids ``state`` is, and the grammatical genders the notes agree with: the
    #: attacker's for the notes of its roll (``result.notes``: «Malherido: guarda el dado
    #: menor» is about the one rolling), the target's for the state and the damage's notes
    system: str = ""
    target_gender: str | None = None
    attacker_gender: str | None = None
    #: the turn's warnings (``acciones_por_turno`` = ``advertir``: out of turn, no action left)
    turn_warnings: tuple[Problem, ...] = ()
    #: a declaration of a round of declarations: sealed (its player and the GM), not applied
    declared: Declared | None = None
    #: the round this declaration completed, resolved (its summary, public numbers only)
    summary: RoundSummary | None = None
    #: a sheetless group's wound: its creature in front, whether one fell, how many stand
    group: GroupChange | None = None
    #: the pain threshold's choice this hit left owed (its buttons go with the reply)
    pain: PainAsk | None = None


@dataclass(frozen=True, slots=True)
class Landed:
    """What the write left: its audit row, the target's state after it (in the system's
    words, with its hit points; a sheetless group's word and its creature in front, with
    ``group`` saying whether one fell), and the notes of the result and of the damage."""

    log_id: int | None
    state: str | None = None
    description: str = ""
    hit_points: tuple[int, int] | None = None
    notes: tuple[str, ...] = ()
    group: GroupChange | None = None
    #: the pain threshold's choice the wound left owed, to ask for (:mod:`.pain`)
    pain: PainAsk | None = None


def attack_view(
    actor: Actor,
    context: CampaignContext,
    sides: Sides,
    result: AttackResult,
    landed: Landed,
    *,
    private: bool,
    defence_version: int | None = None,
) -> AttackView:
    """The one view of an attack (see the module docstring); ``defence_version``: a pending
    defence request, whose button the defender's player presses."""
    attacker_hidden, target_hidden = sides.hidden(context.settings)
    target = sides.target
    return AttackView(
        log_id=landed.log_id or 0,
        user_name=actor.name,
        attacker=sides.attacker.fighter.name,
        target=target.fighter.name,
        result=result,
        state=landed.state,
        description=landed.description,
        hit_points=landed.hit_points,
        notes=landed.notes,
        secret=attacker_hidden or target_hidden,
        private=private,
        gm_channel_id=context.campaign.gm_channel_id,
        target_sheetless=target.character is None,
        defence_version=defence_version,
        defender_id=(
            target.character.owner_user_id
            if defence_version is not None and target.character is not None
            else None
        ),
        attacker_hidden=attacker_hidden,
        target_hidden=target_hidden,
        system=context.system.id,
        target_gender=target.gender,
        group=landed.group,
        attacker_gender=sides.attacker.gender,
        pain=landed.pain,
    )


def _secrets(result: AttackResult) -> dict[str, Any]:
    return {name: getattr(result, name) for name in SECRET_FIELDS}


def attack_audit(
    order: AttackOrder,
    sides: Sides,
    result: AttackResult,
    secret: bool,
    gm_note: bool = False,
) -> AuditEntry:
    """The whole breakdown; a hidden NPC's numbers stay in ``detail.secret`` (the roll
    history a player reads shows the roll and the outcome, never the target number).
    ``gm_note``: a secret attack in a campaign without a GM channel, handed to the GM by
    :mod:`.attack_notes`."""
    names = (sides.attacker.fighter.name, sides.target.fighter.name)
    secrecy = attack_secrecy(secret, sides.attacker, sides.target)
    return named_audit(
        names, result, secret, private=order.private, gm_note=gm_note, secrecy=secrecy
    )


def named_audit(
    names: tuple[str, str],
    result: AttackResult,
    secret: bool,
    *,
    private: bool,
    gm_note: bool = False,
    secrecy: Secrecy = PUBLIC,
) -> AuditEntry:
    """:func:`attack_audit` of the attacker and target ``names`` (``secrecy``: who may see
    its numbers, :func:`attack_secrecy`)."""
    rolls = ([result.attack] if result.attack else []) + list(result.damage_rolls)
    full = "; ".join(f"{r.label}: {r.breakdown}" for r in rolls)
    breakdown = full
    if secret and result.attack is not None:  # a roll-under line names the target number
        shown = [f"{result.attack.label}: {result.total}"]
        breakdown = "; ".join(shown + [f"{r.label}: {r.breakdown}" for r in result.damage_rolls])
    attacker, target = names
    change = result.change
    return AuditEntry(
        kind="attack",
        expression=result.attack.expression if result.attack else "",
        breakdown=breakdown,
        total=result.total or 0,
        reason=f"{result.weapon} → {target}",
        detail={
            "attacker": attacker,
            "target": target,
            "weapon": result.weapon,
            "damage": result.damage,
            "critical": result.critical,
            "change": {"kind": change.kind, "amount": change.amount} if change else None,
            "modifiers": [[name, value] for name, value in result.modifiers],
            "notes": list(result.notes),
            "secret": {**_secrets(result), "breakdown": full} if secret else _secrets(result),
            "gm_note": gm_note,
        },
        difficulty=None if secret else result.target_number,
        outcome=result.outcome.value,
        fumble=result.fumble,
        private=private,
        character=attacker,
        secrecy=secrecy,
    )


def attack_secrecy(secret: bool, attacker: Side, target: Side) -> Secrecy:
    """Who may see an attack's numbers (issue 22 §1): a secret attack seals the GM's numbers
    it keeps (``detail.secret``, the target number) — until the hidden NPC on either side
    is revealed, or for good when they are a group's numbers the GM typed."""
    if not secret:
        return PUBLIC
    sealed = (Part.DETAIL, Part.DIFFICULTY)
    secrecy = PUBLIC
    for side in (attacker, target):
        character = side.character
        if character is not None and character.is_npc and character.hidden:
            secrecy = secrecy.hiding_npc(saved_id(character), sealed)
    return secrecy if secrecy.npc_id is not None else secrecy.sealing(*sealed)
