"""The audience rule (issue 22 §1): one function decides what each reader sees of a record.

Pure tests of :func:`bot.services.shared.audience.sight` (every audience × reader, sealed
parts, reveals), of the construction guard (a :class:`Sight` or :class:`Shown` is made by
the rule only, and no module but the rule's touches its key), and of migration 0020, which
gives stored rows the audiences the outputs used to work out each time (SQLite and
PostgreSQL).
"""

from __future__ import annotations

import ast
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.services.shared.audience import (
    NO_REVEALS,
    PUBLIC,
    Audience,
    Part,
    Reader,
    Reveals,
    Secrecy,
    Shown,
    Sight,
    show,
    show_all,
    sight,
)

ROOT = Path(__file__).resolve().parents[2]
ANA, BRUNO, GM = 1, 2, 9
T0 = datetime(2026, 12, 1, tzinfo=UTC)
EVERYONE, ANA_READS, BRUNO_READS, GM_READS = (
    Reader.everyone(),
    Reader.member(ANA),
    Reader.member(BRUNO),
    Reader.gm(GM),
)


@pytest.mark.parametrize(
    ("secrecy", "who_sees"),
    [
        (PUBLIC, {"everyone", "ana", "bruno", "gm"}),
        (Secrecy.private(ANA), {"ana", "gm"}),
        (Secrecy.gm_only(), {"gm"}),
        (PUBLIC.hiding_npc(42, (Part.RECORD,)), {"gm"}),
        (PUBLIC.sealing(Part.RECORD), {"gm"}),
    ],
)
def test_who_may_know_a_record_exists(secrecy, who_sees):
    readers = {"everyone": EVERYONE, "ana": ANA_READS, "bruno": BRUNO_READS, "gm": GM_READS}
    seen = {name for name, reader in readers.items() if sight(secrecy, reader) is not None}
    assert seen == who_sees


def test_sealed_parts_are_the_gms_alone():
    secrecy = Secrecy.private(ANA).sealing(Part.TOTAL, Part.DIFFICULTY)
    ana = sight(secrecy, ANA_READS)
    assert ana is not None and ana.sealed == {Part.TOTAL, Part.DIFFICULTY}
    assert ana.value(Part.TOTAL, 17) is None and ana.value(Part.OUTCOME, "success") == "success"
    gm = sight(secrecy, GM_READS)
    assert gm is not None and gm.sealed == frozenset() and gm.value(Part.TOTAL, 17) == 17


def test_a_reveal_lifts_what_the_npc_sealed_in_records_written_before_it_only():
    secrecy = Secrecy.private(ANA).hiding_npc(42).sealing(Part.OUTCOME)
    before, after = T0, T0 + timedelta(days=2)
    reveals = Reveals({42: T0 + timedelta(days=1)})
    lifted = sight(secrecy, ANA_READS, written_at=before, reveals=reveals)
    assert lifted is not None and lifted.sealed == {Part.OUTCOME}  # a hidden request's stays
    later = sight(secrecy, ANA_READS, written_at=after, reveals=reveals)
    assert later is not None and Part.TOTAL in later.sealed  # hidden again afterwards
    # a reveal never widens the audience: Ana's private roll stays hers
    assert sight(secrecy, BRUNO_READS, written_at=before, reveals=reveals) is None
    other = Reveals({7: T0 + timedelta(days=1)})
    assert Part.TOTAL in sight(secrecy, ANA_READS, written_at=before, reveals=other).sealed
    award = PUBLIC.hiding_npc(42, (Part.RECORD,))
    assert sight(award, EVERYONE, written_at=before) is None
    assert sight(award, EVERYONE, written_at=before, reveals=reveals) is not None


def test_its_player_reads_the_sealed_parts_he_wrote_himself_only():
    notes = PUBLIC.written_by(ANA).sealing(Part.NOTES, Part.TOTAL)
    assert sight(notes, ANA_READS).sealed == {Part.TOTAL}
    assert sight(notes, BRUNO_READS).sealed == {Part.NOTES, Part.TOTAL}
    assert sight(notes, EVERYONE).sealed == {Part.NOTES, Part.TOTAL}


def test_narrowing_keeps_the_stricter_audience():
    assert PUBLIC.narrowed(Audience.GM).audience is Audience.GM
    assert Secrecy.gm_only().narrowed(Audience.PLAYER, ANA).audience is Audience.GM
    assert Secrecy.private(ANA).narrowed(Audience.PLAYER, ANA) == Secrecy.private(ANA)
    assert Secrecy.private(ANA).narrowed(Audience.PLAYER, BRUNO).audience is Audience.GM
    assert PUBLIC.narrowed(Audience.PLAYER, BRUNO) == Secrecy.private(BRUNO)
    # a record Ana wrote, withdrawn to Bruno's eyes: nobody's but the GM's
    assert PUBLIC.written_by(ANA).narrowed(Audience.PLAYER, BRUNO).audience is Audience.GM


def test_two_hidden_npcs_seal_for_good_what_no_single_reveal_may_lift():
    secrecy = PUBLIC.hiding_npc(1).hiding_npc(2, (Part.OUTCOME,))
    both = Reveals({1: T0 + timedelta(days=1), 2: T0 + timedelta(days=1)})
    seen = sight(secrecy, EVERYONE, written_at=T0, reveals=both)
    assert seen is not None and Part.OUTCOME in seen.sealed


def test_the_columns_round_trip_and_unknown_values_never_widen():
    for secrecy in (
        PUBLIC,
        Secrecy.private(ANA).sealing(Part.NOTES),
        Secrecy.gm_only(),
        PUBLIC.hiding_npc(42, (Part.TOTAL, Part.DETAIL)).sealing(Part.OUTCOME),
    ):
        columns = json.loads(json.dumps(secrecy.columns()))
        assert Secrecy.of_row(columns) == secrecy
    assert Secrecy.of("nobody-knows", None, {}).audience is Audience.GM
    assert Secrecy.of("player", None, {}).audience is Audience.GM  # a player nobody can name
    future = Secrecy.of("everyone", None, {"sealed": ["a-part-of-tomorrow"]})
    assert sight(future, EVERYONE) is None  # an unknown part seals the whole record
    orphan = Secrecy.of("everyone", None, {"npc_sealed": ["total"]})  # no NPC to reveal
    assert orphan.npc_id is None and Part.TOTAL in orphan.sealed


def test_show_projects_for_the_reader_and_leaves_out_what_he_may_not_see():
    records = [("public", PUBLIC), ("ana's", Secrecy.private(ANA)), ("gm's", Secrecy.gm_only())]
    shown = show_all(records, ANA_READS, lambda r: r[1], lambda r, seen: (r[0], seen.sealed))
    assert [s.value[0] for s in shown] == ["public", "ana's"]
    assert show(Secrecy.gm_only(), EVERYONE, lambda _seen: "x") is None
    one = show(PUBLIC.sealing(Part.TOTAL), EVERYONE, lambda seen: seen.value(Part.TOTAL, 3))
    assert one is not None and one.value is None and one.sight.reader == EVERYONE
    assert sight(PUBLIC, EVERYONE, reveals=NO_REVEALS) is not None


def test_a_sight_or_a_shown_value_is_made_by_the_rule_only():
    """Outputs take :class:`Shown` values: nothing but :func:`show` can make one."""
    seen = sight(PUBLIC, EVERYONE)
    assert seen is not None
    with pytest.raises(TypeError):
        Sight(EVERYONE, frozenset(), object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Shown("forged", seen, object())  # type: ignore[arg-type]


def test_no_module_but_the_rule_touches_its_key():
    """The guard holds only while the key stays private: any other module naming ``_KEY`` or
    ``_Key`` (to forge a sight) fails here."""
    rule = ROOT / "bot/services/shared/audience.py"
    offenders = []
    for package in ("bot", "cogs", "standin", "rules"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == rule:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                name = (
                    node.id
                    if isinstance(node, ast.Name)
                    else node.attr
                    if isinstance(node, ast.Attribute)
                    else None
                )
                if isinstance(node, ast.ImportFrom):
                    names = [alias.name for alias in node.names]
                    if any(n in ("_KEY", "_Key") for n in names):
                        offenders.append(str(path.relative_to(ROOT)))
                elif name in ("_KEY", "_Key"):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


# -- migration 0020: audiences for the rows stored before it -------------------------------


async def test_migration_gives_stored_rows_their_audience(engine):
    """Rows as the bot stored them before 0020 (flags and details only) get the audience
    every output used to work out from them; downgrading and upgrading again is lossless."""
    from alembic import command

    from bot.db.migrate import alembic_config

    def run(connection, action, revision):
        config = alembic_config()
        config.attributes["connection"] = connection
        action(config, revision)

    async with engine.begin() as connection:
        await connection.run_sync(run, command.downgrade, "0019")
    try:
        await _fill(engine)
    finally:  # never leave the shared test database without its schema
        async with engine.begin() as connection:
            await connection.run_sync(run, command.upgrade, "head")
    async with engine.connect() as connection:
        logged = {
            reason: Secrecy.of(audience, user, _json(secrets))
            for reason, audience, user, secrets in (
                await connection.execute(
                    text("SELECT reason, audience, audience_user_id, secrets FROM roll_log")
                )
            ).all()
        }
        posts = [
            Secrecy.of(audience, user, _json(secrets))
            for audience, user, secrets in (
                await connection.execute(
                    text("SELECT audience, audience_user_id, secrets FROM post ORDER BY id")
                )
            ).all()
        ]
        awards = [
            Secrecy.of(audience, user, _json(secrets))
            for audience, user, secrets in (
                await connection.execute(
                    text("SELECT audience, audience_user_id, secrets FROM xp_award ORDER BY id")
                )
            ).all()
        ]
    numbers = {Part.TOTAL, Part.DIFFICULTY, Part.DETAIL}
    assert logged["public"] == PUBLIC
    assert logged["private"] == Secrecy.private(ANA)
    assert logged["opposed"] == PUBLIC.sealing(*numbers)
    assert logged["request"] == Secrecy.private(ANA).sealing(*numbers, Part.OUTCOME)
    assert logged["attack"] == PUBLIC.sealing(Part.DETAIL)
    assert logged["npc"] == PUBLIC.hiding_npc(2, numbers)
    assert posts == [
        PUBLIC,
        Secrecy.private(ANA),  # GM-only: its author's and the GM's
        Secrecy.private(BRUNO),  # the GM ↔ Bruno thread: Bruno's and the GM's
        PUBLIC.written_by(ANA).sealing(Part.NOTES),  # Ana reads the notes she wrote
    ]
    assert awards == [PUBLIC.hiding_npc(2, (Part.RECORD,)), PUBLIC]


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


async def _fill(engine):
    """Rows as the bot stored them before migration 0020."""
    rows = {
        "public": {},
        "private": {"private": True},
        "opposed": {"detail": {"hidden_opponent": True}},
        "request": {"private": True, "detail": {"hidden_request": "nothing"}},
        "attack": {"detail": {"secret": {"defensa": 7717}}},
        "npc": {"character_name": "Trasgo"},
    }
    async with engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO campaign (id, guild_id, name, system, gm_user_id, settings, status,"
                " created_at, version, gm_notes_seen) VALUES (1, 5, 'C', 'nucleo', 9, '{}',"
                " 'active', :t, 1, 0)"
            ),
            {"t": T0.replace(tzinfo=None)},
        )
        for number, (key, name) in enumerate((("visible", "Ardelia"), ("hidden", "Trasgo")), 1):
            await connection.execute(
                text(
                    "INSERT INTO character (id, guild_id, campaign_id, owner_user_id, name,"
                    " name_key, system, sheet, is_npc, hidden, created_at, updated_at,"
                    " version, sheet_version, approval) VALUES (:id, 5, 1, 9, :n, :k,"
                    " 'nucleo', '{}', :npc, :hidden, :t, :t, 1, 2, 'approved')"
                ),
                {
                    "id": number,
                    "n": name,
                    "k": name.lower(),
                    "npc": key == "hidden",
                    "hidden": key == "hidden",
                    "t": T0.replace(tzinfo=None),
                },
            )
        for number, (name, row) in enumerate(rows.items(), 1):
            await connection.execute(
                text(
                    "INSERT INTO roll_log (id, guild_id, channel_id, campaign_id, user_id,"
                    " user_name, character_name, kind, expression, reason, breakdown, detail,"
                    " total, fumble, private, created_at) VALUES (:id, 5, 7, 1, :u, 'x', :c,"
                    " 'check', '1d20', :reason, '[1]', :d, 1, :f, :p, :t)"
                ),
                {
                    "id": number,
                    "u": ANA,
                    "c": row.get("character_name", "Ardelia"),
                    "reason": name,
                    "d": json.dumps(row.get("detail", {})),
                    "f": False,
                    "p": row.get("private", False),
                    "t": T0.replace(tzinfo=None),
                },
            )
        await connection.execute(
            text(
                "INSERT INTO private_thread (id, guild_id, campaign_id, player_user_id,"
                " gm_user_id, parent_id, thread_id, created_at) VALUES (1, 5, 1, :p, 9, 7, 77, :t)"
            ),
            {"p": BRUNO, "t": T0.replace(tzinfo=None)},
        )
        for number, (channel, gm_only, notes_private) in enumerate(
            ((7, False, False), (8, True, False), (77, False, False), (7, False, True)), 1
        ):
            await connection.execute(
                text(
                    "INSERT INTO post (id, guild_id, campaign_id, channel_id, message_ids,"
                    " author_user_id, speaker_name, gm_post, gm_only, text, notes,"
                    " notes_private, gm_message_ids, created_at, version) VALUES (:id, 5, 1,"
                    " :ch, '[]', :a, 'Ardelia', :g, :g, 'hola', 'notas', :np, '[]', :t, 1)"
                ),
                {
                    "id": number,
                    "ch": channel,
                    "a": ANA if channel != 77 else GM,
                    "g": gm_only,
                    "np": notes_private,
                    "t": T0.replace(tzinfo=None),
                },
            )
        await connection.execute(
            text(
                "INSERT INTO xp_award (id, guild_id, campaign_id, character_id, character_name,"
                " granted_by, amount, xp_before, xp_after, created_at) VALUES"
                " (1, 5, 1, 2, 'Trasgo', 9, 5, 0, 5, :t), (2, 5, 1, 1, 'Ardelia', 9, 3, 0, 3, :t)"
            ),
            {"t": T0.replace(tzinfo=None)},
        )
