"""What the Umbría reader finds in a zip: plain, frozen, picklable records (no ids yet).

The worker process builds them (:mod:`.reader`); the import service turns them into rows
(:mod:`bot.services.chronicle.umbria_import`).  Times are aware UTC; text is Discord Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

__all__ = [
    "UmbriaCharacter",
    "UmbriaGame",
    "UmbriaImage",
    "UmbriaPlayer",
    "UmbriaPost",
    "UmbriaRoll",
    "UmbriaScene",
]


@dataclass(frozen=True, slots=True)
class UmbriaRoll:
    """One roll as the post showed it (never rolled again)."""

    expression: str  # «1d100+31», «2d10»
    reason: str | None
    dice: tuple[int, ...]
    modifier: int
    total: int

    @property
    def breakdown(self) -> str:
        """``[74] +31 = 105`` — the dice, the modifier and the total, as shown."""
        dice = "[" + ", ".join(str(d) for d in self.dice) + "]"
        modifier = f" {self.modifier:+d}" if self.modifier else ""
        return f"{dice}{modifier} = {self.total}"


@dataclass(frozen=True, slots=True)
class UmbriaImage:
    """An image found in the zip (an avatar, or one shown inside a post)."""

    key: str  # the member's name in the zip
    name: str  # its file name, for people
    data: bytes


@dataclass(frozen=True, slots=True)
class UmbriaPost:
    message_id: str  # Umbría's number (``msj<ID>``): the same post on two pages is one post
    scene_key: str
    author_id: str | None  # the Umbría user who wrote it (their profile's number)
    speaker: str  # the name it was shown under
    avatar: str | None  # key of its avatar image in the zip, when the zip has it
    posted_at: datetime  # UTC
    text: str  # Discord Markdown
    notes: str | None
    director_only: bool
    rolls: tuple[UmbriaRoll, ...] = ()
    images: tuple[str, ...] = ()  # keys of the images shown in the text, in order
    page: str = ""  # the file it was read from (for problems)


@dataclass(frozen=True, slots=True)
class UmbriaScene:
    key: str  # «<game>/<scene>» from the page's address, else «titulo:<folded title>»
    title: str
    opening: str | None  # its opening text (Markdown), from its page or the scene list
    posts: tuple[UmbriaPost, ...] = ()


@dataclass(frozen=True, slots=True)
class UmbriaCharacter:
    name: str
    npc: bool  # from menu_pnjs.html
    player_id: str | None  # the Umbría user who plays it, when the page names them
    avatar: str | None
    description: str | None  # public (Markdown)
    history: str | None  # public (Markdown)
    sheet: str | None  # «Ficha» and «Equipo»: free text, a note for the GM (Markdown)


@dataclass(frozen=True, slots=True)
class UmbriaPlayer:
    umbria_id: str
    name: str  # their Umbría name (or «Umbría #<id>» when no page names them)


@dataclass(frozen=True, slots=True)
class UmbriaGame:
    title: str | None
    scenes: tuple[UmbriaScene, ...]
    characters: tuple[UmbriaCharacter, ...]
    players: tuple[UmbriaPlayer, ...]
    images: dict[str, UmbriaImage] = field(default_factory=dict)
    #: HTML files that are none of the pages the reader knows (listed in the summary).
    skipped: tuple[str, ...] = ()
    #: images a page shows that the zip does not hold (never fetched from the internet)
    missing_images: int = 0

    def counts(self) -> dict[str, int]:
        posts = [p for s in self.scenes for p in s.posts]
        return {
            "scenes": len(self.scenes),
            "posts": len(posts),
            "characters": len(self.characters),
            "rolls": sum(len(p.rolls) for p in posts),
            "players": len(self.players),
            "director_only": sum(1 for p in posts if p.director_only),
        }
