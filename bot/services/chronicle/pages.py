"""The chronicle's pages: each scene as Markdown and as one HTML page that loads nothing
from outside its own folder.

Pure (runs in the bot's worker process, with the export).  Styles are inline; a stored
avatar is an image file of the archive, written once (``media/…``) and named by every page
with a relative path, so the unzipped folder opens as it is, offline, years later; a
character without one gets an SVG disc of its initials (``data:``); the pictures shown inside a
post (an Umbría post's) are files of the archive too, shown below its text.  A Content-Security-
Policy forbids any other source, and every text a user wrote is escaped and shown as text — a
post containing ``<script>`` shows those characters, and links users wrote stay plain text (no
``<a>`` to the outside, nothing fetched).
"""

from __future__ import annotations

import base64
import hashlib
import html
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.formatting import format_datetime
from bot.i18n import t
from bot.services.shared.audience import Shown

__all__ = [
    "AVATAR_TYPES",
    "PagePost",
    "PageSet",
    "avatar_uri",
    "html_page",
    "index_html",
    "index_markdown",
    "markdown_page",
    "post_images",
    "roll_line",
    "stored_avatar",
]

#: Image types a stored avatar may be embedded as (anything else falls back to initials).
AVATAR_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})

#: The page loads nothing but its own folder's images and inline styles: no script, no font,
#: no request anywhere (an image is a file of the unzipped archive or a ``data:`` disc).
CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"
STYLE = """
body{font-family:Georgia,'Times New Roman',serif;max-width:46rem;margin:2rem auto;
padding:0 1rem;color:#222;background:#fbf8f1;line-height:1.5;overflow-wrap:anywhere}
.body{min-width:0}
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
.picture{max-width:100%;height:auto;display:block;margin:.4rem 0}
"""


@dataclass(frozen=True, slots=True)
class PagePost:
    """One post as the page's reader may read it: the post (its notes ``None`` where they
    are sealed), its rolls as the reader may see them (those he may not see left out; a post
    typed with several ``[[…]]`` has several) and its speaker's character record."""

    post: Mapping[str, Any]
    rolls: tuple[Mapping[str, Any], ...]
    character: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class PageSet:
    """What one page shows: the scene (or ``None`` for posts outside scenes) and its posts in
    order, each already through the audience rule for the page's reader (public or GM)."""

    title: str
    campaign: str
    scene: Mapping[str, Any] | None
    posts: Sequence[Shown[PagePost]]
    gm: bool  # the GM's page: marks GM-only and deleted posts, warns it is not for players
    locale: str
    zone: str | None = None  # the campaign's time zone: times are shown in it
    folder: str = ""  # where the page is in the archive (``scenes``): images are relative


def stored_avatar(character: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """The character's avatar as ``(media type, file in the archive)`` when its image is
    stored (``/sheet profile`` keeps the bytes: Discord's links expire): the export writes
    each image once, under ``media/`` (or ``gm/media/`` for a hidden NPC's), and every page
    and record names that file.  ``None`` for a character without one: its initials."""
    avatar = (character or {}).get("avatar")
    if not isinstance(avatar, Mapping):
        return None
    kind, file = avatar.get("type"), avatar.get("file")
    if kind not in AVATAR_TYPES or not isinstance(file, str):
        return None
    return str(kind), file


def post_images(post: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The pictures shown inside a post (an Umbría post's, issue 27) as the export names
    them: ``{"name", "type", "file"}``, each file an image of the archive (``media/…``, or
    ``gm/media/…`` when only the GM reads the post)."""
    found = post.get("images")
    if not isinstance(found, list):
        return []
    return [
        image
        for image in found
        if isinstance(image, Mapping)
        and image.get("type") in AVATAR_TYPES
        and isinstance(image.get("file"), str)
    ]


def _relative(file: str, folder: str) -> str:
    """An archive file as a page in ``folder`` names it (the unzipped folder opens as is)."""
    return posixpath.relpath(file, folder or ".")


def _initials(name: str) -> str:
    words = [w for w in name.split() if w[:1].isalnum()]
    return "".join(w[0] for w in words[:2]).upper() or "?"


def avatar_uri(name: str, character: Mapping[str, Any] | None, folder: str = "") -> str:
    """Where a page in ``folder`` finds the speaker's avatar: the stored image's file,
    relative to the page (``../media/3f…a1.png``: the folder opens as it is, offline), or a
    ``data:`` SVG disc with the speaker's initials."""
    stored = stored_avatar(character)
    if stored is not None:
        return _relative(stored[1], folder)
    hue = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:4], 16) % 360
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">'
        f'<circle cx="24" cy="24" r="24" fill="hsl({hue},45%,45%)"/>'
        '<text x="24" y="30" font-size="18" text-anchor="middle" fill="#fff" '
        f'font-family="sans-serif">{html.escape(_initials(name))}</text></svg>'
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _day(moment: str | None, locale: str, zone: str | None) -> str:
    """A stored moment (ISO 8601, UTC) as the campaign reads it: its date format and time
    zone (``30/11/2026 19:05 CET``)."""
    if not moment:
        return ""
    try:
        parsed = datetime.fromisoformat(moment)
    except ValueError:
        return moment
    return format_datetime(parsed, locale, zone)


def roll_line(roll: Mapping[str, Any], locale: str) -> str:
    """``1d20+3 (ataque): [14]+3 = 17 · éxito`` — the roll as its reader may see it (a total
    sealed from him reads as its outcome only), in the campaign's language."""
    reason = f" ({roll['reason']})" if roll.get("reason") else ""
    if roll.get("total") is None:
        line = (roll.get("expression") or t("chronicle.page.sealed_roll", locale)) + reason
    else:
        head = roll["expression"] + reason
        line = f"{head}: {roll['breakdown']}"
        if str(roll["total"]) not in str(roll["breakdown"]):
            line += f" = {roll['total']}"
    if roll.get("outcome"):
        outcome = t(f"check.outcome.{roll['outcome']}", locale)
        line += f" · {outcome}"
    if roll.get("private"):
        line += f" · {t('chronicle.page.private_roll', locale)}"
    return line


def _notes_label(post: Mapping[str, Any]) -> str:
    """«Notas» — or «Notas privadas» on the GM's page, where private notes are marked."""
    return "chronicle.page.private_notes" if post.get("notes_private") else "chronicle.page.notes"


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
    parts = [pages.campaign, status, _day(scene["created_at"], locale, pages.zone)]
    if scene["private"]:
        parts.append(t("chronicle.page.private_scene", locale, count=len(scene["players"])))
    return " · ".join(part for part in parts if part)


# -- Markdown ---------------------------------------------------------------------------


def _markdown_label(text: str) -> str:
    """An image's name as a Markdown link's text: one line, brackets escaped."""
    plain = " ".join(text.split())
    return plain.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def markdown_page(pages: PageSet) -> str:
    """The scene as Markdown: each post's text as its author wrote it (Markdown kept)."""
    locale = pages.locale
    lines = [f"# {pages.title}", "", f"*{_scene_meta(pages)}*", ""]
    if pages.scene is not None and pages.scene.get("opening_text"):
        lines += [str(pages.scene["opening_text"]), ""]
    if pages.gm:
        lines += [f"> {t('chronicle.page.gm_warning', locale)}", ""]
    if not pages.posts:
        lines += [t("chronicle.page.no_posts", locale), ""]
    for shown in pages.posts:
        post = shown.value.post
        when = " · ".join([_day(post["created_at"], locale, pages.zone), *_badges(post, locale)])
        lines += ["---", "", f"### {post['speaker_name']}", f"*{when}*", "", post["text"], ""]
        for image in post_images(post):
            name = _markdown_label(str(image.get("name") or ""))
            lines += [f"![{name}](<{_relative(str(image['file']), pages.folder)}>)", ""]
        if post.get("notes"):
            notes = str(post["notes"]).splitlines() or [""]
            label = t(_notes_label(post), locale)
            lines += [f"> **{label}:** {notes[0]}"]
            lines += [f"> {line}" for line in notes[1:]]
            lines.append("")
        for roll in shown.value.rolls:
            label = t("chronicle.page.roll", locale)
            lines += [f"> 🎲 **{label}:** `{roll_line(roll, locale)}`", ""]
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
    if not pages.posts:
        body.append(f"<p>{esc(t('chronicle.page.no_posts', locale))}</p>")
    for shown in pages.posts:
        post, character = shown.value.post, shown.value.character
        classes = ["post"] + (["gm-only"] if post["gm_only"] else [])
        classes += ["deleted"] if post["deleted_at"] else []
        badges = "".join(f'<span class="badge">{esc(b)}</span>' for b in _badges(post, locale))
        body += [
            f'<article class="{" ".join(classes)}">',
            f'<img class="avatar" alt="" width="48" height="48" '
            f'src="{esc(avatar_uri(post["speaker_name"], character, pages.folder))}">',
            '<div class="body">',
            f'<h2 class="speaker">{esc(post["speaker_name"])}{badges}</h2>',
            f'<div class="text">{esc(post["text"])}</div>',
        ]
        body += [
            f'<img class="picture" alt="{esc(str(image.get("name") or ""))}" '
            f'src="{esc(_relative(str(image["file"]), pages.folder))}">'
            for image in post_images(post)
        ]
        if post.get("notes"):
            label = esc(t(_notes_label(post), locale))
            body.append(f'<div class="notes"><b>{label}:</b> {esc(post["notes"])}</div>')
        for roll in shown.value.rolls:
            label = esc(t("chronicle.page.roll", locale))
            body.append(f'<div class="roll">🎲 {label}: {esc(roll_line(roll, locale))}</div>')
        when = esc(_day(post["created_at"], locale, pages.zone))
        body += [f'<p class="time">{when}</p>', "</div>", "</article>"]
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
    campaign: Mapping[str, Any],
    entries: Sequence[tuple[str, Mapping[str, Any]]],
    locale: str,
    *,
    note: str = "",
) -> str:
    """The table of contents (``note``: which part of a split export this is)."""
    lines = [f"# {t('chronicle.page.index', locale, campaign=campaign['name'])}", ""]
    if campaign.get("system_name"):
        lines += [f"*{campaign['system_name']}*", ""]
    if note:
        lines += [f"> {note}", ""]
    lines += [f"## {t('chronicle.page.scenes', locale)}", ""]
    for stem, label in _scene_entries(entries, locale):
        lines.append(f"- [{label}]({stem}.md)")
    if not entries:
        lines.append(t("chronicle.page.no_scenes", locale))
    return "\n".join(lines) + "\n"


def index_html(
    campaign: Mapping[str, Any],
    entries: Sequence[tuple[str, Mapping[str, Any]]],
    locale: str,
    *,
    note: str = "",
) -> str:
    """The table of contents as HTML (``note``: which part of a split export this is)."""
    esc = html.escape
    title = t("chronicle.page.index", locale, campaign=campaign["name"])
    body = [
        f"<header><h1>{esc(title)}</h1>",
        f'<p class="meta">{esc(str(campaign.get("system_name") or ""))}</p></header>',
        *([f'<p class="warning">{esc(note)}</p>'] if note else []),
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
