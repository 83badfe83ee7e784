"""The pictures shown inside imported Umbría posts in the chronicle (issue 27): stored once
under ``media/`` (``gm/media/`` for a director-only post's), shown by the pages, named by the
record, and back as ``PostImage`` rows after ``/campaign import`` — on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest
from sqlmodel import select

from bot.db.models import Campaign, Post, PostImage
from bot.services import Place
from bot.services.chronicle.service import ArchiveProblems
from tests.bot.test_chronicle import png
from tests.bot.test_chronicle_browser import _open
from tests.bot.test_umbria_import import GM, HERE, imported, rows
from tests.browser import browser_missing

#: A picture only the director's post shows (the fixture's director-only post has none).
SECRET_PICTURE = png(20, 10, seed=27)
THERE = Place(4000, 41, (41,))


def _files(payload: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _stored(data: bytes, folder: str = "media") -> str:
    return f"{folder}/{hashlib.sha256(data).hexdigest()[:32]}.png"


async def _with_secret_picture(services) -> bytes:
    """The fixture game, its director-only post showing a picture too; the map's bytes."""
    await imported(services)
    (secret,) = await rows(services, Post, Post.source_ref == "umbria:5004")
    (aldara,) = await rows(services, Post, Post.source_ref == "umbria:5002")
    (mapa,) = await rows(services, PostImage, PostImage.post_id == aldara.id)
    async with services.sessions() as session, session.begin():
        session.add(
            PostImage(
                guild_id=secret.guild_id,
                campaign_id=secret.campaign_id,
                post_id=secret.id,
                name="plano-secreto.png",
                media_type="image/png",
                data=SECRET_PICTURE,
            )
        )
    return bytes(mapa.data)


def _posts(files: dict[str, bytes]) -> dict[str, dict]:
    lines = files["gm/posts.jsonl"].decode().splitlines()
    return {p["source_ref"]: p for p in map(json.loads, lines)}


async def test_a_posts_pictures_are_stored_once_and_shown_by_its_pages(services):
    mapa = await _with_secret_picture(services)
    files = _files((await services.chronicle.export(HERE, GM, "es", 50 * 2**20)).payload)
    public, secret = _stored(mapa), _stored(SECRET_PICTURE, "gm/media")
    assert files[public] == mapa and files[secret] == SECRET_PICTURE
    assert [n for n, d in files.items() if d == mapa] == [public]  # once, in the public half
    assert _stored(SECRET_PICTURE) not in files  # the director's picture: the GM's half only
    page = files["scenes/001-el-muelle.html"].decode()
    assert f'<img class="picture" alt="mapa.png" src="../{public}">' in page
    assert f"![mapa.png](<../{public}>)" in files["scenes/001-el-muelle.md"].decode()
    for name, data in files.items():
        if not name.startswith("gm/"):
            assert secret.encode() not in data and b"plano-secreto" not in data, name
    gm_page = files["gm/scenes/001-el-muelle.html"].decode()
    assert f'src="../../{public}"' in gm_page
    assert 'alt="plano-secreto.png" src="../media/' in gm_page
    posts = _posts(files)
    assert posts["umbria:5002"]["images"] == [
        {"name": "mapa.png", "type": "image/png", "file": public}
    ]
    assert posts["umbria:5004"]["images"] == [
        {"name": "plano-secreto.png", "type": "image/png", "file": secret}
    ]


async def test_a_posts_pictures_survive_export_import_export(services):
    mapa = await _with_secret_picture(services)
    first = (await services.chronicle.export(HERE, GM, "es", 50 * 2**20)).payload
    await services.chronicle.import_archive(THERE, GM, first, target_id=41, kind="channel")
    async with services.sessions() as session:
        campaign = (await session.exec(select(Campaign).where(Campaign.guild_id == 4000))).one()
    posts = {p.id: p for p in await rows(services, Post, Post.campaign_id == campaign.id)}
    pictures = await rows(services, PostImage, PostImage.campaign_id == campaign.id)
    assert sorted(
        (posts[i.post_id].source_ref, i.name, i.media_type, bytes(i.data)) for i in pictures
    ) == [
        ("umbria:5002", "mapa.png", "image/png", mapa),
        ("umbria:5004", "plano-secreto.png", "image/png", SECRET_PICTURE),
    ]
    again = _files((await services.chronicle.export(THERE, GM, "es", 50 * 2**20)).payload)
    before = _files(first)
    for name in (_stored(mapa), _stored(SECRET_PICTURE, "gm/media")):
        assert again[name] == before[name]
    assert {k: p.get("images") for k, p in _posts(again).items()} == {
        k: p.get("images") for k, p in _posts(before).items()
    }
    assert again["scenes/001-el-muelle.html"] == before["scenes/001-el-muelle.html"]


async def test_a_missing_or_malformed_picture_is_a_listed_problem(services):
    mapa = await _with_secret_picture(services)
    files = _files((await services.chronicle.export(HERE, GM, "es", 50 * 2**20)).payload)
    missing = {n: d for n, d in files.items() if n != _stored(mapa)}
    with pytest.raises(ArchiveProblems) as refused:
        await services.chronicle.import_archive(
            THERE, GM, _zip(missing), target_id=41, kind="channel"
        )
    assert ("chronicle.problem.missing_file", {"path": _stored(mapa)}) in refused.value.problems

    posts = _posts(files)
    posts["umbria:5002"]["images"] = [{"name": "mapa.png", "type": "image/png", "file": "../x"}]
    broken = files | {  # a path that is no image file; a file that is no image
        "gm/posts.jsonl": "".join(json.dumps(p) + "\n" for p in posts.values()).encode(),
        _stored(SECRET_PICTURE, "gm/media"): b"<svg>not a stored image</svg>",
    }
    with pytest.raises(ArchiveProblems) as refused:
        await services.chronicle.import_archive(
            THERE, GM, _zip(broken), target_id=41, kind="channel"
        )
    fields = [p.get("field") for key, p in refused.value.problems if key.endswith("bad_value")]
    assert fields == ["images", "images"]
    async with services.sessions() as session:
        assert not (await session.exec(select(Campaign).where(Campaign.guild_id == 4000))).all()


async def test_each_part_of_a_split_export_holds_the_pictures_of_its_pages(services):
    mapa = await _with_secret_picture(services)
    chronicle = await services.chronicle.export(HERE, GM, "es", 1)  # a part per scene
    parts = [_files(payload) for _name, payload in chronicle.parts]
    assert len(parts) > 2
    (muelle,) = [p for p in parts if "scenes/001-el-muelle.html" in p]
    assert muelle[_stored(mapa)] == mapa
    assert muelle[_stored(SECRET_PICTURE, "gm/media")] == SECRET_PICTURE
    assert "gm/posts.jsonl" in parts[0] and _stored(mapa) in parts[0]  # the record's part
    others = [p for p in parts[1:] if "scenes/001-el-muelle.html" not in p]
    assert all(_stored(mapa) not in p for p in others)


@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
async def test_the_pictures_show_in_a_real_browser_offline(services, tmp_path: Path):
    """The scene's public and GM pages opened from the unzipped folder in Chromium with the
    network refused: the pictures are files of the folder, they decode, the page's
    Content-Security-Policy lets them through (a refusal is a console error)."""
    await _with_secret_picture(services)
    chronicle = await services.chronicle.export(HERE, GM, "es", 50 * 2**20)
    folder = tmp_path / "cronica"
    with zipfile.ZipFile(io.BytesIO(chronicle.payload)) as archive:
        archive.extractall(folder)
    pages = ("scenes/001-el-muelle.html", "gm/scenes/001-el-muelle.html")
    public, gm = await asyncio.to_thread(_open, folder, pages, tmp_path)
    for seen in (public, gm):
        assert seen["outside"] == [] and seen["errors"] == [], seen
        assert seen["broken"] == [], seen
    assert gm["stored"] == public["stored"] + 2  # the director's post: its avatar, its picture
