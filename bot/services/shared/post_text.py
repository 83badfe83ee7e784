"""Pure text rules of ``/post``: webhook names Discord accepts, splitting, notes, avatars.

No Discord objects and no database here: the posting service and the cog call these, and the
tests check them directly.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass

from bot.services.shared.errors import DomainError

__all__ = [
    "AVATAR_MAX_BYTES",
    "AVATAR_MAX_PIXELS",
    "checked_avatar",
    "MESSAGE_LIMIT",
    "NAME_LIMIT",
    "Avatar",
    "image_type",
    "notes_lines",
    "split_post",
    "validate_avatar",
    "webhook_name",
]

#: Discord: a message's content holds at most 2000 characters.
MESSAGE_LIMIT = 2000
#: Discord: a webhook's username is 1 to 80 characters.
NAME_LIMIT = 80
#: Avatars are stored in the database and uploaded as the webhook's avatar: bounded small.
AVATAR_MAX_BYTES = 256 * 1024
#: And in pixels, every frame counted: 4096 × 4096 (16,777,216), far more than an avatar
#: shows and what a browser decodes without trouble (docs/play-by-post.md, «Perfil»).
AVATAR_MAX_PIXELS = 4096 * 4096

#: Discord refuses webhook names containing these words (any case): 400, code 50035.
_REFUSED_WORDS = ("clyde", "discord")
#: A look-alike (Cyrillic) letter replaces one letter of a refused word, so the name reads the
#: same and Discord accepts it: "Discordia" is shown as "Disсordia" (с is U+0441).
_LOOKALIKE = {
    "c": "\u0441",
    "C": "\u0421",
    "o": "\u043e",
    "O": "\u041e",
    "e": "\u0435",
    "E": "\u0415",
}


def _refused_span(shown: str, word: str) -> tuple[int, int] | None:
    """Where ``shown`` holds ``word`` ignoring case, as positions *of shown*.

    Searching ``shown.casefold()`` gave positions of the folded text, which is longer when a
    letter folds to two («ß» → «ss»): «ßßßßßßßßßßclydezzz» put the match ten letters off and
    /post crashed.  Here each letter is folded on its own and the match is kept in
    ``shown``'s own positions (the long s «ſ» folds to «s», so «diſcord» matches too)."""
    for start in range(len(shown)):
        folded = ""
        for end in range(start, len(shown)):
            folded += shown[end].casefold()
            if not word.startswith(folded):
                break
            if folded == word:
                return start, end + 1
    return None


def webhook_name(name: str) -> str:
    """``name`` as Discord accepts it for a webhook's username (the post keeps the real one).

    Blank names are refused by the caller; here: at most 80 characters (cut with "…"), and a
    refused word gets one letter replaced by a Cyrillic look-alike ("Clyde" → "Сlyde").
    Both refused words hold a «c», so every match has a letter to replace; the Cyrillic
    letter folds to no Latin one, so a replaced match never matches again.
    """
    shown = " ".join(name.split())
    for word in _REFUSED_WORDS:
        while (span := _refused_span(shown, word)) is not None:
            start, end = span
            index = next(i for i in range(start, end) if shown[i] in _LOOKALIKE)
            shown = shown[:index] + _LOOKALIKE[shown[index]] + shown[index + 1 :]
    if len(shown) > NAME_LIMIT:
        shown = shown[: NAME_LIMIT - 1].rstrip() + "…"
    return shown


def notes_lines(notes: str) -> str:
    """The notes as Discord subtext (``-# `` lines): small, under the post, out of character."""
    lines = [line.strip() for line in notes.strip().splitlines()]
    return "\n".join(f"-# {line}" for line in lines if line)


_FENCE = re.compile(r"^\s*```", re.MULTILINE)
_SENTENCE_END = re.compile(r"(?<=[.!?…»\")])\s+")


def _pieces(text: str, limit: int) -> list[str]:
    """``text`` cut into pieces of at most ``limit`` characters at the best boundary:
    paragraphs, then lines, then sentences, then words; a single word longer than a whole
    message (a long link) is the only thing ever cut inside."""
    if len(text) <= limit:
        return [text]
    for separator in ("\n\n", "\n"):
        parts = text.split(separator)
        if len(parts) > 1:
            return _pack(parts, separator, limit)
    sentences = _SENTENCE_END.split(text)
    if len(sentences) > 1:
        return _pack(sentences, " ", limit)
    words = text.split(" ")
    if len(words) > 1:
        return _pack(words, " ", limit)
    return [text[i : i + limit] for i in range(0, len(text), limit)]


def _pack(parts: list[str], separator: str, limit: int) -> list[str]:
    out: list[str] = []
    current = ""
    for part in parts:
        candidate = f"{current}{separator}{part}" if current else part
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            out.append(current)
        if len(part) <= limit:
            current = part
        else:
            *whole, current = _pieces(part, limit)
            out.extend(whole)
    if current:
        out.append(current)
    return out


def split_post(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The post as Discord messages, each at most ``limit`` characters, Markdown intact.

    Cut at paragraph boundaries (then lines, sentences, words), never inside a word; a code
    block open at a cut is closed at the end of its part and opened again in the next one, so
    every part renders as written.  Parts are never blank.
    """
    text = text.strip()
    room = limit - 4  # room for a closing "\n```" when a code block spans the cut
    parts: list[str] = []
    carry = ""
    for piece in _pieces(text, room):
        piece = piece.strip("\n")
        if not piece.strip():
            continue
        body = carry + piece if carry else piece
        if len(body) > limit:  # the reopened fence pushed it over: give it a part of its own
            parts.append(carry.rstrip())
            body = piece
            carry = ""
        open_fence = len(_FENCE.findall(body)) % 2 == 1
        if open_fence:
            parts.append(body + "\n```")
            carry = "```\n"
        else:
            parts.append(body)
            carry = ""
    return parts or [""]


@dataclass(frozen=True, slots=True)
class Avatar:
    """A validated avatar image: its bytes, type and content hash (names the upload)."""

    data: bytes
    kind: str  # png | jpeg | gif | webp
    sha256: str

    @property
    def data_uri(self) -> str:
        """The image as Discord's "image data" (``data:image/png;base64,…``) for a webhook."""
        import base64

        return f"data:image/{self.kind};base64,{base64.b64encode(self.data).decode('ascii')}"


def image_type(data: bytes) -> str | None:
    """The image format by its magic bytes (never by the file name or a declared type)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


#: Pillow's name of each format :func:`image_type` recognises.
_PILLOW_FORMATS = {"png": "PNG", "jpeg": "JPEG", "gif": "GIF", "webp": "WEBP"}


def checked_avatar(data: bytes) -> Avatar:
    """The avatar if ``data`` is a small PNG, JPEG, GIF or WebP image of at most
    :data:`AVATAR_MAX_PIXELS` pixels (every frame of an animation counted), else the
    translated refusal.

    The header is read by Pillow, which decodes no pixel to tell the size: the first bytes
    alone let a 107 KiB PNG declaring 30,000 × 30,000 pixels through, and each player's
    browser (the chronicle's pages) and Discord would have had to decode 3.6 GB of it.  A
    file whose header Pillow cannot read, or whose format is not the one its first bytes
    claim, is no image.
    """
    if not data or len(data) > AVATAR_MAX_BYTES:
        raise DomainError("post.error.bad_avatar", limit=AVATAR_MAX_BYTES // 1024)
    kind = image_type(data)
    if kind is None:
        raise DomainError("post.error.bad_avatar", limit=AVATAR_MAX_BYTES // 1024)
    width, height, frames = _image_size(data, kind)
    if width * height * frames > AVATAR_MAX_PIXELS:
        raise DomainError(
            "post.error.avatar_pixels" if frames == 1 else "post.error.avatar_pixels_frames",
            width=width,
            height=height,
            frames=frames,
            limit=AVATAR_MAX_PIXELS,
        )
    return Avatar(data, kind, hashlib.sha256(data).hexdigest())


def _image_size(data: bytes, kind: str) -> tuple[int, int, int]:
    """Width, height and frames from the header (and, for a PNG, its chunks' checksums)."""
    from PIL import Image, UnidentifiedImageError

    # Pillow's own bomb check refuses past 179 million pixels without saying the size; ours
    # is far lower and says it.  Nothing here decodes pixels, and nothing awaits in between,
    # so no other image is opened while the check is off.
    bomb_limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
    try:
        with Image.open(io.BytesIO(data), formats=[_PILLOW_FORMATS[kind]]) as image:
            width, height = image.size
            frames = int(getattr(image, "n_frames", 1))
            if kind == "png":
                image.verify()  # the chunks' checksums: no pixel is decoded
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError):
        raise DomainError("post.error.bad_avatar", limit=AVATAR_MAX_BYTES // 1024) from None
    finally:
        Image.MAX_IMAGE_PIXELS = bomb_limit
    return width, height, max(frames, 1)


def validate_avatar(data: bytes) -> Avatar | None:
    """:func:`checked_avatar`, or None instead of its refusal."""
    try:
        return checked_avatar(data)
    except DomainError:
        return None
