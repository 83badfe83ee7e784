"""Rolls, the audit log and odds against a real SQLite file."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.services import Actor, Place
from bot.services.campaigns.service import SettingsChange
from bot.services.play.rolls import history_query
from bot.services.shared.errors import DomainError, InvalidSetting
from rules.dice import DiceError
from tests.bot.test_query_plans import analysed_roll_log

GUILD, CHANNEL = 1000, 11
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
BRUNO = Actor(3, "Bruno")
HERE = Place(GUILD, CHANNEL, (CHANNEL,))


async def test_a_roll_is_stored_with_everything_needed_to_audit_it(services):
    view = await services.rolls.roll(HERE, ANA, "1o3d10+5", reason="ataque", difficulty=12)
    assert view.total >= 6 and (view.total - 5) % 10 != 0
    assert (view.total, view.outcome) == (7, "failure")  # seeded: Random(1234)
    assert view.outcome == (
        "critical" if view.total >= 22 else "success" if view.total >= 12 else "failure"
    )
    await services.rolls.attach_message(
        view.log_id, GUILD, 555, "https://discord.com/channels/1000/11/555"
    )
    history = await services.rolls.history(HERE, ANA)
    (entry,) = history.entries
    assert (entry.total, entry.reason, entry.user_name) == (view.total, "ataque", "Ana")
    assert entry.message_url.endswith("/555")


async def test_bad_expressions_raise_the_dice_error_and_store_nothing(services):
    with pytest.raises(DiceError):
        await services.rolls.roll(HERE, ANA, "1d6r<7")
    with pytest.raises(InvalidSetting):
        await services.rolls.roll(HERE, ANA, "1d6", reason="x" * 201)
    assert (await services.rolls.history(HERE, ANA)).entries == ()


@pytest.mark.parametrize(
    "expression", ["999*999*999*3", "-999*999*999*3", "999999*999999", "1d6!*999999"]
)
async def test_totals_the_database_cannot_store_are_refused_before_writing(services, expression):
    """The log's ``total`` is a PostgreSQL ``integer``: the engine refuses what would not fit."""
    with pytest.raises(DiceError) as refused:
        await services.rolls.roll(HERE, ANA, expression)
    assert refused.value.code == "total_too_large"
    assert (await services.rolls.history(HERE, ANA)).entries == ()


async def test_the_largest_storable_totals_are_stored_and_read_back(services):
    for expression, total in (("999*999*999*2", 1_994_005_998), ("-999*999*999*2", -1_994_005_998)):
        view = await services.rolls.roll(HERE, ANA, expression)
        assert view.total == total
    assert sorted(e.total for e in (await services.rolls.history(HERE, ANA)).entries) == [
        -1_994_005_998,
        1_994_005_998,
    ]


async def test_private_rolls_are_seen_by_their_roller_and_the_gm_only(services):
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.rolls.roll(HERE, ANA, "1d20", private=True)
    await services.rolls.roll(HERE, BRUNO, "1d20")
    ana_sees = await services.rolls.history(HERE, ANA)
    bruno_sees = await services.rolls.history(HERE, BRUNO)
    gm_sees = await services.rolls.history(HERE, GM)
    assert len(ana_sees.entries) == 2
    assert [e.user_name for e in bruno_sees.entries] == ["Bruno"]
    assert len(gm_sees.entries) == 2 and gm_sees.sees_private
    only_ana = await services.rolls.history(HERE, GM, user_id=ANA.user_id)
    assert [e.user_name for e in only_ana.entries] == ["Ana"]


async def test_history_is_per_channel_and_per_guild_and_newest_first(services):
    for expression in ("1d4", "1d6", "1d8"):
        await services.rolls.roll(HERE, ANA, expression)
    await services.rolls.roll(Place(GUILD, 12, (12,)), ANA, "1d10")
    await services.rolls.roll(Place(2000, CHANNEL, (CHANNEL,)), ANA, "1d12")
    entries = (await services.rolls.history(HERE, ANA, limit=2)).entries
    assert [e.expression for e in entries] == ["1d8", "1d6"]


async def test_odds_are_exact_and_include_the_critical_for_1o3d10(services):
    plain = await services.rolls.odds("1d6", 5)
    assert plain.probability == Fraction(1, 3) and plain.critical_probability is None
    nucleo = await services.rolls.odds("1o3d10+5", 15)
    assert nucleo.critical_target == 25
    assert 0 < nucleo.critical_probability < nucleo.probability < 1


async def test_the_odds_of_a_test_are_its_chance_of_success(services):
    """`/odds 1d20<=13 target:1` answered 100 %: a test's total is its die (issue 13 §3)."""
    test = await services.rolls.odds("1d20<=13", 1)
    assert (test.kind, test.probability, test.ignored_target) == ("test", Fraction(13, 20), 1)
    assert test.target is None and test.critical_probability is None
    assert (await services.rolls.odds("1d100>=60", None)).probability == Fraction(41, 100)
    assert (await services.rolls.odds("1d20<=13", None)).ignored_target is None


async def test_odds_at_most_and_a_missing_target(services):
    at_most = await services.rolls.odds("2d6", 4, at_most=True)
    assert (at_most.kind, at_most.probability) == ("at_most", Fraction(6, 36))
    nucleo = await services.rolls.odds("1o3d10", 5, at_most=True)
    least = await services.rolls.odds("1o3d10", 6)
    assert nucleo.probability == 1 - least.probability and nucleo.critical_target is None
    with pytest.raises(DomainError) as missing:
        await services.rolls.odds("2d6", None)
    assert missing.value.key == "flows.odds_target_needed"


async def test_a_roll_is_signed_by_the_actors_active_character(services):
    """The service (not the cog) finds who is rolling: the active character of the campaign."""
    import json

    from tests.examples import ARDELIA

    await services.campaigns.create(
        HERE, GM, name="Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, json.loads(json.dumps(ARDELIA)))
    await services.rolls.roll(HERE, ANA, "1d20")
    await services.rolls.roll(HERE, BRUNO, "1d20")
    names = {
        e.user_name: e.character_name for e in (await services.rolls.history(HERE, GM)).entries
    }
    assert names == {"Ana": "Ardelia", "Bruno": None}


CATEGORY, SCENE = 30, 31
IN_SCENE = Place(GUILD, SCENE, (SCENE, CATEGORY))
OTHER_GM = Actor(4, "Otra máster", can_manage_channels=True)


async def test_history_is_scoped_to_the_campaign_not_the_channel(services):
    """A new campaign in the same channel does not inherit the old one's private rolls."""
    await services.campaigns.create(
        HERE, GM, name="Vieja", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    await services.rolls.roll(HERE, ANA, "1d20", reason="secreto viejo", private=True)
    await services.rolls.roll(HERE, BRUNO, "1d6", reason="público viejo")
    await services.campaigns.end(HERE, GM)
    await services.campaigns.create(
        HERE, OTHER_GM, name="Nueva", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    new_gm = await services.rolls.history(HERE, OTHER_GM)
    assert new_gm.sees_private and new_gm.entries == ()
    await services.rolls.roll(HERE, ANA, "1d8", reason="nuevo")
    assert [e.reason for e in (await services.rolls.history(HERE, OTHER_GM)).entries] == ["nuevo"]


async def test_a_campaign_that_took_over_a_categorys_channel_sees_only_its_own_rolls(services):
    await services.campaigns.create(
        IN_SCENE, GM, name="Categoría", system="nucleo", target_id=CATEGORY, kind="category"
    )
    await services.rolls.roll(IN_SCENE, ANA, "1d20", reason="secreto", private=True)
    # The category's GM gives the scene its own campaign, refereed by someone else's role.
    await services.campaigns.create(
        IN_SCENE, GM, name="Escena", system="nucleo", target_id=SCENE, kind="channel"
    )
    await services.campaigns.update_settings(IN_SCENE, GM, SettingsChange(gm_role_id=77))
    scene_referee = Actor(5, "Ayudante", role_ids=frozenset({77}))
    seen = await services.rolls.history(IN_SCENE, scene_referee)
    assert seen.sees_private and seen.entries == ()


async def test_history_queries_walk_the_campaign_indexes(services, engine):
    """EXPLAIN on this backend: the campaign indexes serve the query, with no sort step and
    no walk over other campaigns' rolls.

    On a realistic, analysed log (:func:`analysed_roll_log`), the planner's own choice, with
    sequential scans allowed: on a near-empty table it followed whatever statistics earlier
    tests had left, and sometimes walked ``roll_log_pkey`` backwards instead.
    """
    campaigns = await analysed_roll_log(services, engine, HERE, GM, [ANA.user_id, BRUNO.user_id])
    cases = {
        "ix_roll_log_campaign": history_query(HERE, campaigns[0], viewer_id=ANA.user_id, limit=10),
        "ix_roll_log_campaign_user": history_query(
            HERE, campaigns[0], viewer_id=None, user_id=ANA.user_id, limit=10
        ),
    }
    for index, query in cases.items():
        compiled = query.compile(engine, compile_kwargs={"literal_binds": True})
        async with engine.connect() as connection:
            if engine.dialect.name == "sqlite":
                rows = await connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}")
                plan = " ".join(str(row[-1]) for row in rows)
                assert "TEMP B-TREE" not in plan, plan
            else:
                rows = await connection.exec_driver_sql(f"EXPLAIN {compiled}")
                plan = " ".join(str(row[0]) for row in rows)
                assert "Sort" not in plan, plan
        assert index in plan, plan
