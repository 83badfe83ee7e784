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
