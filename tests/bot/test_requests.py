"""GM roll requests (issue 12 §3) against real databases: who is asked, who may press, each
character rolls once (concurrent presses included), hidden numbers stay the GM's, closing
refuses late presses."""

from __future__ import annotations

import asyncio

import pytest
from sqlmodel import select

from bot.db.models import RollLog, RollRequest, Scene, saved_id
from bot.services import Actor
from bot.services.shared.audience import Reader
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from bot.services.table.requests import (
    MAX_TARGETS,
    MAX_WHO,
    UNABLE_SEALED,
    parse_who,
    request_for,
)
from cogs.ui.request_panel import request_message, results_message
from rules.systems.base import RulesError
from tests.bot.table import ANA, BRUNO, CHANNEL, GM, GUILD, HERE, estrellas
from tests.examples import ardelia, swc_cleric

CARLA = Actor(4, "Carla")
OPTION = "habilidad:Pilotar"


@pytest.fixture
async def table(services):
    await estrellas(services)
    await services.characters.create(HERE, BRUNO, ardelia(name="Brisa"))
    return services


async def _rolls(services) -> list[RollLog]:
    async with services.sessions() as session:
        return list((await session.exec(select(RollLog).where(RollLog.kind == "check"))).all())


def _id(view, name: str) -> int:
    return next(e.character_id for e in view.entries if e.name == name)


# -- who ---------------------------------------------------------------------------------


def test_who_reads_mentions_names_and_the_party_word():
    who = parse_who("<@2> <@!3>, Trasgo ; todos, <@2>")
    assert who.members == (2, 3)
    assert who.names == ("Trasgo",)
    assert who.party
    with pytest.raises(DomainError, match="who_empty"):
        parse_who(" , ; ")
    with pytest.raises(DomainError, match="who_too_long"):
        parse_who("x" * (MAX_WHO + 1))


async def test_members_names_and_the_party_are_resolved_to_characters(table):
    view = await table.requests.create(HERE, GM, who="<@2>, Brisa", option=OPTION)
    assert [e.name for e in view.entries] == ["Ardelia", "Brisa"]
    assert [e.owner_id for e in view.entries] == [2, 3]
    party = await table.requests.create(HERE, GM, who="todos", option=OPTION, difficulty=15)
    assert {e.name for e in party.entries} == {"Ardelia", "Brisa"}
    assert party.label and party.hidden == "visible"


async def test_the_party_of_a_scene_is_its_players(table):
    async with table.sessions() as session, session.begin():
        campaign = await table.campaigns.require(HERE, session)
        session.add(
            Scene(
                guild_id=GUILD,
                campaign_id=saved_id(campaign),
                channel_id=CHANNEL,
                title="La posada",
                opened_by=GM.user_id,
                players=[BRUNO.user_id],
            )
        )
    view = await table.requests.create(HERE, GM, who="todos", option=OPTION)
    assert [e.name for e in view.entries] == ["Brisa"]


async def test_only_referees_ask_and_bad_requests_are_refused(table):
    with pytest.raises(NotReferee):
        await table.requests.create(HERE, ANA, who="todos", option=OPTION)
    with pytest.raises(DomainError, match="no_active"):
        await table.requests.create(HERE, GM, who="<@4>", option=OPTION)
    # nobody has it: the reason once (it is the same for all), the rules' own
    with pytest.raises(RulesError) as cannot:
        await table.requests.create(HERE, GM, who="todos", option="habilidad:Volar")
    (problem,) = cannot.value.problems
    assert (problem.key, problem.params["option"]) == ("nucleo.problem.unknown_option", "Volar")
    with pytest.raises(DomainError, match="not_found"):
        await table.requests.create(HERE, GM, who="Nadie", option=OPTION)
    with pytest.raises(DomainError, match="too_many"):
        mentions = " ".join(f"<@{i}>" for i in range(10, 11 + MAX_TARGETS))
        await table.requests.create(HERE, GM, who=mentions, option=OPTION)
    with pytest.raises(DomainError, match="bad_hidden"):
        await table.requests.create(HERE, GM, who="todos", option=OPTION, hidden="maybe")
    async with table.sessions() as session:
        assert (await session.exec(select(RollRequest))).all() == []


# -- pressing ----------------------------------------------------------------------------


async def test_each_player_rolls_their_own_character_once(table):
    view = await table.requests.create(HERE, GM, who="todos", option=OPTION, difficulty=15)
    ardelia_id, brisa_id = _id(view, "Ardelia"), _id(view, "Brisa")
    with pytest.raises(NotAllowed, match="not_yours"):
        await table.requests.roll(HERE, BRUNO, view.id, ardelia_id)
    with pytest.raises(NotAllowed, match="not_yours"):  # the GM does not roll for a player
        await table.requests.roll(HERE, GM, view.id, ardelia_id)
    first = await table.requests.roll(HERE, ANA, view.id, ardelia_id)
    assert not first.completed and first.check.character_name == "Ardelia"
    entry = next(e for e in first.request.entries if e.name == "Ardelia")
    assert entry.rolled and entry.total == first.check.result.total and entry.by == ANA.user_id
    with pytest.raises(DomainError, match="already_rolled"):
        await table.requests.roll(HERE, ANA, view.id, ardelia_id)
    last = await table.requests.roll(HERE, BRUNO, view.id, brisa_id)
    assert last.completed and last.request.complete
    rows = await _rolls(table)
    assert len(rows) == 2 and {r.character_name for r in rows} == {"Ardelia", "Brisa"}
    assert not any(r.private for r in rows)  # visible request: public rolls


async def test_the_gm_presses_for_a_character_the_gm_holds(table):
    await table.characters.create(HERE, GM, ardelia(name="Gaspar"))
    view = await table.requests.create(HERE, GM, who="Gaspar", option=OPTION)
    press = await table.requests.roll(HERE, GM, view.id, _id(view, "Gaspar"))
    assert press.completed


async def test_two_presses_at_once_for_one_character_roll_once(table):
    view = await table.requests.create(HERE, GM, who="<@2>", option=OPTION)
    target = _id(view, "Ardelia")
    results = await asyncio.gather(
        *(table.requests.roll(HERE, ANA, view.id, target) for _ in range(4)),
        return_exceptions=True,
    )
    done = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(done) == 1, results
    assert all(isinstance(r, DomainError) and "already_rolled" in r.key for r in refused), refused
    assert len(await _rolls(table)) == 1  # the losers' rolls were rolled back, never stored
    final = await table.requests.public(HERE, view.id)
    assert final.entries[0].log_id == done[0].check.log_id


async def test_presses_for_different_characters_at_once_all_count(table):
    view = await table.requests.create(HERE, GM, who="todos", option=OPTION)
    presses = await asyncio.gather(
        table.requests.roll(HERE, ANA, view.id, _id(view, "Ardelia")),
        table.requests.roll(HERE, BRUNO, view.id, _id(view, "Brisa")),
    )
    final = await table.requests.public(HERE, view.id)
    assert final.complete and final.version == view.version + 1  # completing it, once
    assert sum(p.completed for p in presses) == 1  # the GM is told exactly once
    assert len(await _rolls(table)) == 2


async def test_a_whole_table_pressing_at_once_never_conflicts(table, monkeypatch):
    """Issue 26: MAX_TARGETS characters pressed at once, each twice (a double press): every
    character rolls exactly once, no press is rolled again because of another character's,
    and exactly one press completes the request."""
    players = [Actor(100 + n, f"Jugador {n}") for n in range(MAX_TARGETS)]
    for n, player in enumerate(players):
        await table.characters.create(HERE, player, ardelia(name=f"Pj {n:02d}"))
    who = " ".join(f"<@{player.user_id}>" for player in players)
    view = await table.requests.create(HERE, GM, who=who, option=OPTION)
    assert len(view.entries) == MAX_TARGETS
    rolled_by_check = []
    check = table.requests.checks.check

    async def counted(*args, **kwargs):
        rolled_by_check.append(kwargs["character_id"])
        return await check(*args, **kwargs)

    monkeypatch.setattr(table.requests.checks, "check", counted)
    presses = [
        table.requests.roll(HERE, player, view.id, _id(view, f"Pj {n:02d}"))
        for n, player in enumerate(players)
        for _twice in range(2)
    ]
    results = await asyncio.gather(*presses, return_exceptions=True)
    done = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(done) == MAX_TARGETS, refused
    assert all(isinstance(r, DomainError) and "already_rolled" in r.key for r in refused)
    # one roll per press that reached the dice: nobody rolled again for another's press
    assert len(rolled_by_check) <= 2 * MAX_TARGETS
    rows = await _rolls(table)
    assert sorted(r.character_name for r in rows) == [f"Pj {n:02d}" for n in range(MAX_TARGETS)]
    final = await table.requests.public(HERE, view.id)
    assert final.complete and sum(p.completed for p in done) == 1
    assert {e.log_id for e in final.entries} == {r.id for r in rows}
    assert all(e.total == next(r.total for r in rows if r.id == e.log_id) for e in final.entries)


async def test_a_closed_request_refuses_late_presses(table):
    view = await table.requests.create(HERE, GM, who="todos", option=OPTION)
    with pytest.raises(NotReferee):
        await table.requests.close(HERE, ANA, view.id)
    assert await table.requests.latest_open(HERE, GM) == view.id
    closed = await table.requests.close(HERE, GM, view.id)
    assert not closed.open
    with pytest.raises(DomainError, match="request.error.closed"):
        await table.requests.roll(HERE, ANA, view.id, _id(view, "Ardelia"))
    with pytest.raises(DomainError, match="already_closed"):
        await table.requests.close(HERE, GM, view.id)
    with pytest.raises(DomainError, match="none_open"):
        await table.requests.latest_open(HERE, GM)
    assert await _rolls(table) == []


async def test_a_press_racing_the_close_either_rolls_before_it_or_is_refused(table):
    view = await table.requests.create(HERE, GM, who="<@2>", option=OPTION)
    press, close = await asyncio.gather(
        table.requests.roll(HERE, ANA, view.id, _id(view, "Ardelia")),
        table.requests.close(HERE, GM, view.id),
        return_exceptions=True,
    )
    assert not isinstance(close, Exception), close
    rows = await _rolls(table)
    final = await table.requests.public(HERE, view.id)
    if isinstance(press, Exception):
        assert "request.error.closed" in str(press) and rows == []
        assert not final.entries[0].rolled
    else:
        assert len(rows) == 1 and final.entries[0].log_id == rows[0].id


# -- hidden numbers ----------------------------------------------------------------------


@pytest.mark.parametrize("hidden", ["outcome", "nothing"])
async def test_hidden_rolls_keep_their_numbers_from_players(table, hidden):
    view = await table.requests.create(
        HERE, GM, who="<@2>", option=OPTION, difficulty=15, hidden=hidden
    )
    await table.requests.roll(HERE, ANA, view.id, _id(view, "Ardelia"))
    (row,) = await _rolls(table)
    assert row.private and row.detail["hidden_request"] == hidden
    mine = (await table.rolls.history(HERE, ANA)).entries[0]
    assert mine.total is None and mine.difficulty is None
    assert (mine.outcome is None) == (hidden == "nothing")
    others = await table.rolls.history(HERE, BRUNO)
    assert all(e.log_id != row.id for e in others.entries)  # private: not even listed
    gm = (await table.rolls.history(HERE, GM)).entries[0]
    assert gm.total == row.total and gm.difficulty == 15 and gm.outcome == row.outcome
    exported = await table.privacy.export(GUILD, ANA.user_id)
    (roll,) = [r for r in exported["rolls"] if r["id"] == row.id]
    assert roll["total"] is None and roll["difficulty"] is None
    shown = await table.requests.show(HERE, GM, view.id)
    assert shown.entries[0].total == row.total
    with pytest.raises(NotReferee):
        await table.requests.show(HERE, ANA, view.id)


# -- privacy -----------------------------------------------------------------------------


async def test_erasure_unties_the_member_from_requests(table):
    view = await table.requests.create(HERE, GM, who="todos", option=OPTION)
    await table.requests.roll(HERE, ANA, view.id, _id(view, "Ardelia"))
    exported = await table.privacy.export(GUILD, ANA.user_id)
    assert [r["id"] for r in exported["roll_requests"]] == [view.id]
    await table.privacy.delete(GUILD, ANA.user_id, characters="to_gm")
    async with table.sessions() as session:
        row = await session.get(RollRequest, view.id)
    assert row is not None
    assert ANA.user_id not in {e["owner_id"] for e in row.entries} | {e["by"] for e in row.entries}
    assert (await table.privacy.export(GUILD, ANA.user_id))["roll_requests"] == []
    await table.privacy.delete(GUILD, GM.user_id, characters="to_gm")
    async with table.sessions() as session:
        row = await session.get(RollRequest, view.id)
    assert row is not None and row.requested_by == 0


# -- who cannot roll, and what the request carries (issue 23 §5) ---------------------------


async def test_a_character_who_cannot_act_is_listed_with_why_and_the_others_roll(table):
    """One unconscious character failed the whole request «…elige una opción que su ficha
    tenga»: it is listed as unable (it is unconscious), gets no press, and the request is
    complete once the others rolled."""
    await table.characters.create(HERE, CARLA, ardelia(name="Cato", heridas=25))
    view = await table.requests.create(HERE, GM, who="todos", option=OPTION)
    cato = next(e for e in view.entries if e.name == "Cato")
    (why,) = cato.unable
    assert why.params["name"] == "Cato" and why.params["state"] == "inconsciente", why
    assert not any(e.unable for e in view.entries if e.name != "Cato")
    with pytest.raises(DomainError, match="request.error.unable"):
        await table.requests.roll(HERE, CARLA, view.id, cato.character_id)
    await table.requests.roll(HERE, ANA, view.id, _id(view, "Ardelia"))
    last = await table.requests.roll(HERE, BRUNO, view.id, _id(view, "Brisa"))
    assert last.completed and last.request.complete


async def test_why_a_hidden_npc_cannot_roll_is_the_gms(table):
    """The request lists who cannot roll with why (issue 23 §5); for a hidden NPC the why
    tells of its sheet («está inconsciente», no such skill): the channel's message reads «the
    GM knows why» through the audience rule, the GM's results name the reason (issue 22 §1)."""
    await table.characters.create(
        HERE, GM, ardelia(name="Pirata", heridas=25), is_npc=True, hidden=True
    )
    view = await table.requests.create(HERE, GM, who="Ardelia, Pirata", option=OPTION)
    public = request_for(view, Reader.everyone()).value
    (why,) = next(e for e in public.entries if e.name == "Pirata").unable
    assert why.key == UNABLE_SEALED
    text = request_message(request_for(view, Reader.everyone()), "es")["embed"].description
    assert "**Pirata** — no puede tirar: el máster sabe por qué." in text, text
    assert "inconsciente" not in text
    gm = results_message(request_for(view, Reader.gm()), "es")["embed"].description
    assert "inconsciente" in gm, gm
    # a stored request reads the same (the entry keeps its secrecy)
    again = await table.requests.public(HERE, view.id)
    (stored,) = next(
        e for e in request_for(again, Reader.everyone()).value.entries if e.name == "Pirata"
    ).unable
    assert stored.key == UNABLE_SEALED


async def test_when_nobody_can_roll_each_one_says_why(table):
    await table.characters.create(HERE, CARLA, ardelia(name="Cato", heridas=25))
    with pytest.raises(DomainError) as refused:
        await table.requests.create(HERE, GM, who="Cato, Ardelia", option="habilidad:Volar")
    # Cato: unconscious; Ardelia: no such skill: two reasons, each by name
    assert refused.value.key == "request.error.nobody_can"
    text = refused.value.params["reasons"].text("es")
    assert "**Cato**:" in text and "**Ardelia**:" in text and "Volar" in text, text


@pytest.fixture
async def swc_table(services):
    await services.campaigns.create(
        HERE, GM, name="Marca", system="swc", target_id=CHANNEL, kind="channel"
    )
    await services.characters.create(HERE, ANA, swc_cleric())
    return services


async def test_a_requested_save_names_its_threat(swc_table):
    """S&W: the cleric's +2 against poison was lost (a request could not name the threat),
    and «salvacion dificultad:12» was refused as «choose an option their sheet has»."""
    view = await swc_table.requests.create(
        HERE, GM, who="todos", option="salvacion", circumstances="amenaza:veneno"
    )
    assert view.circumstances == "amenaza:veneno"
    press = await swc_table.requests.roll(HERE, ANA, view.id, _id(view, "Aldara"))
    plain = await swc_table.checks.save(HERE, ANA)
    poison = await swc_table.checks.save(HERE, ANA, threat="veneno")
    assert press.check.result.target == poison.result.target == plain.result.target - 2
    with pytest.raises(RulesError) as refused:
        await swc_table.requests.create(HERE, GM, who="todos", option="salvacion", difficulty=12)
    (problem,) = refused.value.problems
    assert problem.key == "swc.problem.difficulty_not_allowed"


async def test_requests_stored_before_their_entry_rows_keep_their_rolls(table, engine):
    """The migration of ``roll_request_entry`` gives the requests already stored their rows, with the rolls their
    ``entries`` held: those stay rolled (and refuse a second press), the others can roll."""
    import importlib
    from pathlib import Path

    from alembic.migration import MigrationContext
    from alembic.operations import Operations
    from sqlalchemy import text, update

    view = await table.requests.create(HERE, GM, who="todos", option=OPTION)
    rolled = await table.requests.roll(HERE, ANA, view.id, _id(view, "Ardelia"))
    async with table.sessions() as session, session.begin():  # as the code before stored it
        row = await session.get(RollRequest, view.id)
        legacy = [
            {**e, "log_id": rolled.check.log_id, "total": 7, "outcome": None, "by": ANA.user_id}
            if e["name"] == "Ardelia"
            else e
            for e in row.entries
        ]
        await session.exec(
            update(RollRequest).where(RollRequest.id == view.id).values(entries=legacy)
        )
        await session.exec(text("DROP TABLE roll_request_entry"))
    versions = Path(__file__).resolve().parents[2] / "bot" / "db" / "migrations" / "versions"
    (path,) = versions.glob("*_request_entries.py")
    migration = importlib.import_module(f"bot.db.migrations.versions.{path.stem}")

    def upgrade(connection):
        with Operations.context(MigrationContext.configure(connection)):
            migration.upgrade()

    async with engine.begin() as connection:
        await connection.run_sync(upgrade)
    after = await table.requests.public(HERE, view.id)
    ardelia, brisa = (next(e for e in after.entries if e.name == n) for n in ("Ardelia", "Brisa"))
    assert ardelia.log_id == rolled.check.log_id and ardelia.total == rolled.check.result.total
    assert not brisa.rolled
    with pytest.raises(DomainError, match="already_rolled"):
        await table.requests.roll(HERE, ANA, view.id, ardelia.character_id)
    last = await table.requests.roll(HERE, BRUNO, view.id, brisa.character_id)
    assert last.completed
