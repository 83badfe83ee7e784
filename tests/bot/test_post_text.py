"""The pure rules of /post: webhook names, splitting at boundaries, notes, avatar checks."""

from __future__ import annotations

import re

import pytest

from bot.services.shared.errors import DomainError
from bot.services.shared.post_text import (
    AVATAR_MAX_BYTES,
    AVATAR_MAX_PIXELS,
    MESSAGE_LIMIT,
    NAME_LIMIT,
    checked_avatar,
    image_type,
    notes_lines,
    split_post,
    validate_avatar,
    webhook_name,
)
from tests.examples import declared_png, image

PNG, JPEG, GIF, WEBP = (image(kind) for kind in ("png", "jpeg", "gif", "webp"))


@pytest.mark.parametrize(
    "name",
    [
        "Clyde",
        "CLYDE el bardo",
        "Discordia",
        "la discordante",
        "dIsCoRd",
        # letters that fold to two («ß» → «ss», «ﬀ» → «ff») before the word: the match was
        # looked up in the folded text and /post crashed (StopIteration)
        "ßßßßßßßßßßclydezzzzzzzzzz",
        "ﬀﬀ Discord ẞ",
        "diſcord",  # the long s folds to «s»: still the refused word
    ],
)
def test_refused_words_get_a_visible_look_alike(name):
    shown = webhook_name(name)
    assert "clyde" not in shown.casefold() and "discord" not in shown.casefold()
    assert len(shown) == len(name) and shown != name
    # exactly one letter per refused word changed, the rest reads the same
    assert sum(a != b for a, b in zip(shown, name, strict=True)) == 1


def test_ordinary_names_are_kept_and_long_ones_cut_to_80():
    assert webhook_name("Ardelia  de   Vane") == "Ardelia de Vane"
    long = "Sir " + "Bartolomé " * 20
    shown = webhook_name(long)
    assert len(shown) == NAME_LIMIT and shown.endswith("…")


def test_notes_become_subtext_lines():
    assert notes_lines("Tiro Sigilo.\n\n  Voy herido  ") == "-# Tiro Sigilo.\n-# Voy herido"


def test_a_short_post_is_one_message_as_written():
    text = "**—¡Alto!** —grita.\n\n*No me fío de él.*"
    assert split_post(text) == [text]


def test_a_long_post_splits_at_paragraphs_never_mid_word():
    paragraphs = [f"Párrafo {i}: " + "palabra " * 60 for i in range(12)]
    text = "\n\n".join(p.strip() for p in paragraphs)
    parts = split_post(text)
    assert len(parts) > 1
    assert all(len(p) <= MESSAGE_LIMIT for p in parts)
    # every part ends at a paragraph boundary: joining them gives the text back
    assert "\n\n".join(parts) == text
    assert all(p.startswith("Párrafo") for p in parts)


def test_one_huge_paragraph_splits_at_sentences_then_words():
    sentence = "La lluvia golpea el casco de la nave sin descanso. "
    text = (sentence * 90).strip()
    parts = split_post(text)
    assert all(len(p) <= MESSAGE_LIMIT for p in parts)
    assert all(p.endswith(".") for p in parts)
    words = ("Inacabable " * 500).strip()
    parts = split_post(words)
    assert all(len(p) <= MESSAGE_LIMIT for p in parts)
    assert " ".join(parts) == words  # cut only between words


def test_a_code_block_across_a_cut_is_closed_and_reopened():
    text = "Antes\n\n```\n" + "\n".join(f"línea {i} " + "x" * 50 for i in range(60)) + "\n```"
    parts = split_post(text)
    assert len(parts) > 1
    for part in parts:
        assert len(part) <= MESSAGE_LIMIT
        assert len(re.findall(r"^\s*```", part, re.MULTILINE)) % 2 == 0


@pytest.mark.parametrize(
    ("data", "kind"), [(PNG, "png"), (JPEG, "jpeg"), (GIF, "gif"), (WEBP, "webp")]
)
def test_images_are_known_by_their_magic_bytes(data, kind):
    assert image_type(data) == kind
    avatar = validate_avatar(data)
    assert avatar is not None and avatar.kind == kind and len(avatar.sha256) == 64
    assert avatar.data_uri.startswith(f"data:image/{kind};base64,")


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"<svg xmlns='http://www.w3.org/2000/svg'/>",
        b"GIF87",
        PNG[:4],
        PNG + b"\x00" * AVATAR_MAX_BYTES,
        # the first bytes of an image and nothing else: no header to read
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 40,
        b"\xff\xd8\xff\xe0" + b"\x00" * 40,
        b"GIF89a" + b"\x00" * 40,
        b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 40,
        PNG[:-20] + b"\x00" * 20,  # a PNG whose checksums fail
        GIF[:6] + PNG[6:],  # the magic bytes of one format on another's header
    ],
)
def test_other_files_and_big_images_are_refused(data):
    assert validate_avatar(data) is None


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (declared_png(30_000, 30_000), (30_000, 30_000)),  # a few KiB, 900 million pixels
        (declared_png(4097, 4096), (4097, 4096)),
        (image("gif", 4096, 4096), (4096, 4096)),
    ],
)
def test_images_over_the_pixel_count_are_refused_with_their_size(data, size):
    assert len(data) <= AVATAR_MAX_BYTES
    if size == (4096, 4096):  # exactly at the limit: accepted
        assert checked_avatar(data).kind == "gif"
        return
    with pytest.raises(DomainError) as caught:
        checked_avatar(data)
    assert caught.value.key == "post.error.avatar_pixels"
    assert (caught.value.params["width"], caught.value.params["height"]) == size
    assert caught.value.params["limit"] == AVATAR_MAX_PIXELS == 4096 * 4096


def test_every_frame_of_an_animation_counts():
    import io

    from PIL import Image

    frames = [Image.new("L", (2048, 2048), shade) for shade in (0, 80, 160, 240, 40)]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:])
    with pytest.raises(DomainError) as caught:
        checked_avatar(out.getvalue())
    assert caught.value.key == "post.error.avatar_pixels_frames"
    assert caught.value.params["frames"] == 5
