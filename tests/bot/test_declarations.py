"""Rounds of declarations through the services, on SQLite and PostgreSQL (issue 25 §1).

Ana plays Ardelia (rolweb), the GM's hidden Orco and a sheetless Lobo (1 Resistencia) are
in a fight by declarations.  A declaration fixes its dice (a change keeps them) and seals
its outcome (a private row its player and the GM read); two declarations at once both land;
the round resolves once, in initiative order, through the live attack use case (the wolf's
one point spent before its turn: it does not bite, and an attack on it is reported); the
deadline resolves a round too, and the next one opens with its timer.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlmodel import col, select

from bot.db.models import CombatRecord, RollLog, Timer
from bot.services.campaigns.service import SettingsChange
from bot.services.play.attacks import AttackOrder
from bot.services.play.combat_store import write_fight_state
from bot.services.play.rounds import ROUND_TIMER
from bot.services.play.spells import CastOrder
from bot.services.shared.context import Actor
from bot.services.shared.errors import DomainError
from bot.services.shared.timers import Due
from rules.combat.declarations import round_of
from tests.bot.test_attacks import ANA, GM, HERE, _campaign
from tests.rules.rolweb.test_fight import ardelia as rolweb_pc
from tests.rules.rolweb.test_fight import orc as rolweb_orc

BRUNO = Actor(4, "Bruno")


@pytest.fixture
async def fight(services):
    """Ardelia (initiative 20), Orco (10, hidden), Lobo (1, a group of 1 Resistencia)."""
    await _campaign(services, "rolweb")
    pc = rolweb_pc()
    pc["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    npc = rolweb_orc()
    npc["atributos"] |= {"Astuto": 5}
    await services.characters.create(HERE, ANA, pc)
    await services.characters.create(HERE, GM, npc, is_npc=True, hidden=True)
    view = await services.combat.start(HERE, GM, "declarations")
    assert view.mode == "declarations"
    await services.combat.join(HERE, ANA, "Ardelia")
    await services.combat.add(HERE, GM, "Orco", initiative=10)
    await services.combat.add(HERE, GM, "Lobo", initiative=1, defence=1, hit_points=1)
    await services.combat.move(HERE, GM, "Ardelia", 20)
    return services


async def _state(services):
    async with services.sessions() as session:
        record = (await session.exec(select(CombatRecord))).one()
    return record


async def test_the_round_opens_with_its_header_and_timer(fight):
    view = await fight.rounds.next(HERE, GM)
    header = view.header
    assert header is not None and header.round == 1
    assert [(o.name, o.user_id) for o in header.owed] == [
        ("Ardelia", ANA.user_id), ("Orco", None), ("Lobo", None)
    ]  # fmt: skip
    assert header.deadline is not None
    async with fight.sessions() as session:
        timer = (await session.exec(select(Timer).where(Timer.kind == ROUND_TIMER))).one()
    assert timer.ref == str(view.id)
    with pytest.raises(DomainError):
        await fight.rounds.next(HERE, ANA)  # only the GM opens and closes rounds


async def test_an_ended_fight_owes_no_declaration(fight):
    """Was: «Combate terminado» still read «Asalto 1 por declaraciones… Faltan: Orco»."""
    assert (await fight.rounds.next(HERE, GM)).declaring is not None
    ended = await fight.combat.end(HERE, GM)
    assert ended is not None and ended.declaring is None


async def test_a_declaration_is_sealed_and_a_change_keeps_its_dice(fight):
    await fight.rounds.next(HERE, GM)
    first = await fight.attacks.attack(HERE, ANA, AttackOrder("Lobo"))
    assert first.declared is not None and (first.declared.round, first.declared.slot) == (1, 0)
    assert first.private and not first.declared.changed and first.summary is None
    seed = round_of((await _state(fight)).state).of("c1")[0].seed
    changed = await fight.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert changed.declared is not None and changed.declared.changed
    declared = round_of((await _state(fight)).state).of("c1")
    assert [(d.slot, d.target, d.seed) for d in declared] == [(0, "Orco", seed)]
    async with fight.sessions() as session:
        rows = (await session.exec(select(RollLog).where(RollLog.kind == "declaration"))).all()
    assert len(rows) == 2 and all(row.private and row.user_id == ANA.user_id for row in rows)
    # another player's history does not list them; the GM's does
    assert not (await fight.rolls.history(HERE, BRUNO)).entries
    assert len((await fight.rolls.history(HERE, GM)).entries) == 2
    # nothing is applied yet: the orc is untouched
    orc = await fight.characters.show(HERE, GM, "Orco")
    assert orc.sheet["resistencia"]["actual"] == rolweb_orc()["resistencia"]["actual"]


async def test_two_declarations_at_once_both_land(fight):
    await fight.rounds.next(HERE, GM)
    hers = fight.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    orcs = fight.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Orco"))
    await asyncio.gather(hers, orcs)
    entries = round_of((await _state(fight)).state).entries
    assert sorted(d.name for d in entries) == ["Ardelia", "Orco"]


async def test_the_round_resolves_once_in_initiative_order(fight):
    await fight.rounds.next(HERE, GM)
    await fight.attacks.attack(HERE, ANA, AttackOrder("Lobo", modifier=30))
    await fight.attacks.attack(HERE, GM, AttackOrder("Lobo", character="Orco", modifier=30))
    bite = AttackOrder("Ardelia", character="Lobo", bonus=10, damage="1d4")
    last = await fight.attacks.attack(HERE, GM, bite)
    summary = last.summary
    assert summary is not None and summary.round == 1
    assert [(line.name, line.kind) for line in summary.lines] == [
        ("Ardelia", "attack"), ("Orco", "target_fell")
    ]  # fmt: skip  # the wolf fell to Ardelia: the orc's blow is reported, the wolf never bites
    hit = summary.lines[0].attack
    assert hit is not None and hit.result.hit
    assert summary.next is not None and summary.next.round == 2
    assert [o.name for o in summary.next.owed] == ["Ardelia", "Orco"]
    # resolving it again (the deadline, the GM) finds nothing to do
    assert await fight.rounds.resolve(HERE, 1) is None
    async with fight.sessions() as session:
        attacks = (await session.exec(select(RollLog).where(RollLog.kind == "attack"))).all()
    assert len(attacks) == 1  # one blow applied, not the reported one


async def test_two_resolutions_at_once_resolve_the_round_once(fight):
    await fight.rounds.next(HERE, GM)
    await fight.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    both = await asyncio.gather(fight.rounds.resolve(HERE, 1), fight.rounds.resolve(HERE, 1))
    done = [s for s in both if s is not None]
    assert len(done) == 1 and [line.kind for line in done[0].lines][:1] == ["attack"]
    assert round_of((await _state(fight)).state).round == 2


async def test_the_deadline_resolves_the_round_and_opens_the_next(fight):
    view = await fight.rounds.next(HERE, GM)
    await fight.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    early = Due(1, ROUND_TIMER, str(view.id), HERE.guild_id, datetime.now(UTC), 1, 0)
    assert await fight.rounds.on_deadline(early) is None  # 48 hours to go
    await _expire(fight)
    due = Due(1, ROUND_TIMER, str(view.id), HERE.guild_id, datetime.now(UTC), 1, 0)
    summary = await fight.rounds.on_deadline(due)
    assert summary is not None and summary.at_deadline and summary.nonce == due.nonce
    kinds = [(line.name, line.kind) for line in summary.lines]
    # her blow passes the orc's pain threshold: an NPC's choice takes the default at once
    assert kinds == [
        ("Ardelia", "attack"), ("Orco", "pain"), ("Orco", "hold"), ("Lobo", "hold")
    ], kinds  # fmt: skip
    assert summary.next is not None and summary.next.round == 2
    async with fight.sessions() as session:
        timers = (await session.exec(select(Timer).where(col(Timer.kind) == ROUND_TIMER))).all()
    assert len(timers) == 1  # the next round's
    assert await fight.rounds.on_deadline(due) is None  # round 1 is gone, round 2 not due


async def _expire(services):
    """The open round's deadline passes (as the durable timer would find it)."""
    record = await _state(services)
    open_round = round_of(record.state)
    assert open_round is not None
    state = {**record.state, "declaraciones": {**record.state["declaraciones"]}}
    state["declaraciones"]["deadline"] = "2020-01-01T00:00:00+00:00"
    async with services.sessions() as session, session.begin():
        await write_fight_state(session, record, state)


async def test_by_turns_nothing_changes(services):
    await _campaign(services, "rolweb")
    pc = rolweb_pc()
    pc["atributos"] |= {"Astuto": 5, "Persuasivo": 8}
    await services.characters.create(HERE, ANA, pc)
    view = await services.combat.start(HERE, GM)
    assert view.mode == "turns"
    await services.combat.join(HERE, ANA, "Ardelia")
    await services.combat.add(HERE, GM, "Lobo", initiative=1)
    await services.combat.roll(HERE, ANA)
    turn = await services.rounds.next(HERE, GM)
    assert turn.turn is not None and turn.header is None


async def test_rolweb_asks_the_defence_when_the_npc_attack_is_declared(fight):
    await fight.rounds.next(HERE, GM)
    blow = await fight.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Orco"))
    declared = blow.declared
    assert declared is not None and declared.defender_id == ANA.user_id and declared.ref == 1
    with pytest.raises(DomainError):
        await fight.rounds.defend(HERE, BRUNO, declared.fight_id, declared.ref)
    # two presses at once roll one defence
    both = await asyncio.gather(
        fight.rounds.defend(HERE, ANA, declared.fight_id, declared.ref),
        fight.rounds.defend(HERE, GM, declared.fight_id, declared.ref),
        return_exceptions=True,
    )
    rolled = [b for b in both if not isinstance(b, BaseException)]
    refused = [b for b in both if isinstance(b, DomainError)]
    assert len(rolled) == 1 and len(refused) == 1, both
    assert refused[0].key == "declare.error.defended"
    assert rolled[0].private and rolled[0].result.defence_request is None
    stored = round_of((await _state(fight)).state).by_ref(declared.ref)
    assert stored is not None and stored.defence_seed is not None
    await fight.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    summary = await fight.rounds.resolve(HERE, 1)
    assert summary is not None
    # (her blow may pass the orc's pain threshold: its «pain» line is not its act)
    orc = next(line for line in summary.lines if line.name == "Orco" and line.kind != "pain")
    assert orc.kind == "attack" and not orc.defence_by_bot
    # the resolution rolled the defence she rolled: the same outcome as her sealed preview
    assert orc.attack is not None and orc.attack.result.outcome == rolled[0].result.outcome


async def test_a_defence_never_rolled_is_rolled_by_the_bot(fight):
    await fight.rounds.next(HERE, GM)
    await fight.attacks.attack(HERE, GM, AttackOrder("Ardelia", character="Orco"))
    summary = await fight.rounds.resolve(HERE, 1)
    assert summary is not None
    orc = next(line for line in summary.lines if line.name == "Orco")
    assert orc.kind == "attack" and orc.defence_by_bot
    with pytest.raises(DomainError) as late:
        await fight.rounds.defend(HERE, ANA, summary.fight_id, 1)
    assert late.value.key == "declare.error.defence_gone"


async def test_a_dying_character_owes_no_declaration_and_the_bot_rolls_its_test(fight):
    await fight.combat.damage(HERE, GM, "Ardelia", 100)
    view = await fight.rounds.next(HERE, GM)
    assert view.header is not None
    assert [o.name for o in view.header.owed] == [
        "Orco",
        "Lobo",
    ]  # she owes a test, not a declaration
    await fight.attacks.attack(HERE, GM, AttackOrder("Lobo", character="Orco"))
    summary = await fight.rounds.resolve(HERE, 1, at_deadline=True)
    assert summary is not None
    first = summary.lines[0]
    assert (first.name, first.kind) == ("Ardelia", "test") and first.check is not None
    assert first.check.result.option == "muerte"


async def test_the_gm_redirects_an_action_whose_target_fell(fight):
    await fight.rounds.next(HERE, GM)
    await fight.attacks.attack(HERE, ANA, AttackOrder("Lobo", modifier=30))
    await fight.attacks.attack(HERE, GM, AttackOrder("Lobo", character="Orco", modifier=30))
    bite = AttackOrder("Ardelia", character="Lobo", bonus=10, damage="1d4")
    summary = (await fight.attacks.attack(HERE, GM, bite)).summary
    assert summary is not None
    fell = next(line for line in summary.lines if line.kind == "target_fell")
    assert fell.name == "Orco" and fell.ref
    with pytest.raises(DomainError):
        await fight.rounds.redirect_targets(HERE, ANA, summary.fight_id, fell.ref)
    name, targets = await fight.rounds.redirect_targets(HERE, GM, summary.fight_id, fell.ref)
    assert (name, targets) == ("Orco", ("Ardelia",))  # the wolf is down, the orc is itself
    both = await asyncio.gather(
        fight.rounds.redirect(HERE, GM, summary.fight_id, fell.ref, "Ardelia"),
        fight.rounds.redirect(HERE, GM, summary.fight_id, fell.ref, "Ardelia"),
        return_exceptions=True,
    )
    done = [b for b in both if not isinstance(b, BaseException)]
    gone = [b for b in both if isinstance(b, DomainError)]
    assert len(done) == 1 and [g.key for g in gone] == ["declare.error.redirect_gone"], both
    assert done[0].attacker == "Orco" and done[0].target == "Ardelia"


async def test_the_standing_order_repeats_the_last_round_with_new_dice(fight):
    change = SettingsChange(system_setting=("accion_por_defecto", "repetir"))
    await fight.campaigns.update_settings(HERE, GM, change)
    # round 1's blow passes the orc's pain threshold: with its default the orc would be on
    # the ground in round 2, and Ardelia's advantage (+1D4) would kill it before it holds
    keep_up = SettingsChange(system_setting=("umbral_por_defecto", "ataque_gratuito"))
    await fight.campaigns.update_settings(HERE, GM, keep_up)
    await fight.rounds.next(HERE, GM)
    await fight.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    first = await fight.rounds.resolve(HERE, 1)
    assert first is not None and [(ln.name, ln.kind) for ln in first.lines][0] == (
        "Ardelia", "attack"
    )  # fmt: skip
    second = await fight.rounds.resolve(HERE, 2, at_deadline=True)  # she declares nothing
    assert second is not None
    line = second.lines[0]
    assert (line.name, line.kind, line.repeated) == ("Ardelia", "attack", True)
    assert line.attack is not None and line.attack.target == "Orco"
    assert [(ln.name, ln.kind) for ln in second.lines[1:]] == [("Orco", "hold"), ("Lobo", "hold")]


async def test_swc_a_spell_is_declared_before_initiative_and_cast_at_resolution(services):
    """Seed 000: «debe declararlo antes de tirar por iniciativa»: a cast during the round is
    declared (nothing spent yet), and cast when the round resolves, spending the slot."""
    from tests.bot.test_spells import SWC_HERE, mago
    from tests.rules.swc.test_attack_swc import orc as swc_orc

    await services.campaigns.create(
        SWC_HERE, GM, name="syw", system="swc", target_id=SWC_HERE.channel_id, kind="channel"
    )
    await services.characters.create(SWC_HERE, ANA, mago())
    await services.characters.create(SWC_HERE, GM, swc_orc(), is_npc=True)
    await services.combat.start(SWC_HERE, GM, "declarations")
    await services.combat.join(SWC_HERE, ANA, "Zoltan")
    await services.combat.add(SWC_HERE, GM, "Orco")
    await services.rounds.next(SWC_HERE, GM)
    declared = await services.spells.cast(SWC_HERE, ANA, CastOrder(spell="Dormir", level=1))
    assert declared.declared is not None and declared.declared.round == 1 and declared.private
    zoltan = await services.characters.show(SWC_HERE, ANA, "Zoltan")
    listing = await services.spells.list(SWC_HERE, ANA)
    assert [p.left for p in listing.state.pools] == [2]  # nothing spent yet
    last = await services.attacks.attack(SWC_HERE, GM, AttackOrder("Zoltan", character="Orco"))
    summary = last.summary
    assert summary is not None
    cast = next(line for line in summary.lines if line.name == "Zoltan")
    assert cast.kind == "cast" and cast.cast is not None and cast.cast.result.label == "Dormir"
    listing = await services.spells.list(SWC_HERE, ANA)
    assert [p.left for p in listing.state.pools] == [1]  # spent when cast
    assert zoltan.name == "Zoltan"


async def test_rolweb_an_active_ability_is_declared_and_used_at_resolution(services):
    """Medicus (an active ability: it spends the combat action) is declared during the
    round, sealed with the roll it would make now, and heals when the round resolves."""
    from tests.bot.test_abilities import BRUNO as BRAMS
    from tests.bot.test_abilities import HERE as FORUM
    from tests.bot.test_abilities import sheet

    await services.campaigns.create(
        FORUM, GM, name="Foro", system="rolweb", target_id=13, kind="channel"
    )
    await services.characters.create(FORUM, ANA, sheet("Eira", Medicus="principiante"))
    await services.characters.create(FORUM, BRAMS, sheet("Bram"))
    await services.combat.start(FORUM, GM, "declarations")
    await services.combat.join(FORUM, ANA)
    await services.combat.join(FORUM, BRAMS)
    await services.combat.damage(FORUM, GM, "Bram", 3)
    await services.rounds.next(FORUM, GM)
    declared = await services.abilities.use(FORUM, ANA, "Medicus", target="Bram")
    assert declared.declared is not None and declared.healed is None and declared.roll
    _c, bram, _s, _set = await services.characters.sheet_of(FORUM, GM, "Bram")
    hurt = bram.sheet["resistencia"]["actual"]
    summary = await services.rounds.resolve(FORUM, 1)
    assert summary is not None
    used = next(line for line in summary.lines if line.name == "Eira")
    assert used.kind == "ability" and used.ability is not None
    assert used.ability.roll == declared.roll  # the dice she declared with
    _c, bram, _s, _set = await services.characters.sheet_of(FORUM, GM, "Bram")
    assert bram.sheet["resistencia"]["actual"] > hurt


async def test_an_older_panels_button_never_opens_or_resolves_a_round_twice(fight):
    shown = await fight.combat.show(HERE, GM)
    opened = await fight.rounds.next(HERE, GM, seen=(shown.id, shown.version))
    assert opened.header is not None and opened.version != shown.version
    with pytest.raises(DomainError) as stale:  # the same press again: round 1 stays open
        await fight.rounds.next(HERE, GM, seen=(shown.id, shown.version))
    assert stale.value.key == "combat.error.stale"
    assert round_of((await _state(fight)).state).round == 1
    closed = await fight.rounds.next(HERE, GM, seen=(opened.id, opened.version))
    assert closed.summary is not None and closed.summary.round == 1


# -- issue 25 §1: the resolution pauses for a player's pain threshold choice ---------------

#: the wolf's bite: certain (defence −30), 10 − Ardelia's Ligera 1d4 = 6..9 ≥ her Umbral 6,
#: under her Resistencia 11: she stands and must choose
BITE = AttackOrder("Ardelia", character="Lobo", bonus=10, damage="10", modifier=30)


async def _paused(fight):
    """Round 1: only the wolf acts; its bite pauses the resolution for Ana's choice."""
    await fight.rounds.next(HERE, GM)
    await fight.attacks.attack(HERE, GM, BITE)
    summary = await fight.rounds.resolve(HERE, 1)
    assert summary is not None and summary.waiting is not None, summary
    return summary


async def test_the_resolution_waits_for_the_players_choice_and_goes_on(fight):
    summary = await _paused(fight)
    ask = summary.waiting
    assert ask.name == "Ardelia" and ask.chooser_id == ANA.user_id and ask.attacker == "Lobo"
    assert summary.next is None and summary.waiting_until is not None
    kinds = [(line.name, line.kind) for line in summary.lines]
    assert kinds == [("Ardelia", "hold"), ("Orco", "hold"), ("Lobo", "attack")], kinds
    stored = round_of((await _state(fight)).state)
    assert stored is not None and stored.waiting is not None and not stored.resolving
    assert await fight.rounds.resolve(HERE, 1) is None  # paused: nothing else resolves it
    with pytest.raises(DomainError) as late:  # nor is anything declared meanwhile
        await fight.attacks.attack(HERE, ANA, AttackOrder("Orco"))
    assert late.value.key == "declare.error.resolving"
    made = await fight.pain.choose(HERE, ANA, ask.character_id, ask.ref, 1)  # the free attack
    rest = made.summary
    assert rest is not None and rest.resumed and rest.waiting is None
    assert [(ln.name, ln.kind) for ln in rest.lines] == [("Ardelia", "pain")]
    assert rest.lines[0].pain is not None and rest.lines[0].pain.choice == "ataque_gratuito"
    assert rest.next is not None and rest.next.round == 2  # the next round opened
    assert round_of((await _state(fight)).state).round == 2


async def test_the_choice_and_the_deadline_at_once_go_on_once(fight):
    summary = await _paused(fight)
    ask = summary.waiting
    await _expire(fight)
    record = await _state(fight)
    due = Due(1, ROUND_TIMER, str(record.id), HERE.guild_id, datetime.now(UTC), 1, 0)
    results = await asyncio.gather(
        fight.pain.choose(HERE, ANA, ask.character_id, ask.ref, 0),
        fight.rounds.on_deadline(due),
        return_exceptions=True,
    )
    summaries = [
        r.summary if hasattr(r, "summary") else r
        for r in results
        if not isinstance(r, BaseException)
    ]
    went_on = [s for s in summaries if s is not None]
    assert len(went_on) == 1, results
    assert round_of((await _state(fight)).state).round == 2
    sheet = (await fight.characters.show(HERE, GM, "Ardelia")).sheet
    assert "umbral_pendiente" not in sheet  # chosen once: by her, or by the default


async def test_nobody_chooses_and_the_deadline_applies_the_default(fight):
    summary = await _paused(fight)
    await _expire(fight)
    record = await _state(fight)
    due = Due(1, ROUND_TIMER, str(record.id), HERE.guild_id, datetime.now(UTC), 1, 0)
    rest = await fight.rounds.on_deadline(due)
    assert rest is not None and rest.resumed and rest.at_deadline
    pain = rest.lines[0].pain
    assert pain is not None and pain.by_default and pain.choice == "derribado"
    assert (await fight.characters.show(HERE, GM, "Ardelia")).sheet["en_el_suelo"] is True
    late = summary.waiting
    with pytest.raises(DomainError) as made:
        await fight.pain.choose(HERE, ANA, late.character_id, late.ref, 1)
    assert made.value.key == "pain.problem.not_owed"


async def test_the_gm_goes_on_with_the_default(fight):
    await _paused(fight)
    view = await fight.rounds.next(HERE, GM)
    assert view.summary is not None and view.summary.resumed
    assert view.summary.lines[0].pain is not None and view.summary.lines[0].pain.by_default


async def test_an_npcs_choice_takes_the_default_at_once(fight):
    """The GM declared the NPC's act beforehand: its choice is the default, no pause."""
    await fight.rounds.next(HERE, GM)
    blow = AttackOrder("Orco", character="Lobo", bonus=10, damage="10", modifier=30)
    await fight.attacks.attack(HERE, GM, blow)
    summary = await fight.rounds.resolve(HERE, 1)
    assert summary is not None and summary.waiting is None and summary.next is not None
    pain = next(line.pain for line in summary.lines if line.kind == "pain")
    assert pain is not None and pain.by_default and pain.name == "Orco"


async def test_getting_up_is_declared_and_rolled_in_its_turn(fight):
    """rolweb, LEVANTARSE: on the ground, «levantarse» is declared like any act (a movement
    action: an attack still fits), its Ágil test rolled in her turn with the dice fixed now;
    a failure takes the whole turn, so her attack after it is refused then."""
    await fight.characters.update_sheet(
        HERE, GM, "Ardelia", lambda s, _sys, _set: s | {"en_el_suelo": True}
    )
    await fight.rounds.next(HERE, GM)
    declared = await fight.pain.stand(HERE, ANA, "Ardelia")
    assert declared.declared_round == 1 and not declared.stood
    assert (await fight.characters.show(HERE, GM, "Ardelia")).sheet["en_el_suelo"] is True
    await fight.attacks.attack(HERE, ANA, AttackOrder("Lobo", modifier=-50))
    stored = round_of((await _state(fight)).state)
    assert stored is not None
    acts = [(d.name, d.act, d.slot) for d in stored.entries]
    assert acts == [("Ardelia", "stand", 0), ("Ardelia", "attack", 1)], acts
    summary = await fight.rounds.resolve(HERE, 1)
    assert summary is not None
    stand = next(line for line in summary.lines if line.kind == "stand")
    assert stand.name == "Ardelia" and stand.stand is not None and stand.stand.in_fight
    after = next(line for line in summary.lines if line.name == "Ardelia" and line.kind != "stand")
    sheet = (await fight.characters.show(HERE, GM, "Ardelia")).sheet
    if stand.stand.success:
        assert "en_el_suelo" not in sheet and after.kind == "attack"
    else:  # the whole turn: up, and nothing left for the attack
        assert "en_el_suelo" not in sheet and after.kind == "refused"
        assert after.problem == "actions.problem.none_left"
