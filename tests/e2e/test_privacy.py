"""/privacy export and /privacy delete, and a guild's data after the bot is removed, end to end.

The retention tests run their own bot process (they stop and restart it) on a database file
they read directly, to see the purge happen and to move a purge date into the past.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from standin.client import Sandbox
from tests.e2e.helpers import CANCEL, CONFIRM, import_sheet, new_campaign, press
from tests.examples import ARDELIA

pytestmark = pytest.mark.e2e


def _document(reply) -> dict:
    ((name, payload),) = reply.attachments.items()
    if name.endswith(".gz"):
        payload = gzip.decompress(payload)
    return json.loads(payload)


def _settled(sb: Sandbox, reply, needle: str) -> str:
    """The confirmation's text once the deletion has finished and replaced it.

    The click is acknowledged at once (the buttons go away); the summary follows after the
    transaction, so the test reads the message again until it arrives.
    """
    deadline = time.monotonic() + float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10"))
    while True:
        text = sb.message(reply.message.id).text
        if needle in text or time.monotonic() > deadline:
            return text
        time.sleep(0.05)


def test_export_gives_the_member_their_data_as_a_private_file(discord_env):
    g = new_campaign(discord_env, "Exportar", "nucleo")
    import_sheet(discord_env, g, ARDELIA)
    discord_env.command("roll", {"expression": "1o3d10+2"}, guild=g, user="ana").expect_ok()
    discord_env.command("roll", {"expression": "3d6"}, guild=g, user="bruno").expect_ok()
    reply = discord_env.command("privacy export", {}, guild=g, user="ana")
    assert reply.ok and reply.deferred and reply.ephemeral
    assert "Aquí tienes todo" in reply.text
    document = _document(reply)
    assert [c["name"] for c in document["characters"]] == ["Ardelia"]
    assert [r["expression"] for r in document["rolls"]] == ["1o3d10 + 2"]
    assert document["guild_id"] == g.id
    english = discord_env.command("privacidad exportar", {}, guild=g, user="bruno", locale="en-US")
    assert "Here is everything" in english.text
    assert _document(english)["characters"] == []


def test_delete_asks_first_and_cancel_changes_nothing(discord_env):
    g = new_campaign(discord_env, "Cancelar", "nucleo")
    import_sheet(discord_env, g, ARDELIA)
    ask = discord_env.command("privacy delete", {"characters": "delete"}, guild=g, user="ana")
    assert ask.ephemeral and "¿Borrar tus datos de este servidor?" in ask.text
    assert "«Ardelia»" in ask.text
    press(discord_env, ask, CANCEL, user="ana")
    assert discord_env.command("sheet show", {"character": "Ardelia"}, guild=g, user="ana").ok


def test_delete_removes_characters_and_leaves_rolls_anonymous(discord_env):
    g = new_campaign(discord_env, "Borrar datos", "nucleo")
    import_sheet(discord_env, g, ARDELIA)
    discord_env.command("roll", {"expression": "1o3d10+2"}, guild=g, user="ana").expect_ok()
    ask = discord_env.command("privacidad borrar", {"personajes": "delete"}, guild=g, user="ana")
    done = press(discord_env, ask, CONFIRM, user="ana")
    text = _settled(discord_env, done, "Hecho")
    assert "Personajes borrados: «Ardelia»" in text
    assert "Tiradas que ya no llevan tu nombre: 1" in text
    history = discord_env.command("history", {}, guild=g, user="gm")
    assert "Ardelia (anónimo)" in history.text and "(ana)" not in history.text
    gone = discord_env.command("sheet list", {"deleted": True}, guild=g, user="gm")
    assert "Ardelia" not in gone.text  # deleted for good, not restorable
    again = discord_env.command("privacy delete", {"characters": "delete"}, guild=g, user="ana")
    assert "no guarda nada tuyo" in again.text


def _post(sb, g, values, **options):
    opened = sb.command("post", options, guild=g, channel="mesa", user="ana")
    assert opened.modal is not None, opened.text
    sb.submit_modal(opened, values, user="ana").expect_ok()


def test_delete_takes_the_gm_channel_copies_of_the_members_posts(discord_env):
    """The GM-channel copy of a member's private notes stayed in Discord after /privacy
    delete erased the post; the preview said nothing of posts or of what stays."""
    sb = discord_env
    g = new_campaign(sb, "Copias", "nucleo")
    sb.command(
        "campaign settings", {"gm_channel": g.channel("gm")}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    import_sheet(sb, g, ARDELIA)
    mark = sb.mark()
    _post(sb, g, {"text": "Sonrío.", "notes": "NOTA-SECRETA-7"}, private_notes=True)
    posted = sb.posted_since(mark)
    (copy,) = [m for channel, m in posted if channel == "gm"]
    (post,) = [m for channel, m in posted if channel == "mesa"]
    assert "NOTA-SECRETA-7" in copy.text
    g.say("gm", "Ana miente, apuntado.", user="gm")  # someone else's message: it stays
    ask = sb.command("privacy delete", {"characters": "delete"}, guild=g, user="ana")
    assert "Tu publicación (`/publicar`) se borrará" in ask.text, ask.text
    assert "copia que el bot puso en el canal del máster" in ask.text
    assert (
        "los mensajes de otras personas" in ask.text and "registros propios de Discord" in ask.text
    )
    english = sb.command(
        "privacy delete", {"characters": "to_gm"}, guild=g, user="ana", locale="en-US"
    )
    assert (
        "stays in the campaign's story" in english.text and "Discord's own records" in english.text
    )
    press(sb, english, CANCEL, user="ana")
    done = press(sb, ask, CONFIRM, user="ana")
    assert "Publicaciones borradas" in _settled(sb, done, "Hecho")
    deadline = time.monotonic() + 10
    while not (sb.message(copy.id).deleted and sb.message(post.id).deleted):
        assert time.monotonic() < deadline, "the post or its GM-channel copy is still there"
        time.sleep(0.05)
    texts = [m.text for m in sb.channel_messages(g, "gm", everything=True)]
    assert not any("NOTA-SECRETA-7" in text for text in texts)
    assert any("Ana miente" in text for text in texts)


def test_delete_can_hand_the_characters_to_the_gm(discord_env):
    g = new_campaign(discord_env, "Entregar", "nucleo")
    import_sheet(discord_env, g, ARDELIA)
    ask = discord_env.command("privacy delete", {"characters": "to_gm"}, guild=g, user="ana")
    assert "pasarán al máster" in ask.text
    done = press(discord_env, ask, CONFIRM, user="ana")
    assert "entregados al máster: «Ardelia»" in _settled(discord_env, done, "Hecho")
    shown = discord_env.command("sheet show", {"character": "Ardelia"}, guild=g, user="gm")
    assert str(g.member("gm").id) in shown.text


def test_only_the_member_can_confirm(discord_env):
    g = new_campaign(discord_env, "Ajeno", "nucleo")
    import_sheet(discord_env, g, ARDELIA)
    ask = discord_env.command("privacy delete", {"characters": "delete"}, guild=g, user="ana")
    other = press(discord_env, ask, CONFIRM, user="bruno")
    assert other.ephemeral and "no es tuyo" in other.text.lower()


# -- the guild's data after the bot is removed ------------------------------------------


class Bot:
    """One bot process on its own database file, which the test may stop and start again."""

    def __init__(self, tmp: Path, migrated: Path, **env: str) -> None:
        self.db = tmp / "arbitro.db"
        shutil.copy2(migrated, self.db)  # at the latest schema already (tests/conftest.py)
        self.db.chmod(0o600)
        self.tmp, self.env = tmp, env
        self.sb = Sandbox(
            timeout=float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")),
            deadline=float(os.environ.get("ARBITRO_E2E_DEADLINE", "3")),
        )
        self.start()

    def start(self) -> None:
        self.sb.start_bot(
            "bot.__main__",
            env={"DATABASE_URL": f"sqlite+aiosqlite:///{self.db}", **self.env},
            log_path=self.tmp / "bot.log",
        )

    def query(self, sql: str, *args) -> list[tuple]:
        with sqlite3.connect(self.db, timeout=30) as db:
            rows = db.execute(sql, args).fetchall()
        db.close()
        return rows

    def wait_for(self, sql: str, *args, expect) -> None:
        """Poll the database until ``sql`` returns ``expect`` (the bot works in the background)."""
        deadline = time.monotonic() + float(os.environ.get("ARBITRO_E2E_TIMEOUT", "10")) * 3
        while self.query(sql, *args) != expect:
            assert time.monotonic() < deadline, (self.query(sql, *args), self.sb.bot_log(30))
            time.sleep(0.1)


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Iterator[Bot]:
    running = Bot(tmp_path_factory.mktemp("retention"), migrated_sqlite)
    yield running
    running.sb.close()


def _campaigns(bot: Bot, g) -> int:
    return bot.query("SELECT count(*) FROM campaign WHERE guild_id = ?", g.id)[0][0]


def test_a_server_that_re_adds_the_bot_finds_everything(bot):
    g = new_campaign(bot.sb, "Vuelve", "nucleo")
    import_sheet(bot.sb, g, ARDELIA)
    g.remove_bot()
    bot.wait_for("SELECT count(*) FROM guild_departure WHERE guild_id = ?", g.id, expect=[(1,)])
    (purge_at,) = bot.query(
        "SELECT due_at FROM timer WHERE kind = 'guild.purge' AND ref = ?", str(g.id)
    )[0]
    days = (datetime.fromisoformat(purge_at).replace(tzinfo=UTC) - datetime.now(UTC)).days
    assert days in (29, 30)  # the default retention period
    g.add_bot()
    bot.wait_for("SELECT count(*) FROM guild_departure WHERE guild_id = ?", g.id, expect=[(0,)])
    assert bot.sb.command("sheet show", {"character": "Ardelia"}, guild=g, user="ana").ok


def test_the_purge_date_survives_a_restart_and_purges_only_that_server(bot):
    gone = new_campaign(bot.sb, "Se fue", "nucleo")
    back = new_campaign(bot.sb, "Volvió sin el bot", "nucleo")
    stays = new_campaign(bot.sb, "Sigue", "nucleo")
    for g in (gone, back, stays):
        import_sheet(bot.sb, g, ARDELIA)
    gone.remove_bot()
    back.remove_bot()
    bot.wait_for("SELECT count(*) FROM guild_departure", expect=[(2,)])
    bot.sb.stop_bot()
    back.add_bot()  # re-invited while the bot was down: it sees the guild at start
    past = (datetime.now(UTC) - timedelta(days=1)).replace(tzinfo=None).isoformat(" ")
    bot.query("UPDATE timer SET due_at = ? WHERE kind = 'guild.purge'", past)
    bot.start()
    bot.wait_for("SELECT count(*) FROM guild_departure", expect=[(0,)])
    bot.wait_for("SELECT count(*) FROM campaign WHERE guild_id = ?", gone.id, expect=[(0,)])
    for table in ("character", "campaign_binding", "roll_log", "active_character"):
        assert bot.query(f"SELECT count(*) FROM {table} WHERE guild_id = ?", gone.id) == [(0,)]
    assert _campaigns(bot, back) == 1 and _campaigns(bot, stays) == 1
    assert bot.sb.command("sheet show", {"character": "Ardelia"}, guild=back, user="ana").ok
    gone.add_bot()
    shown = bot.sb.command("campaign show", {}, guild=gone, user="gm")
    assert "Mesa" not in shown.text  # purged: the server starts afresh


def test_zero_days_purges_as_soon_as_the_bot_is_removed(tmp_path, migrated_sqlite):
    quick = Bot(tmp_path, migrated_sqlite, ARBITRO_RETENTION_DAYS="0")
    try:
        g = new_campaign(quick.sb, "Al momento", "nucleo")
        g.remove_bot()
        # the purge deletes table after table in batches, its departure row last: both gone
        quick.wait_for(
            "SELECT (SELECT count(*) FROM campaign WHERE guild_id = ?)"
            " + (SELECT count(*) FROM guild_departure)",
            g.id,
            expect=[(0,)],
        )
    finally:
        quick.sb.close()


def test_a_gm_who_deletes_their_data_archives_a_campaign_nobody_else_runs(discord_env):
    """Issue 23 §5: the campaign was left to an anonymous GM («sin máster»)."""
    g = new_campaign(discord_env, "Sin máster", "nucleo")
    ask = discord_env.command("privacy delete", {"characters": "to_gm"}, guild=g, user="gm")
    assert "La campaña «Mesa» se archivará" in ask.text, ask.text
    done = press(discord_env, ask, CONFIRM, user="gm")
    assert "Campañas archivadas (nadie más tenía su rol de máster): «Mesa»" in _settled(
        discord_env, done, "Hecho"
    )
    listed = discord_env.command("campaign list", {}, guild=g, user="ana")
    assert "Mesa" in listed.text and "<@0>" not in listed.text, listed.text


def test_a_gm_who_deletes_their_data_hands_the_campaign_to_a_co_gm(discord_env):
    """dm2 holds the campaign's GM role and has played in it: the campaign is theirs."""
    sb = discord_env
    g = new_campaign(sb, "Comáster", "nucleo")
    sb.command(
        "campaign settings", {"gm_role": g.role("Máster")}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    sb.command("roll", {"expression": "1d20"}, guild=g, channel="mesa", user="dm2").expect_ok()
    ask = sb.command("privacy delete", {"characters": "to_gm"}, guild=g, user="gm")
    dm2 = g.member("dm2").id
    assert f"La campaña «Mesa» pasará a <@{dm2}>" in ask.text, ask.text
    done = press(sb, ask, CONFIRM, user="gm")
    assert f"La campaña «Mesa» es ahora de <@{dm2}>" in _settled(sb, done, "Hecho")
    shown = sb.command("campaign show", {}, guild=g, channel="mesa", user="ana")
    assert f"<@{dm2}>" in shown.text and "sin máster" not in shown.text, shown.text
