"""What ``/campaign import`` refuses, listing the problem (issue 22 §2, §4): numbers past
what the database stores, avatars past the pixel count."""

from __future__ import annotations

import base64
import json

import pytest

from bot.services.shared.post_text import AVATAR_MAX_PIXELS
from tests.bot.test_chronicle import (
    export,
    jsonl,
    refused,
    rezip,
    table,  # noqa: F401 - the fixture below builds on it
)
from tests.examples import declared_png


@pytest.fixture
async def chronicle(table):  # noqa: F811 - the imported fixture
    """test_chronicle's campaign: a public and a private scene, posts, rolls, a hidden NPC."""
    return table


def _problems(error) -> list[tuple[str, dict]]:  # noqa: ANN001
    return list(error.problems)


@pytest.mark.parametrize("ref", [2**63 - 1, 100_000, 0, -3])
async def test_a_scene_number_out_of_range_is_listed(chronicle, ref):
    """2^63−1 got the generic «Algo ha fallado» (the scene's channel id overflowed the
    column); 100,000 would have named another campaign's scene."""
    files = await export(chronicle)
    scenes = jsonl(files["gm/scenes.jsonl"])
    scenes[0]["ref"] = ref
    posts = jsonl(files["gm/posts.jsonl"])
    for post in posts:
        if post["scene"] == 1:
            post["scene"] = ref
    keys = await refused(
        chronicle,
        rezip(
            files,
            **{
                "gm/scenes.jsonl": "".join(json.dumps(s) + "\n" for s in scenes).encode(),
                "gm/posts.jsonl": "".join(json.dumps(p) + "\n" for p in posts).encode(),
            },
        ),
    )
    assert "chronicle.problem.bad_value" in keys


async def test_the_scene_number_problem_names_the_file_and_field(chronicle):
    from bot.services.chronicle.service import ArchiveProblems

    files = await export(chronicle)
    scenes = jsonl(files["gm/scenes.jsonl"])
    scenes[0]["ref"] = 2**63 - 1
    payload = rezip(
        files, **{"gm/scenes.jsonl": "".join(json.dumps(s) + "\n" for s in scenes).encode()}
    )
    with pytest.raises(ArchiveProblems) as caught:
        await chronicle.chronicle.import_archive(*_there(), payload, target_id=21, kind="channel")
    assert (
        "chronicle.problem.bad_value",
        {"path": "gm/scenes.jsonl", "line": str(2**63 - 1)[:12], "field": "ref"},
    ) in _problems(caught.value)


def _there():
    from tests.bot.test_chronicle import NEW_GM, THERE

    return THERE, NEW_GM


async def test_an_avatar_past_the_pixel_count_is_listed_with_its_size(chronicle):
    files = await export(chronicle)
    characters = json.loads(files["gm/characters.json"])
    bomb = declared_png(30_000, 30_000)
    characters[0]["avatar"] = {"type": "image/png", "data": base64.b64encode(bomb).decode()}
    keys = await refused(
        chronicle, rezip(files, **{"gm/characters.json": json.dumps(characters).encode()})
    )
    assert "post.error.avatar_pixels" in keys


async def test_a_profile_avatar_past_the_pixel_count_is_refused(chronicle):
    from bot.services.shared.errors import DomainError
    from bot.services.sheets.profiles import ProfileChange
    from tests.bot.test_chronicle import ANA, HERE

    with pytest.raises(DomainError) as caught:
        await chronicle.profiles.update(
            HERE, ANA, "Ardelia", ProfileChange(avatar=declared_png(30_000, 30_000))
        )
    assert caught.value.key == "post.error.avatar_pixels"
    assert caught.value.params == {
        "width": 30_000,
        "height": 30_000,
        "frames": 1,
        "limit": AVATAR_MAX_PIXELS,
    }


# -- budgets fixed before reading (issue 22 §2) --------------------------------------------


def _lines(count: int, line: bytes) -> bytes:
    return line * count


async def _refusal(services, payload: bytes) -> list[tuple[str, dict]]:
    from bot.services.chronicle.service import ArchiveProblems

    before = await campaigns_count(services)
    with pytest.raises(ArchiveProblems) as caught:
        await services.chronicle.import_archive(*_there(), payload, target_id=21, kind="channel")
    assert await campaigns_count(services) == before  # nothing written
    return _problems(caught.value)


async def campaigns_count(services) -> int:  # noqa: ANN001
    from tests.bot.test_chronicle import campaigns

    return await campaigns(services)


async def test_a_small_zip_of_millions_of_rows_stops_at_once(chronicle):
    """A 29 KiB zip whose gm/posts.jsonl held millions of «{}» took the worker 140 s and
    1.27 GB while every other server waited: the reading stops at a budget, named first."""
    from bot.services.chronicle.archive import GM_POSTS, MAX_COUNTED_PROBLEMS

    files = await export(chronicle)
    payload = rezip(files, **{GM_POSTS: _lines(5_000_000, b"{}\n")})
    assert len(payload) < 64 * 1024  # the whole attack fits in a message
    problems = await _refusal(chronicle, payload)
    assert problems[0] == ("chronicle.problem.too_many_problems", {"count": MAX_COUNTED_PROBLEMS})


async def test_a_file_past_its_rows_stops_at_the_first_row_too_many(chronicle):
    from bot.services.chronicle.archive import GM_POSTS, MAX_ROWS

    files = await export(chronicle)
    (post, *_rest) = jsonl(files[GM_POSTS])
    rows = (
        json.dumps({**post, "ref": number}).encode() + b"\n"
        for number in range(1, MAX_ROWS[GM_POSTS] + 2)
    )
    problems = await _refusal(chronicle, rezip(files, **{GM_POSTS: b"".join(rows)}))
    assert problems[0] == (
        "chronicle.problem.too_many_rows",
        {"path": GM_POSTS, "limit": MAX_ROWS[GM_POSTS]},
    )


async def test_a_row_past_its_bytes_is_refused_where_it_is(chronicle):
    from bot.services.chronicle.archive import GM_SCENES, MAX_ROW_BYTES

    files = await export(chronicle)
    huge = b'{"title": "' + b"x" * (MAX_ROW_BYTES + 10) + b'"}\n'
    payload = rezip(files, **{GM_SCENES: files[GM_SCENES] + huge})
    problems = await _refusal(chronicle, payload)
    line = files[GM_SCENES].count(b"\n") + 1
    assert (
        "chronicle.problem.row_too_big",
        {"path": GM_SCENES, "line": line, "limit": MAX_ROW_BYTES // 1024},
    ) in problems


async def test_a_file_of_one_endless_line_is_read_no_further_than_a_row(chronicle):
    from bot.services.chronicle.archive import GM_ROLLS

    files = await export(chronicle)
    payload = rezip(files, **{GM_ROLLS: files[GM_ROLLS] + b"x" * (8 * 1024 * 1024)})
    keys = [key for key, _ in await _refusal(chronicle, payload)]
    assert "chronicle.problem.row_too_big" in keys


async def test_the_record_as_a_whole_has_a_budget(chronicle, monkeypatch):
    """Run in this process with a smaller budget (the worker's cannot be patched): the
    fixture's few rows pass one file's budget each but not the whole record's."""
    from bot.services.chronicle import archive
    from bot.services.chronicle.check import read_and_check
    from bot.services.chronicle.service import ArchiveProblems

    payload = (await chronicle.chronicle.export(*_here_gm(), "es", 10 * 2**20)).payload
    assert sum(archive.MAX_ROWS.values()) > archive.MAX_RECORD_ROWS  # the shared budget binds
    monkeypatch.setattr(archive, "MAX_RECORD_ROWS", 3)
    with pytest.raises(ArchiveProblems) as caught:
        read_and_check(payload, 9, None)
    assert _problems(caught.value)[0] == ("chronicle.problem.too_many_record_rows", {"limit": 3})


async def test_too_many_characters_and_a_sheet_file_past_its_size(chronicle):
    from bot.services.chronicle.archive import GM_CHARACTERS, MAX_CHARACTERS, MAX_SHEET_BYTES

    files = await export(chronicle)
    characters = json.loads(files[GM_CHARACTERS])
    payload = rezip(
        files, **{GM_CHARACTERS: json.dumps(characters * (MAX_CHARACTERS // 2 + 1)).encode()}
    )
    assert ("chronicle.problem.too_many_characters", {"limit": MAX_CHARACTERS}) in (
        await _refusal(chronicle, payload)
    )
    sheet = characters[0]["file"]
    padded = files[sheet].rstrip() + b" " * (MAX_SHEET_BYTES + 1)
    payload = rezip(files, **{sheet: padded})
    assert (
        "chronicle.problem.file_too_big",
        {"path": sheet, "limit": MAX_SHEET_BYTES // 1024},
    ) in await _refusal(chronicle, payload)


async def test_the_check_has_a_time_budget(chronicle, monkeypatch):
    """Fixed before the work starts; here already spent, so the check stops at once (run
    in this process: the worker's own clock cannot be moved from a test)."""
    from bot.services.chronicle import archive
    from bot.services.chronicle.check import read_and_check
    from bot.services.chronicle.service import ArchiveProblems

    payload = (await chronicle.chronicle.export(*_here_gm(), "es", 10 * 2**20)).payload
    read_and_check(payload, 9, None)  # within the budget: a plan
    monkeypatch.setattr(archive, "MAX_CHECK_SECONDS", -1)
    with pytest.raises(ArchiveProblems) as caught:
        read_and_check(payload, 9, None)
    assert _problems(caught.value) == [("chronicle.problem.too_slow", {"limit": -1})]


def _here_gm():
    from tests.bot.test_chronicle import GM, HERE

    return HERE, GM


async def test_a_campaign_past_the_imports_budgets_is_not_exported(chronicle, monkeypatch):
    """Every export can be imported again: a campaign past a file's budget is refused before
    anything is read, naming the file, its rows and the limit."""
    from bot.services.chronicle import archive
    from bot.services.shared.errors import DomainError

    monkeypatch.setitem(archive.MAX_ROWS, archive.GM_POSTS, 1)
    with pytest.raises(DomainError) as caught:
        await chronicle.chronicle.export(*_here_gm(), "es", 10 * 2**20)
    assert caught.value.key == "chronicle.error.too_many_rows_to_export"
    assert caught.value.params["path"] == archive.GM_POSTS and caught.value.params["limit"] == 1
