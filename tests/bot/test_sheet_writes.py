"""The one write path for sheets, on real databases (SQLite, and PostgreSQL when configured).

Every change — money, items, checks that spend a token, XP, combat damage and healing — is
recomputed on the sheet's current version or refused; a confirmed change is never lost and a
refused one leaves no trace.  Multi-sheet changes (a party XP grant) are all or nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import update
from sqlmodel import select

from bot.db.models import Character, RollLog, XpAward, saved_id
from bot.services.campaigns.context import CampaignContext
from bot.services.play.checks import CheckOrder
from bot.services.shared.errors import ConcurrentChange, DomainError
from bot.services.sheets.changes import AdjustInventory, AdjustMoney
from bot.services.sheets.writes import Computed, Each, PartyRefused
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, HERE
from tests.examples import ARDELIA


@pytest.fixture
async def table(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    sheet = json.loads(json.dumps(ARDELIA)) | {"token": True, "dinero": 10, "heridas": 5}
    await services.characters.create(HERE, ANA, sheet)
    return services


async def _stored(services: Any, name: str) -> Character:
    async with services.sessions() as session:
        rows = (await session.exec(select(Character).where(Character.name == name))).all()
    (row,) = rows
    return row


async def test_fifty_mixed_concurrent_changes_keep_every_confirmed_one(table):
    """Issue 9 §2: with token checks and money changes at once, the token was spent several
    times and confirmed money changes vanished (the check saved the sheet it had read)."""
    await table.combat.start(HERE, GM)
    await table.combat.join(HERE, ANA)
    token = CheckOrder("atributo:Carisma", circumstances="token")
    jobs: list[tuple[str, Any]] = (
        [("money+", lambda: table.characters.adjust_money(HERE, ANA, 1))] * 12
        + [("money-", lambda: table.characters.adjust_money(HERE, ANA, -1))] * 4
        + [("item", lambda: table.characters.adjust_inventory(HERE, ANA, "Cuerda", 1))] * 8
        + [("token", lambda: table.checks.check(HERE, ANA, token))] * 8
        + [("xp", lambda: table.xp.grant(HERE, GM, 1, character="Ardelia"))] * 8
        + [("damage", lambda: table.combat.damage(HERE, GM, "Ardelia", 1))] * 6
        + [("heal", lambda: table.combat.heal(HERE, GM, "Ardelia", 1))] * 4
    )
    assert len(jobs) == 50
    random.Random(7).shuffle(jobs)
    results = await asyncio.gather(*(make() for _kind, make in jobs), return_exceptions=True)
    confirmed: dict[str, int] = {}
    for (kind, _make), result in zip(jobs, results, strict=True):
        if isinstance(result, BaseException):
            # Refused cleanly: the token already given, or too many clashes in a row.
            assert isinstance(result, (RulesError, ConcurrentChange)), repr(result)
            assert kind == "token" or isinstance(result, ConcurrentChange), repr(result)
        else:
            confirmed[kind] = confirmed.get(kind, 0) + 1
    for kind in ("money+", "money-", "item", "xp", "damage", "heal", "token"):
        assert confirmed.get(kind, 0) >= 1, (kind, confirmed)
    assert confirmed["token"] == 1  # one token, spent once

    final = await _stored(table, "Ardelia")
    sheet = final.sheet
    assert sheet["dinero"] == 10 + confirmed["money+"] - confirmed["money-"]
    assert sheet["equipo"]["otros"]["Cuerda"] == confirmed["item"]
    assert sheet["px"] == confirmed["xp"]
    assert sheet["heridas"] == 5 + confirmed["damage"] - confirmed["heal"]
    assert sheet["token"] is False
    assert final.version == 1 + sum(confirmed.values())
    async with table.sessions() as session:
        checks = (await session.exec(select(RollLog).where(RollLog.kind == "check"))).all()
        awards = (await session.exec(select(XpAward))).all()
    assert len(checks) == confirmed["token"]  # a refused check leaves no log row
    assert len(awards) == confirmed["xp"]


async def test_a_token_check_refuses_when_the_token_went_meanwhile(table):
    """The roll's effects are re-applied to the current version: no stale sheet is saved."""
    first = await table.checks.check(
        HERE, ANA, CheckOrder("atributo:Carisma", circumstances="token")
    )
    assert first.result.extra["token_spent"] is True
    await table.characters.adjust_money(HERE, ANA, 5)
    stored = await _stored(table, "Ardelia")
    assert (stored.sheet["token"], stored.sheet["dinero"]) == (False, 15)
    with pytest.raises(RulesError) as error:
        await table.checks.check(HERE, ANA, CheckOrder("atributo:Carisma", circumstances="token"))
    assert error.value.problems[0].key == "nucleo.problem.token_unavailable"


async def test_a_party_grant_changes_all_sheets_or_none(table):
    """Issue 9 §2: the grant stopped at the first sheet it could not update, keeping the
    earlier ones changed.  Now nobody changes and every refusing sheet is named."""
    await table.characters.create(HERE, BRUNO, json.loads(json.dumps(ARDELIA)) | {"name": "Bram"})
    await table.characters.create(HERE, BRUNO, json.loads(json.dumps(ARDELIA)) | {"name": "Cora"})
    async with table.sessions() as session, session.begin():
        for name in ("Bram", "Cora"):  # sheets made illegal behind the bot's back
            row = (await session.exec(select(Character).where(Character.name == name))).one()
            broken = dict(row.sheet) | {"atributos": {**row.sheet["atributos"], "Físico": 99}}
            await session.exec(update(Character).where(Character.id == row.id).values(sheet=broken))
    with pytest.raises(PartyRefused) as refused:
        await table.xp.grant(HERE, GM, 2, party=True)
    assert refused.value.key == "sheet.error.party_refused"
    assert [name for name, _problems in refused.value.refusals] == ["Bram", "Cora"]
    assert refused.value.params == {"names": "Bram, Cora"}
    assert (await _stored(table, "Ardelia")).sheet.get("px", 0) == 0
    async with table.sessions() as session:
        assert (await session.exec(select(XpAward))).all() == []


async def test_a_party_grant_applies_to_every_sheet_in_one_go(table):
    await table.characters.create(HERE, BRUNO, json.loads(json.dumps(ARDELIA)) | {"name": "Bram"})
    view = await table.xp.grant(HERE, GM, 2, party=True, session=False)
    assert [line.character_name for line in view.lines] == ["Ardelia", "Bram"]
    for name in ("Ardelia", "Bram"):
        assert (await _stored(table, name)).sheet["px"] == 2  # a one-off: no race bonus


class _NoBuilder:
    """A system that has no builder (no inventory, no money): a fourth system may not."""

    id = "sinconstructor"
    name = "Sin constructor"


@pytest.mark.parametrize("change", [AdjustInventory("Cuerda", 1), AdjustMoney(3)])
def test_inventory_and_money_refuse_clearly_without_a_builder(change):
    context = CampaignContext(campaign=None, system=_NoBuilder(), settings={})  # type: ignore[arg-type]
    with pytest.raises(DomainError) as error:
        change.compute({}, context)
    assert error.value.key == "sheet.error.no_builder"


@dataclass(frozen=True, slots=True)
class _Pay:
    """Move a third of the payer's money (the value the next step gets)."""

    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[int]:
        paid = sheet["dinero"] // 3
        return Computed({**sheet, "dinero": sheet["dinero"] - paid}, paid)


@dataclass(frozen=True, slots=True)
class _Receive:
    amount: int
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[int]:
        return Computed({**sheet, "dinero": sheet.get("dinero", 0) + self.amount}, self.amount)


def _pay(values: tuple[Any, ...]) -> _Receive | None:
    return _Receive(values[0]) if values[0] else None


async def test_each_after_step_is_computed_from_the_earlier_steps_value(table):
    """A dependent step (a cast landing on its target) uses the value the earlier step
    computed in the same attempt; concurrent money changes on both sheets force retries and
    every one is kept: the pair is recomputed on the current versions each time."""
    await table.characters.create(HERE, BRUNO, json.loads(json.dumps(ARDELIA)) | {"name": "Bram"})
    ana, bram = await _stored(table, "Ardelia"), await _stored(table, "Bram")
    steps = [Each(saved_id(ana), _Pay()), Each(saved_id(bram), after=_pay, acting=False)]
    jobs = [table.characters.writer.apply_each(HERE, ANA, steps) for _ in range(3)] + [
        table.characters.adjust_money(HERE, ANA, 9),
        table.characters.adjust_money(HERE, BRUNO, 1, name="Bram"),
    ]
    results = await asyncio.gather(*jobs)
    paid = sum(r[0].value for r in results[:3])
    assert all(r[1].value == r[0].value for r in results[:3])
    assert (await _stored(table, "Ardelia")).sheet["dinero"] == 10 + 9 - paid
    assert (await _stored(table, "Bram")).sheet["dinero"] == bram.sheet.get("dinero", 0) + 1 + paid
    assert paid > 0


async def test_each_after_step_returning_none_leaves_that_sheet_unwritten(table):
    await table.characters.create(HERE, BRUNO, json.loads(json.dumps(ARDELIA)) | {"name": "Bram"})
    await table.characters.adjust_money(HERE, ANA, -8)  # 2 coins: a third is 0
    ana, bram = await _stored(table, "Ardelia"), await _stored(table, "Bram")
    steps = [Each(saved_id(ana), _Pay()), Each(saved_id(bram), after=_pay, acting=False)]
    first, second = await table.characters.writer.apply_each(HERE, ANA, steps)
    assert (first.value, second.value, second.log_id) == (0, None, None)
    assert (await _stored(table, "Bram")).version == bram.version


async def test_each_refuses_the_same_sheet_twice(table):
    ana = await _stored(table, "Ardelia")
    steps = [Each(saved_id(ana), _Pay()), Each(saved_id(ana), after=_pay)]
    with pytest.raises(DomainError) as error:
        await table.characters.writer.apply_each(HERE, ANA, steps)
    assert error.value.key == "sheet.error.pair_same_character"
    assert (await _stored(table, "Ardelia")).version == ana.version
