"""One saved Umbría page → what it holds: a scene's posts, the scene list, or characters.

Every assumption about the markup comes from :mod:`.markup`.  A page that looks like a scene
page but lacks what a post needs (its number, date, name or text), or shows a roll the reader
cannot read, is **reported** with the file and the post (``Problem``), never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

from bs4 import BeautifulSoup
from bs4.element import Comment, PageElement, Tag

from bot.services.chronicle.umbria import markup
from bot.services.chronicle.umbria.markdown import ImageLookup, to_markdown
from bot.services.chronicle.umbria.records import UmbriaCharacter, UmbriaPost, UmbriaRoll
from rules.text import fold, fold_words

__all__ = [
    "MAX_ROLLS_PER_POST",
    "PageContents",
    "Problem",
    "SceneEntry",
    "parse_page",
    "read_rolls",
]

#: A post showing more rolls than this is not a post as Umbría makes them: reported.
MAX_ROLLS_PER_POST = 50
MAX_NAME = 100
#: A post's text or notes (as the chronicle's import accepts them), and a character's
#: public history.
MAX_TEXT = 64 * 1024
MAX_HISTORY = 100_000

Problem = tuple[str, dict[str, Any]]
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class SceneEntry:
    """A scene named in the scene list: its address key, title and opening text."""

    key: str | None
    title: str
    opening: str | None


@dataclass
class PageContents:
    path: str
    game_title: str | None = None
    scene_key: str | None = None
    scene_title: str | None = None
    scene_opening: str | None = None
    posts: list[UmbriaPost] = field(default_factory=list)
    scene_list: list[SceneEntry] = field(default_factory=list)
    characters: list[UmbriaCharacter] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)  # Umbría number → name
    images: list[str] = field(default_factory=list)  # zip keys of every image used
    missing_images: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def recognised(self) -> bool:
        return bool(
            self.scene_title or self.posts or self.scene_list or self.characters or self.players
        )


def _text(node: Tag | None) -> str:
    return _SPACES.sub(" ", node.get_text(" ")).strip() if node is not None else ""


def scene_key_of(game: str, scene: str) -> str:
    return f"{game}/{scene}"


def title_key(title: str) -> str:
    return "titulo:" + fold_words(title)


def parse_page(path: str, html: bytes, images: ImageLookup, *, npc_page: bool) -> PageContents:
    """What the page at ``path`` holds (``npc_page``: its characters are NPCs)."""
    soup = BeautifulSoup(html, "html.parser")
    page = PageContents(path)
    page.game_title = _text(soup.select_one(markup.GAME_TITLE)) or None
    page.players = _players(soup)
    scene_list = soup.select_one(markup.SCENE_LIST)
    if scene_list is not None:
        page.scene_list = _scene_list(scene_list)
    title = soup.select_one(markup.SCENE_TITLE)
    posts = soup.select(markup.POST)
    if title is not None or posts:
        _scene_page(page, soup, title, posts, images)
    elif soup.select(markup.CHARACTER_BLOCK):
        for block in soup.select(markup.CHARACTER_BLOCK):
            character = _character(page, block, images, npc=npc_page)
            if character is not None:
                page.characters.append(character)
    return page


# -- the scene list ---------------------------------------------------------------------------


def _scene_list(container: Tag) -> list[SceneEntry]:
    """Each scene linked from the list, in its order (once), with the opening text beside it."""
    entries: list[SceneEntry] = []
    seen: set[str] = set()
    for link in container.find_all("a", href=True):
        address = markup.address_of(str(link.get("href")))
        title = _text(link)
        if address is None or not title:
            continue
        key = scene_key_of(address[0], address[1])
        if key in seen:
            continue
        seen.add(key)
        entry = _entry_of(link, container)
        description = entry.select_one(markup.SCENE_DESCRIPTION) if entry is not link else None
        opening = to_markdown(description.children).text if description is not None else ""
        entries.append(SceneEntry(key, title[:MAX_NAME], opening or None))
    return entries


def _entry_of(link: Tag, container: Tag) -> Tag:
    """The element of the list that holds this link (its ancestor just under the list)."""
    node: Tag = link
    while node.parent is not None and node.parent is not container:
        node = node.parent
    return node


def _players(soup: BeautifulSoup) -> dict[str, str]:
    """Umbría users named by a link to their profile with visible text (player lists)."""
    found: dict[str, str] = {}
    for link in soup.find_all("a", href=True):
        number = markup.author_of(str(link.get("href")))
        name = _text(link)
        if number and name and number not in found:
            found[number] = name[:MAX_NAME]
    return found


# -- a scene's page ---------------------------------------------------------------------------


def _own_address(soup: BeautifulSoup) -> tuple[str, str] | None:
    """The scene's address as the saved page records it (see :data:`markup.SAVED_FROM`)."""
    for comment in soup.find_all(string=lambda s: isinstance(s, Comment)):
        saved = markup.SAVED_FROM.search(str(comment))
        if saved and (address := markup.address_of(saved.group(1))):
            return address[0], address[1]
    for tag, attribute in (
        (soup.find("link", rel="canonical"), "href"),
        (soup.find("meta", property="og:url"), "content"),
    ):
        if isinstance(tag, Tag) and (address := markup.address_of(str(tag.get(attribute)))):
            return address[0], address[1]
    listing = soup.select_one(markup.SCENE_LIST)
    for link in soup.find_all("a", href=True):
        if listing is not None and link in listing.descendants:
            continue
        address = markup.address_of(str(link.get("href")))
        if address is not None and address[2] is not None:  # the pager: ?__Pg=N
            return address[0], address[1]
    return None


def _scene_page(
    page: PageContents,
    soup: BeautifulSoup,
    title: Tag | None,
    posts: list[Tag],
    images: ImageLookup,
) -> None:
    page.scene_title = _text(title)[:MAX_NAME] or None
    if page.scene_title is None:
        page.problems.append(("umbria.problem.no_scene_title", {"page": page.path}))
        return
    address = _own_address(soup)
    page.scene_key = scene_key_of(*address) if address is not None else title_key(page.scene_title)
    description = soup.select_one(markup.SCENE_DESCRIPTION)
    if description is not None and (
        (listing := soup.select_one(markup.SCENE_LIST)) is None
        or description not in listing.descendants
    ):
        page.scene_opening = to_markdown(description.children, images).text or None
    for element in posts:
        post = _post(page, element, images)
        if post is not None:
            page.posts.append(post)


def _post(page: PageContents, element: Tag, images: ImageLookup) -> UmbriaPost | None:
    number = markup.POST_ID.match(str(element.get("id") or ""))
    where = {"page": page.path, "post": str(element.get("id") or "?")[:30]}
    if number is None:
        page.problems.append(("umbria.problem.post_without_id", where))
        return None
    date_node = element.select_one(markup.DATE)
    speaker_node = element.select_one(markup.SPEAKER)
    body = element.select_one(markup.BODY)
    posted = markup.parse_date(_text(date_node)) if date_node is not None else None
    speaker = _speaker(speaker_node)
    missing = [
        part
        for part, value in (("fecha", posted), ("pj", speaker), ("texto", body))
        if value is None or value == ""
    ]
    if missing:
        page.problems.append(
            ("umbria.problem.post_incomplete", {**where, "parts": ", ".join(missing)})
        )
        return None
    assert posted is not None and body is not None and speaker is not None
    avatar_node = element.select_one(markup.AVATAR)
    avatar = _image_key(avatar_node, images, page)
    author = _author(element, avatar_node)
    text = to_markdown(body.children, images)
    notes = _notes(element, images)
    page.missing_images += text.missing_images + (notes.missing_images if notes else 0)
    page.images.extend(text.images + (notes.images if notes else []))
    # what is left outside the text and the notes: the name, the date, the marks, the rolls
    body.extract()
    for node in element.select(markup.NOTES):
        node.extract()
    rest = element.get_text("\n")
    if len(text.text) > MAX_TEXT or (notes is not None and len(notes.text) > MAX_TEXT):
        page.problems.append(("umbria.problem.post_too_long", {**where, "limit": MAX_TEXT}))
        return None
    rolls, problem = read_rolls(rest)
    if problem is not None:
        page.problems.append(("umbria.problem.roll", {**where, "text": problem[:120]}))
        return None
    return UmbriaPost(
        message_id=number.group(1),
        scene_key=page.scene_key or "",
        author_id=author,
        speaker=speaker[:MAX_NAME],
        avatar=avatar,
        posted_at=posted.astimezone(UTC),
        text=text.text,
        notes=notes.text if notes and notes.text else None,
        director_only=markup.DIRECTOR_ONLY in fold_words(rest),
        rolls=tuple(rolls),
        images=tuple(text.images),
        page=page.path,
    )


def _author(element: Tag, avatar: Tag | None) -> str | None:
    """The Umbría user who wrote the post: the profile its avatar links to (or any profile
    link in the post)."""
    link = avatar.find_parent("a", href=True) if avatar is not None else None
    if link is None:
        found = element.find("a", href=markup.AUTHOR_LINK)
        link = found if isinstance(found, Tag) else None
    return markup.author_of(str(link.get("href"))) if link is not None else None


def _speaker(node: Tag | None) -> str | None:
    """The name shown: the first line of ``div.pj`` that is not the director-only mark."""
    if node is None:
        return None
    for line in node.get_text("\n").split("\n"):
        name = _SPACES.sub(" ", line).strip()
        if name and markup.DIRECTOR_ONLY not in fold_words(name):
            return name
    return None


def _notes(element: Tag, images: ImageLookup) -> Any:
    notes = element.select_one(markup.NOTES)
    if notes is None:
        return None
    for heading in notes.find_all(markup.HEADING_TAGS):
        if fold_words(_text(heading)).strip(" :") == markup.NOTES_HEADING:
            heading.extract()
    return to_markdown(notes.children, images)


def _image_key(node: Tag | None, images: ImageLookup, page: PageContents) -> str | None:
    src = str(node.get("src") or "").strip() if node is not None else ""
    if not src:
        return None
    key = images(src)
    if key is None:
        page.missing_images += 1
    else:
        page.images.append(key)
    return key


# -- rolls, read from visible text --------------------------------------------------------------


def _field(text: str) -> str:
    """A label's value: its first non-empty line, without the « / » that joins labels."""
    for line in text.split("\n"):
        value = _SPACES.sub(" ", line).strip().rstrip("/").strip()
        if value:
            return value
    return ""


def read_rolls(text: str) -> tuple[list[UmbriaRoll], str | None]:
    """The rolls shown in ``text`` (a post outside its body and notes), or the first roll's
    text that cannot be read (reported, never guessed)."""
    labels = list(markup.ROLL_LABEL.finditer(text))
    blocks: list[dict[str, str]] = []
    for index, label in enumerate(labels):
        end = labels[index + 1].start() if index + 1 < len(labels) else len(text)
        name = fold(label.group(1))
        value = _field(text[label.end() : end])
        if name == "tirada":
            blocks.append({"tirada": value})
        elif blocks:
            blocks[-1]["resultado" if name.startswith("resultado") else name] = value
    if len(blocks) > MAX_ROLLS_PER_POST:
        return [], f"{len(blocks)} × Tirada"
    rolls = []
    for block in blocks:
        roll = _roll(block)
        if roll is None:
            shown = " / ".join(f"{k.capitalize()}: {v}" for k, v in block.items())
            return [], shown
        rolls.append(roll)
    return rolls, None


def _number(text: str | None) -> int:
    return int(text.replace(" ", "")) if text else 0


def _roll(block: dict[str, str]) -> UmbriaRoll | None:
    expression = markup.ROLL_EXPRESSION.match(block.get("tirada", ""))
    result = block.get("resultado", "")
    if expression is None or not result:
        return None
    count, sides = int(expression.group(1)), int(expression.group(2))
    modifier = _number(expression.group(3))
    if count < 1 or sides < 2:
        return None
    pattern = markup.ROLL_SINGLE if count == 1 else markup.ROLL_MANY
    shown = pattern.match(result)
    if shown is None:
        return None
    dice = tuple(int(d) for d in re.split(r"\s*[,;]\s*", shown.group(1).strip()))
    shown_modifier = _number(shown.group(2)) if shown.group(2) else modifier
    if len(dice) != count or not all(1 <= d <= sides for d in dice) or shown_modifier != modifier:
        return None
    total = sum(dice) + modifier
    if shown.group(3) is not None and int(shown.group(3)) != total:
        return None
    written = f"{count}d{sides}" + (f"{modifier:+d}" if modifier else "")
    reason = block.get("motivo") or None
    return UmbriaRoll(written, reason[:200] if reason else None, dice, modifier, total)


# -- the characters' pages ----------------------------------------------------------------------


def _character(
    page: PageContents, block: Tag, images: ImageLookup, *, npc: bool
) -> UmbriaCharacter | None:
    name_node = block.select_one(markup.CHARACTER_NAME) or block.find(markup.HEADING_TAGS)
    name = _text(name_node if isinstance(name_node, Tag) else None)
    if not name or len(name) > MAX_NAME:
        page.problems.append(
            ("umbria.problem.character_name", {"page": page.path, "name": name[:40]})
        )
        return None
    avatar_node = block.select_one(markup.AVATAR) or block.find("img")
    avatar = _image_key(avatar_node if isinstance(avatar_node, Tag) else None, images, page)
    player = None
    link = block.find("a", href=markup.AUTHOR_LINK)
    if isinstance(link, Tag):
        player = markup.author_of(str(link.get("href")))
    sections: dict[str, list[tuple[str, str]]] = {}
    for heading in block.find_all(markup.HEADING_TAGS):
        kind = markup.section_of(_text(heading))
        if kind is None:
            continue
        converted = to_markdown(_section(heading), images)
        page.images.extend(converted.images)
        page.missing_images += converted.missing_images
        if converted.text:
            sections.setdefault(kind, []).append((_text(heading), converted.text))

    def joined(kind: str) -> str | None:
        return "\n\n".join(text for _, text in sections.get(kind, [])) or None

    public = (joined("description") or "") + (joined("history") or "")
    if len(public) > MAX_HISTORY:
        page.problems.append(
            ("umbria.problem.history_too_long", {"name": name, "limit": MAX_HISTORY})
        )
        return None
    sheet = "\n\n".join(
        f"**{title}**\n{text}"
        for kind in ("sheet", "equipment")
        for title, text in sections.get(kind, [])
    )
    return UmbriaCharacter(
        name=name,
        npc=npc,
        player_id=player,
        avatar=avatar,
        description=joined("description"),
        history=joined("history"),
        sheet=sheet or None,
    )


def _section(heading: Tag) -> list[PageElement]:
    """The nodes after ``heading`` up to the next heading beside it."""
    nodes: list[PageElement] = []
    for sibling in heading.next_siblings:
        if isinstance(sibling, Tag) and (sibling.name or "").lower() in markup.HEADING_TAGS:
            break
        nodes.append(sibling)
    return nodes
