"""The Umbría zip → one game: budgets first, then every page, then the merge.

The zip is what a director saved: the pages of a game saved from a browser (every page,
``?__Pg=N``, of each scene, plus the front page and the characters' pages, with the images
the browser keeps beside them), or exportadorUmbria's output folder (one HTML file per scene,
``portada.html``, ``menu_personajes.html``, ``menu_jugadores.html``, ``menu_pnjs.html`` and
the images).  Pages are recognised by what they hold, not by their names.

Trust (docs/security.md): the zip's size, member count and names are checked before any
member is read; members are read through one :class:`~bot.services.chronicle.zipfiles.MemberBudget`
(bytes counted while decompressing); pages and images each have a limit, and so do scenes,
posts and characters; images come only from the zip — a page's address for an image is looked
up among the zip's members by path, then by file name — and nothing is ever fetched.
Every problem is listed (:class:`ArchiveProblems`) before anything is written.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from urllib.parse import unquote, urlsplit

from bot.services.chronicle.archive import MAX_ARCHIVE_BYTES, MAX_FILES, ArchiveProblems
from bot.services.chronicle.umbria.pages import PageContents, SceneEntry, parse_page, title_key
from bot.services.chronicle.umbria.records import (
    UmbriaCharacter,
    UmbriaGame,
    UmbriaImage,
    UmbriaPlayer,
    UmbriaPost,
    UmbriaScene,
)
from bot.services.chronicle.zipfiles import MemberBudget, ZipOverflow, bad_member_name
from rules.text import fold, fold_words

__all__ = [
    "MAX_CHARACTERS",
    "MAX_IMAGE_BYTES",
    "MAX_PAGES",
    "MAX_PAGE_BYTES",
    "MAX_POSTS",
    "MAX_SCENES",
    "MAX_TOTAL_BYTES",
    "is_umbria_zip",
    "read_umbria",
    "source_of",
]

#: Budgets, fixed before the first member is read (docs/play-by-post.md states them).
MAX_TOTAL_BYTES = 160 * 1024 * 1024  # everything read, pages and images
MAX_HTML_BYTES = (
    64 * 1024 * 1024
)  # the pages alone: what the parser walks bounds the job (benchmarks/umbria_bench.py)
MAX_PAGE_BYTES = 4 * 1024 * 1024  # one page
MAX_PAGES = 4000
MAX_IMAGE_BYTES = 2 * 1024 * 1024  # one image (an avatar must also pass /sheet profile's)
MAX_IMAGES = 4000
MAX_SCENES = 1000
MAX_POSTS = 50_000
MAX_CHARACTERS = 500
MAX_SKIPPED_LISTED = 10

PAGE_SUFFIXES = (".html", ".htm", ".xhtml")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
#: File names that say a characters' page lists NPCs (exportadorUmbria's ``menu_pnjs.html``).
NPC_PAGE_WORDS = ("pnj", "npc")
_IGNORED = ("__MACOSX/",)


def _members(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    return [
        info
        for info in archive.infolist()
        if not info.is_dir()
        and not info.filename.startswith(_IGNORED)
        and not posixpath.basename(info.filename).startswith(".")
    ]


def is_umbria_zip(names: Iterable[str]) -> bool:
    """Whether a zip's member names look like saved pages rather than Árbitro's chronicle."""
    listed = list(names)
    chronicle = any(n == "manifest.json" or n.startswith("gm/") for n in listed)
    return not chronicle and any(n.lower().endswith(PAGE_SUFFIXES) for n in listed)


def source_of(payload: bytes) -> str:
    """``umbria`` for a zip of saved pages, else ``arbitro`` (whose reader then says what is
    wrong with it, a broken zip included); the worker's first, cheap job of an import."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(payload))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return "arbitro"
    if len(infos) > MAX_FILES or len(payload) > MAX_ARCHIVE_BYTES:
        return "arbitro"
    return "umbria" if is_umbria_zip(info.filename for info in infos) else "arbitro"


class _Images:
    """Finds the zip member a page's image address names: by path next to the page, then by
    file name anywhere in the zip (a browser keeps ``Page_files/x.jpg``; exportadorUmbria
    may keep Umbría's own address in the page and the file under its name)."""

    def __init__(self, names: list[str]) -> None:
        self.paths = {n for n in names if n.lower().endswith(IMAGE_SUFFIXES)}
        by_name: dict[str, list[str]] = {}
        for name in self.paths:
            by_name.setdefault(posixpath.basename(name).lower(), []).append(name)
        self.by_name = {k: sorted(v)[0] for k, v in by_name.items()}
        self.used: dict[str, None] = {}

    def lookup(self, page: str, src: str) -> str | None:
        parts = urlsplit(src.strip())
        if parts.scheme in ("data", "javascript"):
            return None
        path = unquote(parts.path)
        if not path:
            return None
        found = None
        if not parts.scheme and not parts.netloc and not path.startswith("/"):
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
            if joined in self.paths:
                found = joined
        if found is None:
            found = self.by_name.get(posixpath.basename(path).lower())
        if found is not None:
            self.used.setdefault(found, None)
        return found


def read_umbria(payload: bytes) -> UmbriaGame:
    """The game in the zip, or :class:`ArchiveProblems` with everything wrong with it."""
    problems = ArchiveProblems()
    archive = _open(payload, problems)
    members = _members(archive)
    pages = sorted(m.filename for m in members if m.filename.lower().endswith(PAGE_SUFFIXES))
    if not pages:
        problems.add("umbria.problem.no_pages")
    elif len(pages) > MAX_PAGES:
        problems.add("umbria.problem.too_many_pages", count=len(pages), limit=MAX_PAGES)
    if sum(m.file_size for m in members if m.filename in set(pages)) > MAX_HTML_BYTES:
        problems.add("umbria.problem.pages_too_big", limit=MAX_HTML_BYTES // 2**20)
    if problems:
        raise problems
    budget = MemberBudget(MAX_TOTAL_BYTES, MAX_PAGE_BYTES)
    images = _Images([m.filename for m in members])
    contents: list[PageContents] = []
    for name in pages:
        html = _read(archive, name, budget, problems)
        if html is None:
            continue
        npc_page = any(word in fold(posixpath.basename(name)) for word in NPC_PAGE_WORDS)
        page = parse_page(name, html, partial(images.lookup, name), npc_page=npc_page)
        for key, params in page.problems:
            problems.add(key, **params)
        contents.append(page)
    if problems:
        raise problems  # the pages' own problems: the merge would only add noise
    game = _merge(contents, problems)
    if problems:
        raise problems
    return replace(game, images=_load_images(archive, images, budget, problems))


def _open(payload: bytes, problems: ArchiveProblems) -> zipfile.ZipFile:
    if len(payload) > MAX_ARCHIVE_BYTES:
        problems.add("chronicle.problem.archive_too_big", limit=MAX_ARCHIVE_BYTES // 2**20)
        raise problems
    try:
        archive = zipfile.ZipFile(io.BytesIO(payload))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        problems.add("chronicle.problem.not_zip")
        raise problems from None
    if len(infos) > MAX_FILES:
        problems.add("chronicle.problem.too_many_files", count=len(infos), limit=MAX_FILES)
        raise problems
    seen: set[str] = set()
    for info in infos:
        if bad_member_name(info.filename):
            problems.add("chronicle.problem.bad_path", path=info.filename[:80])
        elif info.filename in seen:
            problems.add("chronicle.problem.duplicate_path", path=info.filename[:80])
        seen.add(info.filename)
    if problems:
        raise problems
    return archive


def _read(
    archive: zipfile.ZipFile, name: str, budget: MemberBudget, problems: ArchiveProblems
) -> bytes | None:
    try:
        return budget.read(archive, name)
    except ZipOverflow:
        problems.add("umbria.problem.member_too_big", path=name[:80], limit=budget.member // 2**20)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        problems.add("chronicle.problem.corrupt_file", path=name[:80])
    return None


def _load_images(
    archive: zipfile.ZipFile, images: _Images, budget: MemberBudget, problems: ArchiveProblems
) -> dict[str, UmbriaImage]:
    """The bytes of every image a page uses (and only those), each within its limit."""
    used = list(images.used)
    if len(used) > MAX_IMAGES:
        problems.add("umbria.problem.too_many_images", count=len(used), limit=MAX_IMAGES)
        raise problems
    budget.member = MAX_IMAGE_BYTES
    loaded: dict[str, UmbriaImage] = {}
    for key in used:
        data = _read(archive, key, budget, problems)
        if data is not None:
            loaded[key] = UmbriaImage(key, posixpath.basename(key), data)
    if problems:
        raise problems
    return loaded


# -- the merge -------------------------------------------------------------------------------


@dataclass
class _Scene:
    title: str
    opening: str | None
    posts: dict[str, UmbriaPost]

    def ordered(self) -> tuple[UmbriaPost, ...]:
        return tuple(sorted(self.posts.values(), key=lambda p: (p.posted_at, int(p.message_id))))

    def first(self) -> datetime | None:
        return min((p.posted_at for p in self.posts.values()), default=None)


def _merge(contents: list[PageContents], problems: ArchiveProblems) -> UmbriaGame:
    """One game from its pages: scenes in the list's order, each post once, in time order."""
    title = next((p.game_title for p in contents if p.game_title), None)
    listing = _scene_list(contents)
    by_title = {title_key(entry.title): entry.key for entry in listing if entry.key}
    scenes: dict[str, _Scene] = {}
    for page in contents:
        if page.scene_key is None or page.scene_title is None:
            continue
        key = by_title.get(page.scene_key, page.scene_key)
        scene = scenes.setdefault(key, _Scene(page.scene_title, None, {}))
        scene.opening = scene.opening or page.scene_opening
        for post in page.posts:
            scene.posts.setdefault(post.message_id, replace(post, scene_key=key))
    ordered = _order(listing, scenes)
    if len(ordered) > MAX_SCENES:
        problems.add("umbria.problem.too_many_scenes", count=len(ordered), limit=MAX_SCENES)
    total = sum(len(s.posts) for s in ordered)
    if total > MAX_POSTS:
        problems.add("umbria.problem.too_many_posts", count=total, limit=MAX_POSTS)
    characters = _characters(contents)
    if len(characters) > MAX_CHARACTERS:
        problems.add(
            "umbria.problem.too_many_characters", count=len(characters), limit=MAX_CHARACTERS
        )
    if not any(s.posts for s in ordered):
        problems.add("umbria.problem.no_posts")
    skipped = tuple(p.path for p in contents if not p.recognised)
    return UmbriaGame(
        title=title,
        scenes=tuple(ordered),
        characters=tuple(characters),
        players=_players(contents, ordered, characters),
        skipped=skipped,
        missing_images=sum(p.missing_images for p in contents),
    )


def _scene_list(contents: list[PageContents]) -> list[SceneEntry]:
    """The scene list of the front page (the one with the game's title and no posts), or the
    longest list found on any page."""
    lists = [p.scene_list for p in contents if p.scene_list]
    front = [p.scene_list for p in contents if p.scene_list and not p.posts and p.game_title]
    return (front or sorted(lists, key=len, reverse=True) or [[]])[0]


def _order(listing: list[SceneEntry], scenes: dict[str, _Scene]) -> list[UmbriaScene]:
    """The listed scenes in the list's order (a listed scene with no saved page comes with
    its title and opening text), then the others by their first post."""
    ordered: list[UmbriaScene] = []
    listed: set[str] = set()
    for entry in listing:
        key = entry.key or title_key(entry.title)
        listed.add(key)
        page = scenes.get(key)
        opening = (page.opening if page else None) or entry.opening
        posts = page.ordered() if page else ()
        ordered.append(UmbriaScene(key, entry.title, opening, posts))
    rest = [key for key in scenes if key not in listed]
    rest.sort(key=lambda k: (scenes[k].first() is None, scenes[k].first() or datetime.min))
    for key in rest:
        page = scenes[key]
        ordered.append(UmbriaScene(key, page.title, page.opening, page.ordered()))
    return ordered


def _characters(contents: list[PageContents]) -> list[UmbriaCharacter]:
    """Each character once (by folded name; the first page that names it wins)."""
    found: dict[str, UmbriaCharacter] = {}
    for page in contents:
        for character in page.characters:
            found.setdefault(fold_words(character.name), character)
    return list(found.values())


def _players(
    contents: list[PageContents], scenes: list[UmbriaScene], characters: list[UmbriaCharacter]
) -> tuple[UmbriaPlayer, ...]:
    """Every Umbría user who wrote a post or plays a character, named as a page names them
    (each name once: a clash, or no name at all, is told apart by the user's number)."""
    names: dict[str, str] = {}
    for page in contents:
        for number, name in page.players.items():
            names.setdefault(number, name)
    numbers: dict[str, None] = {}
    for scene in scenes:
        for post in scene.posts:
            if post.author_id:
                numbers.setdefault(post.author_id, None)
    for character in characters:
        if character.player_id:
            numbers.setdefault(character.player_id, None)
    players: list[UmbriaPlayer] = []
    taken: set[str] = set()
    for number in numbers:
        name = names.get(number) or f"Umbría #{number}"
        if fold_words(name) in taken:
            name = f"{name} (#{number})"
        taken.add(fold_words(name))
        players.append(UmbriaPlayer(number, name[:100]))
    return tuple(players)
