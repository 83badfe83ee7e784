"""The pure rules of /post: webhook names, splitting at boundaries, notes, avatar checks."""

from __future__ import annotations

import re

import pytest

from bot.services.shared.post_text import (
    AVATAR_MAX_BYTES,
    MESSAGE_LIMIT,
    NAME_LIMIT,
    image_type,
    notes_lines,
    split_post,
    validate_avatar,
    webhook_name,
)

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 40
GIF = b"GIF89a" + b"\x00" * 40
WEBP = b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 40


@pytest.mark.parametrize(
    "name", ["Clyde", "CLYDE el bardo", "Discordia", "la discordante", "dIsCoRd"]
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
    ],
)
def test_other_files_and_big_images_are_refused(data):
    assert validate_avatar(data) is None
