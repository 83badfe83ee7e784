"""Moving house from Comunidad Umbría, end to end through the stand-in (issue 27): the
hand-written fixture zip (tests/fixtures/umbria/) imported with /campaign import, then the
scene list, a scene's posts in the chronicle, a character's public profile, the GM half with
the director-only post, the roll log with the imported rolls, and a player's claim."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from tests.e2e.helpers import says, start_arbitro
from tests.umbria_fixture import fixture_zip

pytestmark = pytest.mark.e2e


def _files(payload: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_an_umbria_game_moves_into_a_campaign(bot_database_url: str, tmp_path: Path):
    sb = start_arbitro(bot_database_url, tmp_path)
    try:
        g = sb.new_guild(name="La Torre")
        broken = sb.command(
            "campaign import",
            {"file": ("rota.zip", fixture_zip("rota")), "system": "nucleo"},
            guild=g,
            channel="mesa",
            user="gm",
        )
        assert says(broken, "umbria.problem.post_incomplete", page="escena_rota.html",
                    post="msj7001", parts="fecha")  # fmt: skip
        moved = sb.command(
            "campaign import",
            {"file": ("torre.zip", fixture_zip()), "system": "nucleo"},
            guild=g,
            channel="mesa",
            user="gm",
        )
        assert moved.ok and "La Torre de Sal" in moved.all_text, moved.all_text
        assert says(moved, "umbria.imported.claim")

        scenes = sb.command("scene list", {}, guild=g, channel="mesa", user="ana").expect_ok()
        listed = scenes.all_text
        # newest first, as /scene list always shows them; no link to a thread that is not here
        assert listed.index("Epílogo") < listed.index("La subida") < listed.index("El muelle")
        assert "<#-" not in listed and says(scenes, "scene.list_archived", title="El muelle")

        profile = sb.command(
            "sheet profile", {"character": "Aldara"}, guild=g, channel="mesa", user="ana"
        ).expect_ok()
        assert "Exploradora de ojos grises" in profile.all_text
        assert "Creció en los muelles de Vell." in profile.all_text
        assert "Acechar 31" not in profile.all_text  # the Umbría sheet is the GM's note

        shown = sb.command(
            "sheet show", {"character": "Aldara"}, guild=g, channel="mesa", user="gm"
        ).expect_ok()
        assert "Acechar 31" in shown.all_text  # the GM reads it, privately

        history = sb.command("history", {"limit": 25}, guild=g, channel="mesa", user="gm")
        assert "Acechar" in history.all_text and "Iniciativa" in history.all_text
        assert "105" in history.all_text and says(history, "history.imported_mark")

        chronicle = sb.command("campaign export", {}, guild=g, channel="mesa", user="gm")
        ((_, payload),) = chronicle.attachments.items()
        files = _files(payload)
        public = files["scenes/001-el-muelle.md"].decode()
        assert "La niebla cubre el muelle" in public and "Brom" in public
        assert "Objeto    | Cantidad" in public  # the table, as text
        assert (
            "SECRETO-ALDARA" not in public
            and "SECRETO-ALDARA" not in files["scenes/001-el-muelle.html"].decode()
        )
        gm = files["gm/scenes/001-el-muelle.md"].decode()
        assert "SECRETO-ALDARA" in gm  # the GM half holds the director-only post
        posts = [json.loads(line) for line in files["gm/posts.jsonl"].decode().splitlines()]
        assert [p["gm_only"] for p in posts if "SECRETO" in p["text"]] == [True]
        rolls = files["gm/rolls.csv"].decode()
        assert "Acechar" in rolls and "imported" in rolls

        claimed = sb.command(
            "sheet claim",
            {"character": "Aldara", "member": g.member("ana")},
            guild=g,
            channel="mesa",
            user="gm",
        ).expect_ok()
        assert "lluvia_de_marzo" in claimed.all_text
        mine = sb.command(
            "history", {"user": g.member("ana"), "limit": 25}, guild=g, channel="mesa", user="ana"
        )
        assert "Acechar" in mine.all_text
        refused = sb.command(
            "sheet claim",
            {"character": "Brom", "member": g.member("ana")},
            guild=g,
            channel="mesa",
            user="ana",
        )
        assert refused.ephemeral and "Acechar" not in refused.all_text
    finally:
        sb.close()
