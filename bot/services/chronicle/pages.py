"""The chronicle's pages: each scene as Markdown and as one self-contained HTML page.

Pure (runs in the bot's worker process, with the export).  The HTML page loads nothing: styles are inline,
avatars are ``data:`` images, a Content-Security-Policy forbids any other source, and every
text a user wrote is escaped and shown as text — a post containing ``<script>`` shows those
characters, and links users wrote stay plain text (no ``<a>`` to the outside, nothing fetched
when the page is opened, years later, offline).

Avatars: :func:`stored_avatar` is the hook for the image bytes ``/sheet profile`` stores
(issue 12 §2); until a character has stored bytes its avatar is an SVG of its initials.
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import t

__all__ = [
    "AVATAR_TYPES",
    "PageSet",
    "avatar_uri",
    "html_page",
    "index_html",
    "index_markdown",
    "markdown_page",
    "stored_avatar",
]

#: Image types a stored avatar may be embedded as (anything else falls back to initials).
AVATAR_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
STYLE = """
body{font-family:Georgia,'Times New Roman',serif;max-width:46rem;margin:2rem auto;
padding:0 1rem;color:#222;background:#fbf8f1;line-height:1.5}
h1{font-size:1.7rem;margin-bottom:.2rem}.meta{color:#666;font-size:.9rem}
.warning{background:#fde8e8;border:1px solid #d88;padding:.5rem .8rem}
article{display:flex;gap:.8rem;border-top:1px solid #ddd;padding:1rem 0}
article.gm-only{background:#f3ecff}article.deleted{opacity:.6}
.avatar{width:48px;height:48px;border-radius:50%;flex:none}
.speaker{font-size:1.05rem;margin:0}.badge{font-size:.75rem;color:#fff;background:#777;
border-radius:.6rem;padding:0 .45rem;margin-left:.35rem;font-family:sans-serif}
.text{white-space:pre-wrap;margin:.3rem 0}.opening{white-space:pre-wrap;font-style:italic}
.notes{white-space:pre-wrap;font-size:.85rem;color:#555;border-left:3px solid #ccc;padding-left:.6rem}
.roll{font-family:monospace;font-size:.85rem;background:#eee;padding:.3rem .5rem;margin-top:.4rem}
.time{font-size:.75rem;color:#888;margin:.3rem 0 0}ul{padding-left:1.2rem}
"""


@dataclass(frozen=True, slots=True)
class PageSet:
    """What one page shows: the scene (or ``None`` for posts outside scenes), its posts in
    order, and the characters and rolls they refer to (by export number)."""

    title: str
    campaign: str
    scene: Mapping[str, Any] | None
    posts: Sequence[Mapping[str, Any]]
    characters: Mapping[int, Mapping[str, Any]]
    rolls: Mapping[int, Mapping[str, Any]]
    gm: bool  # the GM's page: GM-only posts, deleted posts and private rolls included
    locale: str


def stored_avatar(character: Mapping[str, Any] | None) -> tuple[str, bytes] | None:
    """The character's avatar as ``(media type, bytes)`` when its image is stored.

    The hook for ``/sheet profile`` (issue 12 §2): it stores the image's bytes so the avatar
    outlives Discord's expiring links; a character row that carries them (``avatar`` with
    ``type`` and base64 ``data`` in the exported record) is embedded as is.  None today for
    characters without one: the page draws their initials.
    """
    avatar = (character or {}).get("avatar")
    if not isinstance(avatar, Mapping):
        return None
    kind, data = avatar.get("type"), avatar.get("data")
    if kind not in AVATAR_TYPES or not isinstance(data, str):
        return None
    try:
        return str(kind), base64.b64decode(data, validate=True)
    except ValueError:
        return None


def _initials(name: str) -> str:
    words = [w for w in name.split() if w[:1].isalnum()]
    return "".join(w[0] for w in words[:2]).upper() or "?"


def avatar_uri(name: str, character: Mapping[str, Any] | None) -> str:
    """A ``data:`` URI: the stored image, or an SVG disc with the speaker's initials."""
    stored = stored_avatar(character)
    if stored is not None:
        kind, data = stored
        return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
    hue = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:4], 16) % 360
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">'
        f'<circle cx="24" cy="24" r="24" fill="hsl({hue},45%,45%)"/>'
        '<text x="24" y="30" font-size="18" text-anchor="middle" fill="#fff" '
        f'font-family="sans-serif">{html.escape(_initials(name))}</text></svg>'
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _day(moment: str | None) -> str:
    """``2026-11-30T18:05:00+00:00`` → ``2026-11-30 18:05 UTC``."""
    if not moment:
        return ""
    return f"{moment[:10]} {moment[11:16]} UTC"


def _visible(pages: PageSet) -> list[Mapping[str, Any]]:
    if pages.gm:
        return list(pages.posts)
    return [p for p in pages.posts if not p["gm_only"] and not p["deleted_at"]]


def _rolls_for(post: Mapping[str, Any], pages: PageSet) -> list[Mapping[str, Any]]:
    """The post's rolls the reader may see (every one for the GM's pages)."""
    refs = post.get("rolls") or ([post["roll"]] if post.get("roll") else [])
    found = [pages.rolls.get(ref) for ref in refs]
    return [roll for roll in found if roll is not None and (pages.gm or not roll["private"])]


def _roll_line(roll: Mapping[str, Any], locale: str) -> str:
    """``1d20+3 (ataque): [14]+3 = 17 · éxito`` — what the roll showed when it was made."""
    head = roll["expression"] + (f" ({roll['reason']})" if roll.get("reason") else "")
    line = f"{head}: {roll['breakdown']}"
    if str(roll["total"]) not in roll["breakdown"]:
        line += f" = {roll['total']}"
    if roll.get("outcome"):
        line += f" · {roll['outcome']}"
    if roll["private"]:
        line += f" · {t('chronicle.page.private_roll', locale)}"
    return line


def _badges(post: Mapping[str, Any], locale: str) -> list[str]:
    badges = []
    if post["gm_only"]:
        badges.append(t("chronicle.page.gm_only", locale))
    if post["deleted_at"]:
        badges.append(t("chronicle.page.deleted", locale))
    if post["edited_at"]:
        badges.append(t("chronicle.page.edited", locale))
    umbria = post.get("umbria_player")
    if isinstance(umbria, Mapping) and umbria.get("claimed_by") is None:
        # brought from Umbría, its player not yet claimed by a member (/sheet claim)
        badges.append(t("chronicle.page.umbria_player", locale, player=umbria.get("name", "?")))
    return badges


def _scene_meta(pages: PageSet) -> str:
    scene, locale = pages.scene, pages.locale
    if scene is None:
        return pages.campaign
    status = t(f"chronicle.page.scene_{scene['status']}", locale)
    parts = [pages.campaign, status, _day(scene["created_at"])]
    if scene["private"]:
        parts.append(t("chronicle.page.private_scene", locale, count=len(scene["players"])))
    return " · ".join(part for part in parts if part)


# -- Markdown ---------------------------------------------------------------------------


def markdown_page(pages: PageSet) -> str:
    """The scene as Markdown: each post's text as its author wrote it (Markdown kept)."""
    locale = pages.locale
    lines = [f"# {pages.title}", "", f"*{_scene_meta(pages)}*", ""]
    if pages.scene is not None and pages.scene.get("opening_text"):
        lines += [str(pages.scene["opening_text"]), ""]
    if pages.gm:
        lines += [f"> {t('chronicle.page.gm_warning', locale)}", ""]
    posts = _visible(pages)
    if not posts:
        lines += [t("chronicle.page.no_posts", locale), ""]
    for post in posts:
        when = " · ".join([_day(post["created_at"]), *_badges(post, locale)])
        lines += ["---", "", f"### {post['speaker_name']}", f"*{when}*", "", post["text"], ""]
        if post.get("notes"):
            notes = str(post["notes"]).splitlines() or [""]
            lines += [f"> **{t('chronicle.page.notes', locale)}:** {notes[0]}"]
            lines += [f"> {line}" for line in notes[1:]]
            lines.append("")
        for roll in _rolls_for(post, pages):
            label = t("chronicle.page.roll", locale)
            lines += [f"> 🎲 **{label}:** `{_roll_line(roll, locale)}`", ""]
    return "\n".join(lines).rstrip() + "\n"


# -- HTML -------------------------------------------------------------------------------


def _document(title: str, body: list[str], locale: str) -> str:
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{html.escape(locale)}">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(title)}</title>",
            f"<style>{STYLE}</style>",
            "</head>",
            "<body>",
            *body,
            "</body>",
            "</html>",
            "",
        ]
    )


def html_page(pages: PageSet) -> str:
    """The scene as one HTML file that loads nothing (see module)."""
    locale, esc = pages.locale, html.escape
    body = [
        f"<header><h1>{esc(pages.title)}</h1>",
        f'<p class="meta">{esc(_scene_meta(pages))}</p></header>',
    ]
    if pages.scene is not None and pages.scene.get("opening_text"):
        body.append(f'<div class="opening">{esc(str(pages.scene["opening_text"]))}</div>')
    if pages.gm:
        body.append(f'<p class="warning">{esc(t("chronicle.page.gm_warning", locale))}</p>')
    posts = _visible(pages)
    if not posts:
        body.append(f"<p>{esc(t('chronicle.page.no_posts', locale))}</p>")
    for post in posts:
        character = pages.characters.get(post["character"]) if post.get("character") else None
        classes = ["post"] + (["gm-only"] if post["gm_only"] else [])
        classes += ["deleted"] if post["deleted_at"] else []
        badges = "".join(f'<span class="badge">{esc(b)}</span>' for b in _badges(post, locale))
        body += [
            f'<article class="{" ".join(classes)}">',
            f'<img class="avatar" alt="" src="{avatar_uri(post["speaker_name"], character)}">',
            '<div class="body">',
            f'<h2 class="speaker">{esc(post["speaker_name"])}{badges}</h2>',
            f'<div class="text">{esc(post["text"])}</div>',
        ]
        if post.get("notes"):
            label = esc(t("chronicle.page.notes", locale))
            body.append(f'<div class="notes"><b>{label}:</b> {esc(post["notes"])}</div>')
        for roll in _rolls_for(post, pages):
            label = esc(t("chronicle.page.roll", locale))
            body.append(f'<div class="roll">🎲 {label}: {esc(_roll_line(roll, locale))}</div>')
        body += [f'<p class="time">{esc(_day(post["created_at"]))}</p>', "</div>", "</article>"]
    return _document(pages.title, body, locale)


# -- the table of contents --------------------------------------------------------------


def _scene_entries(
    entries: Sequence[tuple[str, Mapping[str, Any]]], locale: str
) -> list[tuple[str, str]]:
    """``(file stem, "Title — closed, 12 posts")`` for each listed scene."""
    return [
        (stem, f"{scene['title']} — {t('chronicle.page.scene_' + scene['status'], locale)}")
        for stem, scene in entries
    ]


def index_markdown(
    campaign: Mapping[str, Any], entries: Sequence[tuple[str, Mapping[str, Any]]], locale: str
) -> str:
    lines = [f"# {t('chronicle.page.index', locale, campaign=campaign['name'])}", ""]
    lines += [f"*{campaign['system_name']}*", "", f"## {t('chronicle.page.scenes', locale)}", ""]
    for stem, label in _scene_entries(entries, locale):
        lines.append(f"- [{label}]({stem}.md)")
    if not entries:
        lines.append(t("chronicle.page.no_scenes", locale))
    return "\n".join(lines) + "\n"


def index_html(
    campaign: Mapping[str, Any], entries: Sequence[tuple[str, Mapping[str, Any]]], locale: str
) -> str:
    esc = html.escape
    title = t("chronicle.page.index", locale, campaign=campaign["name"])
    body = [
        f"<header><h1>{esc(title)}</h1>",
        f'<p class="meta">{esc(campaign["system_name"])}</p></header>',
        f"<h2>{esc(t('chronicle.page.scenes', locale))}</h2>",
        "<ul>",
        *(
            f'<li><a href="{esc(stem)}.html">{esc(label)}</a></li>'
            for stem, label in _scene_entries(entries, locale)
        ),
        "</ul>",
    ]
    if not entries:
        body.append(f"<p>{esc(t('chronicle.page.no_scenes', locale))}</p>")
    return _document(title, body, locale)
