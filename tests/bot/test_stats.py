"""``/campaign stats`` (issue 25 §3): the table's activity, the players' version through the
audience rule, dice luck per character and the chart drawn in the worker process.

Posts and rolls are written directly (only their rows matter here); the pure parts
(:mod:`bot.services.table.stats_data`) are tested without a database at the end.
"""

from __future__ import annotations

import struct
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.db.models import Character, Post, RollLog, saved_id
from bot.services import Actor
from bot.services.shared.audience import Part, Secrecy
from bot.services.shared.errors import NotReferee
from bot.services.table.stats_chart import CHART_HEIGHT, CHART_WIDTH
from bot.services.table.stats_data import PostFact, activity, week_of, weeks_until
from tests.bot.test_pace import (
    ANA,
    BRUNO,
    GM,
    HERE,
    NOW,
    new_scene,
    post,
    setting,
    table,  # noqa: F401 - the fixture
)

ZONE = "Europe/Madrid"


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk (the signature checked first)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


async def roll(services, actor: Actor, name: str, expression: str, total: int, **extra) -> None:
    """A roll-log row with the audience its write path gives it (a private roll: its
    player's and the GM's)."""
    if extra.get("private"):
        extra.update(Secrecy.private(actor.user_id).columns())
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        session.add(
            RollLog(
                guild_id=HERE.guild_id,
                channel_id=HERE.channel_id,
                campaign_id=saved_id(campaign),
                user_id=actor.user_id,
                user_name=actor.name,
                character_name=name,
                kind=extra.pop("kind", "check"),
                expression=expression,
                breakdown="…",
                total=total,
                created_at=extra.pop("at", NOW - timedelta(days=1)),
                **extra,
            )
        )


async def hidden_npc(services, name: str) -> None:
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        session.add(
            Character(
                guild_id=HERE.guild_id,
                campaign_id=saved_id(campaign),
                owner_user_id=GM.user_id,
                name=name,
                name_key=name.casefold(),
                system="nucleo",
                is_npc=True,
                hidden=True,
            )
        )


async def gm_only_post(services, scene_id: int, at: datetime) -> None:
    async with services.sessions() as session, session.begin():
        campaign = await services.campaigns.require(HERE, session)
        session.add(
            Post(
                guild_id=HERE.guild_id,
                campaign_id=saved_id(campaign),
                channel_id=500,
                scene_id=scene_id,
                author_user_id=GM.user_id,
                speaker_name="Narrador",
                gm_post=True,
                gm_only=True,
                text="secreto",
                created_at=at,
                **Secrecy.gm_only().columns(),
            )
        )


@pytest.fixture
async def played(table):  # noqa: F811 - the fixture of test_pace
    """Two rounds in one scene: Ana answers in 2 h and 4 h, Bertrán in 10 h; rolls of both
    characters, one of them private, and one of a hidden NPC."""
    s = table
    scene = await new_scene(s, created_at=NOW - timedelta(days=5))
    first = NOW - timedelta(days=4)
    await post(s, scene, GM, None, first)
    await post(s, scene, ANA, "Ardelia", first + timedelta(hours=2))
    await post(s, scene, BRUNO, "Bertrán", first + timedelta(hours=10))
    await post(s, scene, ANA, "Ardelia", first + timedelta(hours=11))  # not an answer
    second = NOW - timedelta(days=2)
    await post(s, scene, GM, None, second)
    await post(s, scene, ANA, "Ardelia", second + timedelta(hours=4))
    await roll(s, ANA, "Ardelia", "1o3d10+5", 20)
    await roll(s, ANA, "Ardelia", "1o3d10+5", 6, private=True)
    await roll(s, BRUNO, "Bertrán", "1d6", 1, kind="roll")
    await hidden_npc(s, "Sombra")
    await roll(s, GM, "Sombra", "1d20", 20, kind="roll", private=False)
    return s, scene


async def test_the_gm_reads_posts_answers_luck_and_a_chart(played):
    s, _scene = played
    view = await s.stats.campaign_stats(HERE, GM, locale="es", now=NOW)
    assert not view.for_players
    by_name = {view.names[p.user_id]: p for p in view.players}
    assert set(by_name) == {"Ana", "Bruno"}  # names as the roll log last saw them, not ids
    assert by_name["Ana"].posts == 3 and by_name["Bruno"].posts == 1
    assert by_name["Ana"].answers == 2
    assert by_name["Ana"].median_answer == timedelta(hours=3)
    assert by_name["Bruno"].median_answer == timedelta(hours=10)
    luck = {item.character: item for item in view.luck}
    assert set(luck) == {"Ardelia", "Bertrán", "Sombra"}
    assert luck["Ardelia"].rolls == 2
    assert luck["Bertrán"].mean == pytest.approx(1 / 12)  # a 1 on 1d6: the lowest sixth, halved
    assert luck["Sombra"].mean == pytest.approx(1 - 1 / 40)
    assert png_size(view.chart) == (CHART_WIDTH, CHART_HEIGHT)
    assert view.waiting and [e.name for e in view.waiting[0].pending] == ["Bertrán"]


async def test_the_players_version_shows_only_what_everyone_may_see(played):
    s, scene = played
    await gm_only_post(s, scene, NOW - timedelta(hours=30))  # would open a round for Bertrán
    view = await s.stats.campaign_stats(HERE, GM, locale="es", public=True, now=NOW)
    assert view.for_players
    luck = {item.character: item for item in view.luck}
    assert set(luck) == {"Ardelia", "Bertrán"}  # no hidden NPC
    assert luck["Ardelia"].rolls == 1  # the private roll is left out
    gm_view = await s.stats.campaign_stats(HERE, GM, locale="es", now=NOW)
    assert {item.character for item in gm_view.luck} >= {"Sombra"}
    by_name = {view.names[p.user_id]: p for p in view.players}
    assert by_name["Ana"].median_answer == timedelta(hours=3)


async def test_a_total_sealed_from_players_is_not_placed_until_its_npc_is_revealed(played):
    """An opposed check against a hidden NPC keeps its total from players (the audience
    rule): its luck would bound the NPC's numbers, so the players' version leaves it out."""
    s, _scene = played
    sealed = Secrecy().hiding_npc(99, (Part.TOTAL,)).columns()
    await roll(s, BRUNO, "Bertrán", "1d6", 6, kind="check", **sealed)
    players = await s.stats.campaign_stats(HERE, GM, locale="es", public=True, now=NOW)
    assert {i.character: i.rolls for i in players.luck}["Bertrán"] == 1
    gm = await s.stats.campaign_stats(HERE, GM, locale="es", now=NOW)
    assert {i.character: i.rolls for i in gm.luck}["Bertrán"] == 2


async def test_players_read_the_stats_only_where_the_campaign_allows(played):
    s, _scene = played
    with pytest.raises(NotReferee):
        await s.stats.campaign_stats(HERE, ANA, locale="es", now=NOW)
    await setting(s, "estadisticas_jugadores", "sí")
    view = await s.stats.campaign_stats(HERE, ANA, locale="es", now=NOW)
    assert view.for_players
    assert "Sombra" not in {item.character for item in view.luck}


async def test_display_names_the_caller_knows_win_and_ids_never_show(played):
    s, _scene = played
    view = await s.stats.campaign_stats(
        HERE, GM, locale="en", names={ANA.user_id: "Ana la Roja"}, now=NOW
    )
    assert set(view.names.values()) == {"Ana la Roja", "Bruno"}


async def test_old_posts_and_rolls_are_outside_the_weeks(table):  # noqa: F811
    s = table
    scene = await new_scene(s, created_at=NOW - timedelta(days=200))
    await post(s, scene, ANA, "Ardelia", NOW - timedelta(days=120))
    await roll(s, ANA, "Ardelia", "1d20", 20, at=NOW - timedelta(days=120))
    view = await s.stats.campaign_stats(HERE, GM, locale="es", now=NOW)
    assert view.players == () and view.luck == ()
    assert png_size(view.chart) == (CHART_WIDTH, CHART_HEIGHT)  # "no data" panels


async def test_a_roll_under_system_counts_a_low_total_as_luck(services):
    await services.campaigns.create(
        HERE, GM, name="Rol", system="rolweb", target_id=11, kind="channel"
    )
    await roll(services, ANA, "Brisa", "1d20", 2, difficulty=12)  # roll-under: lucky
    await roll(services, ANA, "Brisa", "1d20", 2, kind="roll")  # no target: a low roll
    view = await services.stats.campaign_stats(HERE, GM, locale="es", now=NOW)
    (brisa,) = view.luck
    assert brisa.rolls == 2
    assert brisa.mean == pytest.approx(((1 - 3 / 40) + 3 / 40) / 2)


# -- the pure rules -------------------------------------------------------------------------


def test_weeks_are_mondays_of_the_campaigns_zone():
    sunday_night_utc = datetime(2026, 12, 6, 23, 30, tzinfo=UTC)  # Monday 00:30 in Madrid
    assert week_of(sunday_night_utc, ZONE) == date(2026, 12, 7)
    assert week_of(sunday_night_utc, "America/Mexico_City") == date(2026, 11, 30)
    weeks = weeks_until(sunday_night_utc, ZONE, 3)
    assert weeks == (date(2026, 11, 23), date(2026, 11, 30), date(2026, 12, 7))


def test_only_the_first_post_after_the_gms_answers_it():
    start = datetime(2026, 12, 1, 10, tzinfo=UTC)
    posts = [
        PostFact(9, 1, start, True, "Narrador"),
        PostFact(2, 1, start + timedelta(hours=1), False, "Ardelia"),
        PostFact(2, 1, start + timedelta(hours=5), False, "Ardelia"),
        PostFact(2, 2, start + timedelta(hours=6), False, "Ardelia"),  # no GM post there
        PostFact(9, 1, start + timedelta(hours=7), True, "Narrador"),
        PostFact(2, 1, start + timedelta(hours=12), False, "Ardelia"),
    ]
    (ana,) = activity(posts, weeks_until(start, ZONE, 2), ZONE)
    assert ana.posts == 4 and ana.per_week == (0, 4)
    assert ana.answers == 2 and ana.median_answer == timedelta(hours=3)


def test_the_bot_never_imports_matplotlib_only_the_worker_does():
    """The chart library is loaded by the worker's job alone: importing the bot, its cogs
    and the stats service leaves it out of the bot process's memory."""
    import subprocess
    import sys

    code = (
        "import sys, bot.app, cogs.campaign, bot.services.table.stats;"
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
