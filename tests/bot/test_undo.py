"""/undo on real databases: what a write recorded goes back, dependent changes refuse, races."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.db.models import RollLog
from bot.services import Actor, Place
from bot.services.shared.audit import ABSENT, apply_diff, diff_conflicts, sheet_diff
from bot.services.shared.errors import DomainError, NotReferee
from bot.words import problem_text
from tests.examples import ARDELIA

GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")


def ardelia(name: str = "Ardelia") -> dict:
    return dict(json.loads(json.dumps(ARDELIA)), name=name)


@pytest.fixture
async def fight(services):
    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, ardelia())
    await services.combat.start(HERE, GM)
    await services.combat.join(HERE, ANA)
    return services


async def _sheet(services, name: str = "Ardelia") -> tuple[dict, int]:
    _campaign, character, _system, _settings = await services.characters.sheet_of(HERE, GM, name)
    return json.loads(json.dumps(character.sheet)), character.version


async def _row(services, log_id: int) -> RollLog:
    async with services.sessions() as session:
        row = await session.get(RollLog, log_id)
    assert row is not None
    return row


def test_the_diff_records_leaves_and_absent_paths_and_puts_them_back():
    before = {"a": 1, "b": {"c": [1, 2], "d": "x"}, "gone": 3}
    after = {"a": 1, "b": {"c": [1], "e": 5}, "new": {"x": 1}}
    diff = sheet_diff(before, after)
    assert diff == [
        ["b.c", [1, 2], [1]],
        ["b.d", "x", ABSENT],
        ["b.e", ABSENT, 5],
        ["gone", 3, ABSENT],
        ["new.x", ABSENT, 1],
    ]
    assert diff_conflicts(after, diff) == []
    assert diff_conflicts({**after, "a": 9, "b": {"c": [0], "e": 5}}, diff) == ["b.c"]
    restored = apply_diff({**after, "a": 9}, diff)
    assert restored == {"a": 9, "b": {"c": [1, 2], "d": "x"}, "gone": 3, "new": {}}


def test_an_emptied_dict_that_gains_leaves_again_is_undone_by_its_leaves():
    """An undone effect leaves ``efectos: {}``; the next effect must still be undoable."""
    emptied = {"efectos": {}}
    grown = {"efectos": {"_v": 1, "lista": ["Aturdido"]}}
    diff = sheet_diff(emptied, grown)
    assert diff == [["efectos._v", ABSENT, 1], ["efectos.lista", ABSENT, ["Aturdido"]]]
    assert diff_conflicts(grown, diff) == []
    assert apply_diff(grown, diff) == emptied
    back = sheet_diff(grown, emptied)
    assert diff_conflicts(emptied, back) == []
    assert apply_diff(emptied, back) == grown


async def test_damage_is_logged_with_what_it_changed_and_undone_exactly(fight):
    before, version = await _sheet(fight)
    health = await fight.combat.damage(HERE, GM, "Ardelia", 4)
    assert health.undo is not None and health.undo.version == version + 1
    row = await _row(fight, health.undo.log_id)
    assert row.kind == "damage" and row.total == 4
    assert row.detail["undo"]["version"] == version + 1
    assert row.detail["undo"]["changes"]  # the touched paths with before/after
    damaged, _ = await _sheet(fight)
    assert damaged != before

    with pytest.raises(NotReferee):
        await fight.undo.undo(HERE, ANA, health.undo.log_id)
    view = await fight.undo.undo(HERE, GM, health.undo.log_id, version=health.undo.version)
    assert view.character_name == "Ardelia" and view.kind == "damage" and view.fields
    restored, new_version = await _sheet(fight)
    assert restored == before and new_version == version + 2  # a new versioned write
    undo_row = await _row(fight, view.undo_log_id)
    assert undo_row.kind == "undo" and undo_row.detail["undoes"] == health.undo.log_id
    assert (await _row(fight, health.undo.log_id)).detail["undo"]["undone_by"] == view.undo_log_id

    with pytest.raises(DomainError, match="undo.error.already"):
        await fight.undo.undo(HERE, GM, health.undo.log_id)
    with pytest.raises(DomainError, match="undo.error.undo_of_undo"):
        await fight.undo.undo(HERE, GM, view.undo_log_id)
    history = await fight.rolls.history(HERE, GM)
    marks = {entry.log_id: (entry.undoable, entry.undone) for entry in history.entries}
    assert marks[health.undo.log_id] == (True, True)
    assert marks[view.undo_log_id] == (False, False)


async def test_a_later_change_to_the_same_fields_refuses_the_undo(fight):
    first = await fight.combat.damage(HERE, GM, "Ardelia", 4)
    await fight.combat.heal(HERE, GM, "Ardelia", 1)
    with pytest.raises(DomainError, match="undo.error.depends") as refused:
        await fight.undo.undo(HERE, GM, first.undo.log_id)
    assert refused.value.params["fields"]  # names what the later write changed
    assert not (await _row(fight, first.undo.log_id)).detail["undo"].get("undone_by")


async def test_a_later_change_to_other_fields_does_not_block_it(fight):
    before, _ = await _sheet(fight)
    hit = await fight.combat.damage(HERE, GM, "Ardelia", 3)
    await fight.xp.grant(HERE, GM, 5, character="Ardelia")
    await fight.undo.undo(HERE, GM, hit.undo.log_id)
    after, _ = await _sheet(fight)
    assert after == {**before, "px": before.get("px", 0) + 5}


async def test_a_stale_button_or_foreign_entry_is_refused(fight):
    hit = await fight.combat.damage(HERE, GM, "Ardelia", 3)
    with pytest.raises(DomainError, match="undo.error.not_found"):
        await fight.undo.undo(HERE, GM, hit.undo.log_id, version=hit.undo.version + 7)
    with pytest.raises(DomainError, match="undo.error.not_found"):
        await fight.undo.undo(HERE, GM, 99999)
    roll = await fight.rolls.roll(HERE, GM, "1d20")
    with pytest.raises(DomainError, match="undo.error.not_undoable") as refused:
        await fight.undo.undo(HERE, GM, roll.log_id)
    text = problem_text(refused.value.key, refused.value.params, "es")
    assert "«roll»" not in text and "dados de golpe" in text  # no internal kind


async def test_an_xp_grant_is_undone_with_a_correcting_ledger_row(fight):
    before, _ = await _sheet(fight)
    grant = await fight.xp.grant(HERE, GM, 12, character="Ardelia", reason="dragón")
    (line,) = grant.lines
    assert line.undo is not None
    view = await fight.undo.undo(HERE, GM, line.undo.log_id)
    assert view.xp == -12
    assert (await _sheet(fight))[0] == before
    log = await fight.xp.log(HERE, GM)
    assert [(entry.value.amount, entry.value.xp_after) for entry in log] == [
        (-12, line.xp_before),
        (12, line.xp_after),
    ]


async def test_undo_racing_a_new_write_never_loses_either(fight):
    """Both CAS the same sheet: either the undo lands first and the damage applies on the
    restored sheet, or the damage lands first and the undo is refused — never a lost write."""
    for _ in range(3):
        base, _ = await _sheet(fight)
        hit = await fight.combat.damage(HERE, GM, "Ardelia", 2)
        results = await asyncio.gather(
            fight.undo.undo(HERE, GM, hit.undo.log_id),
            fight.combat.damage(HERE, GM, "Ardelia", 1),
            return_exceptions=True,
        )
        undo, damage = results
        assert not isinstance(damage, BaseException), damage
        final, _ = await _sheet(fight)
        row = await _row(fight, hit.undo.log_id)
        if isinstance(undo, BaseException):
            assert isinstance(undo, DomainError) and undo.key == "undo.error.depends"
            assert not row.detail["undo"].get("undone_by")
        else:
            # the undo went first: the sheet is the base with only the second damage on it
            second = await _row(fight, damage.undo.log_id)
            assert row.detail["undo"]["undone_by"] == undo.undo_log_id
            assert apply_diff(final, second.detail["undo"]["changes"]) == base
        await fight.combat.heal(HERE, GM, "Ardelia", 50)


async def test_two_undos_of_one_entry_only_one_lands(fight):
    before, _ = await _sheet(fight)
    hit = await fight.combat.damage(HERE, GM, "Ardelia", 4)
    results = await asyncio.gather(
        fight.undo.undo(HERE, GM, hit.undo.log_id),
        fight.undo.undo(HERE, GM, hit.undo.log_id),
        return_exceptions=True,
    )
    landed = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(landed) == 1 and len(refused) == 1
    assert isinstance(refused[0], DomainError) and refused[0].key == "undo.error.already"
    assert (await _sheet(fight))[0] == before
