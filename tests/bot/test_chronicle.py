"""The chronicle (``/campaign export`` and ``/campaign import``) on real databases.

Scenes and posts are written directly as rows (the scenes and posting services add them in
play); everything else goes through the services.  The HTML pages are parsed to prove they
load nothing, and the GM's material is checked to stay inside ``gm/``.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import posixpath
import re
import zipfile
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from sqlalchemy import func
from sqlmodel import select

from bot.db.models import Campaign, Character, Post, RollLog, Scene, XpAward
from bot.services import Actor, Place
from bot.services.chronicle.archive import GM_POSTS, MAX_FILES, MAX_UNCOMPRESSED
from bot.services.chronicle.service import MAX_JOBS, ArchiveProblems, _Jobs, scene_channel
from bot.services.shared.audience import Part, Secrecy
from bot.services.shared.errors import AlreadyBound, DomainError, NotAllowed, NotReferee
from bot.services.sheets.profiles import ProfileChange
from tests.examples import ARDELIA

GUILD, CHANNEL, THREAD, PRIVATE_THREAD = 1000, 11, 51, 52
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")
OTHER_GUILD, OTHER_CHANNEL = 2000, 21
THERE = Place(OTHER_GUILD, OTHER_CHANNEL, (OTHER_CHANNEL,))
NEW_GM = Actor(9, "Carla", can_manage_channels=True)
SCRIPT = "<script>alert('x')</script> y un <img src=http://evil.example/x.png>"
T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)


def sheet(name: str, **extra: Any) -> dict[str, Any]:
    return dict(json.loads(json.dumps(ARDELIA)), name=name, **extra)


async def _add(services, *rows: Any) -> list[Any]:
    async with services.sessions() as session, session.begin():
        for row in rows:
            session.add(row)
            await session.flush()
    return list(rows)


@pytest.fixture
async def table(services):
    """A campaign with a public scene (a GM-only post, a deleted post, a post with `<script>`,
    a public and a private roll), a private scene, a hidden NPC, an XP grant."""
    await services.campaigns.create(
        HERE, GM, name="Las Estrellas", system="nucleo", target_id=CHANNEL, kind="channel"
    )
    ardelia = await services.characters.create(HERE, ANA, sheet("Ardelia"))
    spy = await services.characters.create(
        HERE, GM, sheet("Espía Oculta", pnj=True), is_npc=True, hidden=True
    )
    await services.xp.grant(HERE, GM, 3, character="Ardelia", reason="Sesión 1")
    await services.xp.grant(HERE, GM, 1, character="Espía Oculta", reason="secreto")
    campaign = await services.campaigns.show(HERE)
    cid = campaign.id
    hall, cellar = await _add(
        services,
        Scene(
            guild_id=GUILD,
            campaign_id=cid,
            channel_id=THREAD,
            parent_id=CHANNEL,
            title="La Posada del Grifo",
            status="closed",
            opened_by=GM.user_id,
            created_at=T0,
            closed_at=T0 + timedelta(days=3),
        ),
        Scene(
            guild_id=GUILD,
            campaign_id=cid,
            channel_id=PRIVATE_THREAD,
            parent_id=CHANNEL,
            title="El sótano",
            status="open",
            private=True,
            players=[ANA.user_id],
            opened_by=GM.user_id,
            created_at=T0,
        ),
    )
    public_roll, private_roll, second_roll = await _add(
        services,
        RollLog(
            guild_id=GUILD,
            channel_id=THREAD,
            campaign_id=cid,
            user_id=ANA.user_id,
            user_name="Ana",
            character_name="Ardelia",
            kind="check",
            expression="1o3d10+5",
            reason="Percepción",
            breakdown="[3, 7, 9] → 7 + 5",
            total=12,
            difficulty=10,
            outcome="success",
            detail={"dice": [3, 7, 9]},
            created_at=T0 + timedelta(hours=1),
        ),
        RollLog(
            guild_id=GUILD,
            channel_id=THREAD,
            campaign_id=cid,
            user_id=GM.user_id,
            user_name="Máster",
            character_name="Espía Oculta",
            kind="roll",
            expression="1d10+999",
            breakdown="[4] + 999",
            total=1003,
            private=True,
            detail={"secret": {"defensa": 7717}},
            created_at=T0 + timedelta(hours=2),
            # as the writers decide it (bot.services.shared.audience): the GM's private roll
            **Secrecy.private(GM.user_id).sealing(Part.DETAIL).columns(),
        ),
        RollLog(  # the second [[…]] of Ardelia's typed post (issue 24)
            guild_id=GUILD,
            channel_id=THREAD,
            campaign_id=cid,
            user_id=ANA.user_id,
            user_name="Ana",
            character_name="Ardelia",
            kind="roll",
            expression="1d6",
            breakdown="[5]",
            total=5,
            created_at=T0 + timedelta(hours=1),
        ),
    )
    posts = [
        Post(
            guild_id=GUILD,
            campaign_id=cid,
            channel_id=THREAD,
            scene_id=hall.id,
            message_ids=[900],
            author_user_id=GM.user_id,
            speaker_name="Narrador",
            gm_post=True,
            text="La lluvia golpea los **postigos**.",
            created_at=T0,
        ),
        Post(
            guild_id=GUILD,
            campaign_id=cid,
            channel_id=THREAD,
            scene_id=hall.id,
            message_ids=[901, 902],
            author_user_id=ANA.user_id,
            character_id=ardelia.id,
            speaker_name="Ardelia",
            text=SCRIPT,
            notes="OOC: mañana no puedo",
            roll_log_id=public_roll.id,
            roll_log_ids=[public_roll.id, second_roll.id],
            created_at=T0 + timedelta(hours=1),
            edited_at=T0 + timedelta(hours=1, minutes=5),
        ),
        Post(
            guild_id=GUILD,
            campaign_id=cid,
            channel_id=99,
            scene_id=hall.id,
            author_user_id=GM.user_id,
            character_id=spy.id,
            speaker_name="Espía Oculta",
            gm_post=True,
            gm_only=True,
            text="SECRETO: la espía escucha tras la puerta",
            roll_log_id=private_roll.id,
            created_at=T0 + timedelta(hours=2),
            **Secrecy.private(GM.user_id).columns(),  # a GM-only post: its author's and the GM's
        ),
        Post(
            guild_id=GUILD,
            campaign_id=cid,
            channel_id=THREAD,
            scene_id=hall.id,
            author_user_id=ANA.user_id,
            character_id=ardelia.id,
            speaker_name="Ardelia",
            text="BORRADO: me equivoqué de escena",
            created_at=T0 + timedelta(hours=3),
            deleted_at=T0 + timedelta(hours=4),
        ),
        Post(
            guild_id=GUILD,
            campaign_id=cid,
            channel_id=PRIVATE_THREAD,
            scene_id=cellar.id,
            author_user_id=ANA.user_id,
            character_id=ardelia.id,
            speaker_name="Ardelia",
            text="PRIVADA: bajo al sótano sola",
            created_at=T0 + timedelta(hours=5),
        ),
    ]
    await _add(services, *posts)
    return services


def unzip(payload: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode())))


def jsonl(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.decode().splitlines()]


async def export(services, place=HERE, actor=GM) -> dict[str, bytes]:
    chronicle = await services.chronicle.export(place, actor, "es", 10 * 2**20)
    return unzip(chronicle.payload)


class Resources(HTMLParser):
    """Every tag, and every attribute that could load or link anything."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.urls: list[tuple[str, str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "srcset", "action", "poster", "data", "background"):
                self.urls.append((tag, name, value or ""))
            assert not name.startswith("on"), (tag, name)  # no inline event handlers

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(page: bytes) -> Resources:
    parser = Resources()
    parser.feed(page.decode("utf-8"))
    parser.close()
    return parser


def assert_self_contained(
    page: bytes, files: dict[str, bytes] | None = None, path: str = ""
) -> Resources:
    """Nothing on the page loads from outside its folder: no script, no frame, images that
    are ``data:`` or files of the archive named relatively (which exist, given ``files``
    and the page's ``path``), links between the chronicle's own pages."""
    found = parsed(page)
    assert not {"script", "link", "iframe", "object", "embed", "base", "form"} & set(found.tags)
    for tag, _attribute, value in found.urls:
        if tag == "img" and value.startswith("data:image/"):
            continue
        # an image file of the archive, or a link between its pages: relative, no scheme
        assert tag in ("a", "img") and ":" not in value and not value.startswith("/"), value
        if tag == "img" and files is not None:
            assert posixpath.normpath(posixpath.join(posixpath.dirname(path), value)) in files
    return found


async def test_the_zip_holds_every_part(table):
    files = await export(table)
    manifest = json.loads(files["manifest.json"])
    assert manifest["format"] == "arbitro.chronicle" and manifest["version"] == 2
    assert manifest["campaign"]["name"] == "Las Estrellas"
    assert manifest["campaign"]["system"] == "nucleo"
    assert manifest["counts"] == {
        "scenes": 2,
        "posts": 5,
        "characters": 2,
        "xp_awards": 2,
        "rolls": 5,  # the two checks, the typed post's second roll and the two XP grants' rows
    }
    for name in (
        "index.html",
        "index.md",
        "scenes/001-la-posada-del-grifo.md",
        "scenes/001-la-posada-del-grifo.html",
        "gm/scenes/001-la-posada-del-grifo.html",
        "gm/scenes/002-el-sotano.html",
        "gm/unplaced.html",
        "characters/profiles.json",
        "xp.csv",
        "rolls.csv",
        "gm/characters.json",
        "gm/characters/001-ardelia.json",
        "gm/characters/002-espia-oculta.json",
        "gm/xp.csv",
        "gm/rolls.csv",
        "gm/scenes.jsonl",
        "gm/posts.jsonl",
    ):
        assert name in files, name
    document = json.loads(files["gm/characters/001-ardelia.json"])
    assert (document["format"], document["version"], document["system"]) == (
        "arbitro.sheet",
        1,
        "nucleo",
    )
    assert document["sheet"]["name"] == "Ardelia" and document["npc"] is False
    (award,) = rows(files["xp.csv"])
    assert (award["character_name"], award["amount"], award["reason"]) == (
        "Ardelia",
        "3",
        "Sesión 1",
    )
    grant, roll, second = rows(files["rolls.csv"])  # the hidden NPC's grant is the GM's
    assert grant["character_name"] == "Ardelia"
    assert (roll["expression"], roll["total"], roll["breakdown"]) == (
        "1o3d10+5",
        "12",
        "[3, 7, 9] → 7 + 5",
    )
    assert (second["expression"], second["total"]) == ("1d6", "5")
    # the typed post lists both of its rolls, in order (issue 24)
    typed = next(p for p in map(json.loads, files[GM_POSTS].splitlines()) if p["notes"])
    assert typed["roll"] == typed["rolls"][0] and len(typed["rolls"]) == 2


async def test_the_public_half_keeps_the_gms_secrets(table):
    files = await export(table)
    public = {n: d.decode() for n, d in files.items() if not n.startswith("gm/")}
    blob = re.sub(r"data:[^\"]+", "", "\n".join(public.values()))  # not in base64 avatars
    for secret in (
        "SECRETO",
        "BORRADO",
        "PRIVADA",
        "Espía Oculta",
        "1d10+999",
        "1003",
        "7717",
        "defensa",
    ):
        assert secret not in blob, secret
    assert not any(name.startswith("scenes/002") for name in public)  # the private scene
    profiles = json.loads(public["characters/profiles.json"])
    assert [p["name"] for p in profiles] == ["Ardelia"]
    gm = files["gm/scenes/001-la-posada-del-grifo.html"].decode()
    assert "SECRETO" in gm and "BORRADO" in gm and "1d10+999" in gm
    assert "PRIVADA" in files["gm/scenes/002-el-sotano.md"].decode()
    assert {"1o3d10+5", "1d10+999"} <= {r["expression"] for r in rows(files["gm/rolls.csv"])}
    secret_roll = next(r for r in rows(files["gm/rolls.csv"]) if r["expression"] == "1d10+999")
    assert json.loads(secret_roll["detail"]) == {"secret": {"defensa": 7717}}
    hidden = next(c for c in json.loads(files["gm/characters.json"]) if c["hidden"])
    assert hidden["name"] == "Espía Oculta" and hidden["npc"] is True
    assert len(rows(files["gm/xp.csv"])) == 2


async def test_the_pages_load_nothing_and_show_user_text_as_text(table):
    files = await export(table)
    pages = [name for name in files if name.endswith(".html")]
    assert len(pages) == 5  # the index, one public scene, two GM scenes, posts outside scenes
    for name in pages:
        assert_self_contained(files[name])
    page = files["scenes/001-la-posada-del-grifo.html"].decode()
    found = assert_self_contained(page.encode())
    assert SCRIPT in "".join(found.text)  # shown as written, parsed as text
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert found.tags.count("img") == 2  # one avatar per public post (the narrator, Ardelia)
    assert "Content-Security-Policy" in page
    text = "".join(found.text)
    assert "OOC: mañana no puedo" in text and "Percepción" in text and "[3, 7, 9]" in text
    assert text.index("La lluvia") < text.index("alert")  # posts in order
    markdown = files["scenes/001-la-posada-del-grifo.md"].decode()
    assert "### Ardelia" in markdown and "**postigos**" in markdown  # Markdown kept
    index = parsed(files["index.html"])
    assert ("a", "href", "scenes/001-la-posada-del-grifo.html") in index.urls


async def test_only_the_referee_exports(table):
    with pytest.raises(NotReferee):
        await table.chronicle.export(HERE, ANA, "es", 10 * 2**20)


async def test_a_chronicle_over_the_upload_limit_comes_in_independent_parts(table):
    """Issue 22 §3: never fail with nothing.  Past the server's upload limit the export is
    split into zips within it: the first holds the whole record (it imports alone), the
    others whole scenes' pages with the images they show; each opens on its own."""
    await table.profiles.update(HERE, ANA, "Ardelia", ProfileChange(avatar=png(96, 96, seed=1)))
    await _long_posts(table, THREAD, count=12)
    await _long_posts(table, PRIVATE_THREAD, count=12)
    whole = await table.chronicle.export(HERE, GM, "es", 100 * 2**20)
    assert len(whole.parts) == 1
    limit = int(len(whole.payload) * 0.7)
    split = await table.chronicle.export(HERE, GM, "es", limit)
    assert len(split.parts) >= 2, [len(p) for _, p in split.parts]
    names = [name for name, _ in split.parts]
    assert names[0] == f"arbitro-las-estrellas-parte-1-de-{len(names)}.zip", names
    scenes_seen: set[str] = set()
    for number, (_name, payload) in enumerate(split.parts, start=1):
        assert len(payload) <= limit, (number, len(payload), limit)
        files = unzip(payload)
        manifest = json.loads(files["manifest.json"])
        assert manifest["part"]["number"] == number and manifest["part"]["of"] == len(names)
        assert "index.html" in files and f"{number} de {len(names)}" in files["index.html"].decode()
        for path, data in files.items():
            if path.endswith(".html"):
                assert_self_contained(data, files, path)  # its images are in this zip
            if path.startswith(("scenes/", "gm/scenes/")):
                scenes_seen.add(path)
        if number > 1:
            assert "gm/posts.jsonl" not in files and manifest["part"]["pages_only"]
            with pytest.raises(ArchiveProblems) as refused:
                await table.chronicle.import_archive(
                    THERE, NEW_GM, payload, target_id=OTHER_CHANNEL, kind="channel"
                )
            assert [key for key, _ in refused.value.problems] == ["chronicle.problem.pages_only"]
    assert scenes_seen == {
        n for n in unzip(whole.payload) if n.startswith(("scenes/", "gm/scenes/"))
    }
    # the first part alone moves the whole campaign, avatars included
    moved = await table.chronicle.import_archive(
        THERE, NEW_GM, split.parts[0][1], target_id=OTHER_CHANNEL, kind="channel"
    )
    assert moved.counts == json.loads(unzip(whole.payload)["manifest.json"])["counts"]
    assert (await table.profiles.show(THERE, ANA, "Ardelia")).avatar is not None


async def test_each_image_is_stored_once_and_every_page_names_it(table):
    """Forty posts by one character with a 192 KiB avatar made a 15.6 MB zip: the image is
    now one file of the archive (public ``media/``; a hidden NPC's in ``gm/media/``), and the
    public and GM pages and the profiles name it."""
    avatar = png(256, 256, seed=2)
    assert 180 * 1024 < len(avatar) <= 256 * 1024
    secret_face = png(16, 16, seed=3)
    await table.profiles.update(HERE, ANA, "Ardelia", ProfileChange(avatar=avatar))
    await table.profiles.update(HERE, GM, "Espía Oculta", ProfileChange(avatar=secret_face))
    await _long_posts(table, THREAD, count=40, size=200)
    payload = (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload
    assert len(payload) < len(avatar) + 256 * 1024, len(payload)  # once, not forty times
    files = unzip(payload)
    media = {name: data for name, data in files.items() if "media/" in name}
    public = [name for name in media if name.startswith("media/")]
    hidden = [name for name in media if name.startswith("gm/media/")]
    assert [media[n] for n in public] == [avatar] and [media[n] for n in hidden] == [secret_face]
    page = files["scenes/001-la-posada-del-grifo.html"].decode()
    assert page.count(f'src="../{public[0]}"') >= 40
    assert f'src="../../{public[0]}"' in files["gm/scenes/001-la-posada-del-grifo.html"].decode()
    assert_self_contained(page.encode(), files, "scenes/001-la-posada-del-grifo.html")
    players = "\n".join(
        data.decode("utf-8", "replace")
        for name, data in files.items()
        if not name.startswith("gm/")
    )
    assert "gm/media" not in players and hidden[0].rsplit("/", 1)[1] not in players
    (profile,) = json.loads(files["characters/profiles.json"])
    assert profile["avatar"] == {"type": "image/png", "file": public[0]}


async def test_the_export_round_trips_what_it_shows(table):
    """The scene's opening text, private-note flags and audiences, roll lines in the
    campaign's language and times in its time zone travel and come back the same."""
    from bot.services.campaigns.service import SettingsChange

    async with table.sessions() as session, session.begin():
        hall = (await session.exec(select(Scene).where(Scene.channel_id == THREAD))).one()
        hall.opening_text = "APERTURA: Llueve sobre la posada del Grifo."
        session.add(hall)
        notes = (await session.exec(select(Post).where(Post.notes == "OOC: mañana no puedo"))).one()
        notes.notes_private = True
        notes.secrets = {"sealed": ["notes"]}
        notes.audience_user_id = ANA.user_id
        session.add(notes)
    await table.campaigns.update_settings(
        HERE, GM, SettingsChange(system_setting=("zona_horaria", "America/Bogota"))
    )
    files = await export(table)
    public = files["scenes/001-la-posada-del-grifo.html"].decode()
    gm = files["gm/scenes/001-la-posada-del-grifo.md"].decode()
    assert "APERTURA: Llueve" in public and "APERTURA: Llueve" in gm
    assert "OOC: mañana no puedo" not in public and "Notas privadas" in gm
    assert "· Éxito" in public and "success" not in public  # 1o3d10+5 … · Éxito
    # 18:00 UTC is 13:00 in Bogotá (-05), written the campaign's way (day first)
    assert "01/11/2026 13:00 -05" in public, public
    moved = await table.chronicle.import_archive(
        THERE, NEW_GM, (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload,
        target_id=OTHER_CHANNEL, kind="channel",
    )  # fmt: skip
    assert moved.counts["posts"] == 5
    again = await export(table, THERE, NEW_GM)
    assert "APERTURA: Llueve" in again["scenes/001-la-posada-del-grifo.html"].decode()
    assert "OOC: mañana no puedo" not in again["scenes/001-la-posada-del-grifo.html"].decode()
    assert "01/11/2026 13:00 -05" in again["scenes/001-la-posada-del-grifo.html"].decode()
    posts = jsonl(again["gm/posts.jsonl"])
    (flagged,) = [p for p in posts if p["notes"] == "OOC: mañana no puedo"]
    assert flagged["notes_private"] is True and flagged["secrets"] == {"sealed": ["notes"]}
    gm_only = [p for p in posts if p["gm_only"]]
    assert gm_only and all(p["audience"] == "player" for p in gm_only)


async def test_too_many_jobs_at_once_are_refused(table):
    _Jobs.running = MAX_JOBS
    try:
        with pytest.raises(DomainError) as refused:
            await table.chronicle.export(HERE, GM, "es", 10 * 2**20)
        assert refused.value.key == "chronicle.error.busy"
    finally:
        _Jobs.running = 0


async def test_a_campaign_past_the_estimate_is_refused_before_reading(table, monkeypatch):
    monkeypatch.setattr("bot.services.chronicle.service.TEXT_FACTOR", MAX_UNCOMPRESSED)
    with pytest.raises(DomainError) as refused:
        await table.chronicle.export(HERE, GM, "es", 10 * 2**20)
    assert refused.value.key == "chronicle.error.too_big_to_export"


def comparable(files: dict[str, bytes]) -> dict[str, Any]:
    """The files that must survive a move, without what a move changes on purpose (the
    export time, the GM, scenes closed by the import)."""
    manifest = json.loads(files["manifest.json"])
    del manifest["exported_at"], manifest["campaign"]["gm_user_id"]
    del manifest["campaign"]["created_at"]
    scenes = [{**s, "status": "closed", "closed_at": None} for s in jsonl(files["gm/scenes.jsonl"])]
    characters = json.loads(files["gm/characters.json"])
    for c in characters:
        c["owner_user_id"] = (
            "gm" if c["owner_user_id"] in (GM.user_id, NEW_GM.user_id) else c["owner_user_id"]
        )
        c["active_for"] = [
            "gm" if u in (GM.user_id, NEW_GM.user_id) else u for u in c["active_for"]
        ]
    same = {
        name: data
        for name, data in files.items()
        if name.startswith(("gm/characters/", "characters/", "gm/unplaced"))
        or name in ("gm/posts.jsonl", "gm/xp.csv", "gm/rolls.csv", "xp.csv", "rolls.csv")
        or name.startswith(("scenes/001", "gm/scenes/001"))  # closed before: identical pages
    }
    return {"manifest": manifest, "scenes": scenes, "characters": characters, **same}


async def test_export_import_export_gives_the_same_chronicle(table):
    first = (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload
    summary = await table.chronicle.import_archive(
        THERE, NEW_GM, first, target_id=OTHER_CHANNEL, kind="channel"
    )
    assert summary.counts == {"scenes": 2, "posts": 5, "characters": 2, "xp_awards": 2, "rolls": 5}
    assert summary.campaign.gm_user_id == NEW_GM.user_id
    assert summary.campaign.name == "Las Estrellas"
    second = await export(table, THERE, NEW_GM)
    assert comparable(unzip(first)) == comparable(second)
    # owners keep their ids; the old GM's NPC passes to the new GM; Ana plays Ardelia there
    ardelia = await table.characters.show(THERE, ANA)
    assert ardelia.name == "Ardelia"
    async with table.sessions() as session:
        spy = (
            await session.exec(
                select(Character).where(Character.guild_id == OTHER_GUILD, Character.hidden)
            )
        ).one()
        assert spy.owner_user_id == NEW_GM.user_id and spy.is_npc
        scenes = (await session.exec(select(Scene).where(Scene.guild_id == OTHER_GUILD))).all()
        assert {s.status for s in scenes} == {"closed"}
        assert all(s.channel_id < 0 for s in scenes)
        posts = (await session.exec(select(Post).where(Post.guild_id == OTHER_GUILD))).all()
        assert all(p.message_ids == [] for p in posts)
        linked = next(p for p in posts if p.roll_log_id is not None and not p.gm_only)
        roll = await session.get(RollLog, linked.roll_log_id)
        assert roll is not None and roll.guild_id == OTHER_GUILD and roll.total == 12
        # a post's several rolls travel together, in order
        both = [await session.get(RollLog, i) for i in linked.roll_log_ids]
        assert [r.total for r in both] == [12, 5] and linked.roll_log_ids[0] == roll.id
        assert roll.channel_id == scene_channel(summary.campaign.id, 1)
        awards = (await session.exec(select(XpAward).where(XpAward.guild_id == OTHER_GUILD))).all()
        assert {a.character_id for a in awards} <= {
            c.id
            for c in (
                await session.exec(select(Character).where(Character.guild_id == OTHER_GUILD))
            ).all()
        }
    # the imported campaign plays on: a new grant lands on the imported sheet
    view = await table.xp.grant(THERE, NEW_GM, 2, character="Ardelia")
    assert view.lines[0].xp_before == 3 and view.lines[0].xp_after == 5


async def test_a_move_to_another_channel_of_the_same_server(table):
    payload = (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload
    other = Place(GUILD, 12, (12,))
    await table.chronicle.import_archive(other, GM, payload, target_id=12, kind="channel")
    again = Place(GUILD, 13, (13,))
    await table.chronicle.import_archive(again, GM, payload, target_id=13, kind="channel")
    assert (await table.characters.show(other, ANA)).name == "Ardelia"
    assert (await table.characters.show(again, ANA)).name == "Ardelia"


async def campaigns(services) -> int:
    async with services.sessions() as session:
        return (await session.exec(select(func.count()).select_from(Campaign))).one()


def rezip(files: dict[str, bytes], **changes: bytes | None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in {**files, **changes}.items():
            if data is not None:
                archive.writestr(name, data)
    return out.getvalue()


async def refused(services, payload: bytes) -> list[str]:
    before = await campaigns(services)
    with pytest.raises(ArchiveProblems) as error:
        await services.chronicle.import_archive(
            THERE, NEW_GM, payload, target_id=OTHER_CHANNEL, kind="channel"
        )
    assert await campaigns(services) == before  # nothing written
    return [key for key, _params in error.value.problems]


async def test_import_lists_what_is_wrong_and_writes_nothing(table):
    files = await export(table)
    manifest = json.loads(files["manifest.json"])
    assert await refused(table, b"not a zip") == ["chronicle.problem.not_zip"]
    wrong = dict(manifest, version=99)
    assert await refused(table, rezip(files, **{"manifest.json": json.dumps(wrong).encode()})) == [
        "chronicle.problem.wrong_version"
    ]
    assert await refused(table, rezip(files, **{"manifest.json": None})) == [
        "chronicle.problem.missing_file"
    ]
    # several problems at once: a count that does not match, a broken post, a bad sheet
    counts = dict(manifest, counts={**manifest["counts"], "rolls": 7})
    posts = jsonl(files["gm/posts.jsonl"])
    posts[0]["character"] = 42  # no such character in the archive
    posts[1]["text"] = 12
    ardelia = json.loads(files["gm/characters/001-ardelia.json"])
    ardelia["sheet"]["px"] = "muchos"
    keys = await refused(
        table,
        rezip(
            files,
            **{
                "manifest.json": json.dumps(counts).encode(),
                "gm/posts.jsonl": "".join(json.dumps(p) + "\n" for p in posts).encode(),
                "gm/characters/001-ardelia.json": json.dumps(ardelia).encode(),
            },
        ),
    )
    assert "chronicle.problem.count_mismatch" in keys
    assert keys.count("chronicle.problem.bad_value") == 2
    assert "chronicle.problem.in_file" in keys


async def test_import_refuses_paths_out_of_the_archive_and_bombs(table):
    files = await export(table)
    assert "chronicle.problem.bad_path" in await refused(
        table, rezip(files, **{"../../etc/passwd": b"x"})
    )
    assert "chronicle.problem.bad_path" in await refused(table, rezip(files, **{"/abs": b"x"}))
    # a member that would inflate past the limit: refused from its header, never decompressed
    # (the header declares MAX_UNCOMPRESSED + 1 bytes; compressing 256 MB of zeros to build a
    # real one cost two seconds of every test run and proved nothing more)
    bomb = _declare_size(bytearray(rezip(files, **{"gm/huge.txt": b"\0" * 1024})),
                         "gm/huge.txt", MAX_UNCOMPRESSED + 1)  # fmt: skip
    assert await refused(table, bomb) == ["chronicle.problem.uncompressed_too_big"]
    # a header that lies about its size: more comes out than it declares (1 byte)
    liar = bytearray(rezip(files, **{"gm/posts.jsonl": b"\n" * 2**20}))
    assert "chronicle.problem.corrupt_file" in await refused(
        table, _declare_size(liar, "gm/posts.jsonl", 1)
    )
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as archive:  # stored, not deflated: 20,000 empty members
        for name, data in {**files, **{f"x/{n}": b"" for n in range(MAX_FILES)}}.items():
            archive.writestr(name, data)
    assert await refused(table, many.getvalue()) == ["chronicle.problem.too_many_files"]


def _declare_size(payload: bytearray, member: str, size: int) -> bytes:
    """The archive with ``member`` declaring ``size`` bytes uncompressed, in its local header
    and in the central directory (what a crafted archive can claim)."""
    data = bytes(payload)
    for signature, size_at, name_length_at, name_at in (
        (b"PK\x03\x04", 22, 26, 30),
        (b"PK\x01\x02", 24, 28, 46),
    ):
        start = 0
        while (start := data.find(signature, start)) != -1:
            length = int.from_bytes(
                data[start + name_length_at : start + name_length_at + 2], "little"
            )
            if data[start + name_at : start + name_at + length] == member.encode():
                payload[start + size_at : start + size_at + 4] = size.to_bytes(4, "little")
            start += 4
    return bytes(payload)


async def test_import_needs_the_permission_to_create_a_campaign(table):
    payload = (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload
    with pytest.raises(NotAllowed):
        await table.chronicle.import_archive(
            THERE, ANA, payload, target_id=OTHER_CHANNEL, kind="channel"
        )


async def test_import_into_a_bound_channel_is_refused(table):
    payload = (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload
    with pytest.raises(AlreadyBound):
        await table.chronicle.import_archive(HERE, GM, payload, target_id=CHANNEL, kind="channel")


async def test_two_imports_into_one_channel_at_once_bind_it_once(table):
    payload = (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload
    before = await campaigns(table)
    results = await asyncio.gather(
        *(
            table.chronicle.import_archive(
                THERE, NEW_GM, payload, target_id=OTHER_CHANNEL, kind="channel"
            )
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    # a server has one bulk job at a time (bot.compute): the second is refused at once, or,
    # had the first left the worker already, finds the channel bound when it binds
    # (test_chronicle_restore.py): one campaign either way
    outcome = sorted(type(r).__name__ for r in results)
    assert outcome in (["ComputeBusy", "ImportSummary"], ["AlreadyBound", "ImportSummary"]), results
    assert await campaigns(table) == before + 1
    async with table.sessions() as session:
        count = (
            await session.exec(
                select(func.count()).select_from(Character).where(Character.guild_id == OTHER_GUILD)
            )
        ).one()
    assert count == 2  # the loser wrote nothing


async def test_an_imported_campaign_with_a_hidden_name_clash_is_refused(table):
    files = await export(table)
    characters = json.loads(files["gm/characters.json"])
    characters[1]["name"] = "Ardelia"
    spy = json.loads(files["gm/characters/002-espia-oculta.json"])
    spy["sheet"]["name"] = "Ardelia"
    keys = await refused(
        table,
        rezip(
            files,
            **{
                "gm/characters.json": json.dumps(characters).encode(),
                "gm/characters/002-espia-oculta.json": json.dumps(spy).encode(),
            },
        ),
    )
    assert keys == ["chronicle.problem.duplicate_name"]


def test_a_refusal_crosses_from_the_worker_process_whole_and_reads_in_both_languages():
    import pickle

    from cogs.ui.render_chronicle import problems

    error = ArchiveProblems()
    error.add("chronicle.problem.bad_path", path="../x")
    error.add("chronicle.problem.missing_file", path="gm/posts.jsonl")
    for _ in range(20):
        error.add("chronicle.problem.not_zip")
    copy = pickle.loads(pickle.dumps(error))
    assert copy.problems == error.problems and copy.more == error.more > 0
    spanish, english = problems(copy, "es"), problems(copy, "en")
    assert "«../x»" in spanish and "No se ha importado nada" in spanish
    assert '"gm/posts.jsonl" is missing' in english and "more problems" in english


async def test_a_character_awaiting_approval_still_awaits_it_after_a_move(table):
    from sqlalchemy import update

    async with table.sessions() as session, session.begin():
        await session.exec(
            update(Character).where(Character.name == "Ardelia").values(approval="pending")
        )
    payload = (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload
    files = unzip(payload)
    assert [c["approval"] for c in json.loads(files["gm/characters.json"])] == [
        "pending",
        "approved",
    ]
    await table.chronicle.import_archive(
        THERE, NEW_GM, payload, target_id=OTHER_CHANNEL, kind="channel"
    )
    async with table.sessions() as session:
        moved = (
            await session.exec(
                select(Character).where(
                    Character.guild_id == OTHER_GUILD, Character.name == "Ardelia"
                )
            )
        ).one()
    assert moved.approval == "pending"
    characters = json.loads(files["gm/characters.json"])
    characters[0]["approval"] = "quizás"
    keys = await refused(
        table, rezip(files, **{"gm/characters.json": json.dumps(characters).encode()})
    )
    assert keys == ["chronicle.problem.bad_value"]


async def test_a_stored_avatar_and_the_public_profile_travel_in_the_chronicle(table):
    """``/sheet profile``'s bytes are one image file of the archive (no link to expire) and its
    concept and description are in the public profiles; a move carries them along."""
    avatar = png(8, 8, seed=4)
    await table.profiles.update(
        HERE, ANA, "Ardelia", ProfileChange(concept="Piloto mercenaria", avatar=avatar)
    )
    files = await export(table)
    (ardelia,) = [
        p for p in json.loads(files["characters/profiles.json"]) if p["name"] == "Ardelia"
    ]
    assert ardelia["concept"] == "Piloto mercenaria"
    assert files[ardelia["avatar"]["file"]] == avatar
    page = files["scenes/001-la-posada-del-grifo.html"].decode()
    assert f'src="../{ardelia["avatar"]["file"]}"' in page
    assert_self_contained(page.encode(), files, "scenes/001-la-posada-del-grifo.html")
    # a move carries the profile: the bytes, checked again, become the new campaign's avatar
    moved = await table.chronicle.import_archive(
        THERE, NEW_GM, (await table.chronicle.export(HERE, GM, "es", 10 * 2**20)).payload,
        target_id=OTHER_CHANNEL, kind="channel",
    )  # fmt: skip
    assert moved.counts["characters"] == 2
    there = await table.profiles.show(THERE, ANA, "Ardelia")
    assert there.concept == "Piloto mercenaria" and there.avatar is not None
    assert there.avatar.data == avatar
    again = await export(table, THERE, NEW_GM)
    assert again[ardelia["avatar"]["file"]] == avatar  # the same name: the same bytes


def png(width: int, height: int, *, seed: int) -> bytes:
    """A real PNG of random RGB pixels (they do not compress: its size is what it holds)."""
    import random as _random
    import struct
    import zlib

    noise = _random.Random(seed)
    raw = b"".join(
        b"\x00" + bytes(noise.getrandbits(8) for _ in range(width * 3)) for _ in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


async def _long_posts(services, channel: int, *, count: int, size: int = 6000) -> None:
    """``count`` posts by Ardelia in the scene of ``channel``, each ``size`` characters of
    text that does not compress."""
    import random as _random

    noise = _random.Random(channel)
    async with services.sessions() as session, session.begin():
        scene = (await session.exec(select(Scene).where(Scene.channel_id == channel))).one()
        ardelia = (await session.exec(select(Character).where(Character.name == "Ardelia"))).one()
        for number in range(count):
            text = base64.b64encode(noise.randbytes(size * 3 // 4)).decode()
            session.add(
                Post(
                    guild_id=GUILD,
                    campaign_id=scene.campaign_id,
                    channel_id=channel,
                    scene_id=scene.id,
                    author_user_id=ANA.user_id,
                    character_id=ardelia.id,
                    speaker_name="Ardelia",
                    text=text,
                    created_at=T0 + timedelta(days=1, minutes=number),
                )
            )
