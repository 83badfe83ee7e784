"""Every assumption the Umbría reader makes about the pages, in one place.

Comunidad Umbría publishes no export and no description of its markup.  What is written here
is what two independent scrapers, written ten years apart, agree on (issue 27), plus the
visible text of rolls and of director-only posts, whose markup is **not confirmed** and is
therefore matched by its text.  A page the reader misreads is fixed here, and only here: the
other modules ask this one (docs/play-by-post.md, «Mudarse desde Umbría», says how to report
one).

The CSS selectors are applied with BeautifulSoup's ``select`` (soupsieve); the text patterns
are applied to visible text, never to markup.
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from rules.text import fold_words

__all__ = [
    "AUTHOR_LINK",
    "AVATAR",
    "BODY",
    "CHARACTER_BLOCK",
    "CHARACTER_NAME",
    "DATE",
    "DIRECTOR_ONLY",
    "GAME_TITLE",
    "NOTES",
    "NOTES_HEADING",
    "POST",
    "POST_ID",
    "SCENE_DESCRIPTION",
    "SCENE_LIST",
    "SCENE_TITLE",
    "SECTION_HEADINGS",
    "SPEAKER",
    "UMBRIA_ZONE",
    "address_of",
    "author_of",
    "parse_date",
    "section_of",
]

#: Umbría shows every date in Spanish peninsular time.
UMBRIA_ZONE = ZoneInfo("Europe/Madrid")

# -- pages of a scene: /partida/<game>/<scene>?__Pg=N ------------------------------------

#: The game's title (also on the front page, ``portada.html``).
GAME_TITLE = "h2.tituloPartida"
#: The scene's title; newer pages wrap its text in a ``span`` (the text is read whole).
SCENE_TITLE = "h3#escena"
#: The scene's opening text, on its own page or beside its entry in the scene list.
SCENE_DESCRIPTION = ".textoEscena"
#: One post: ``div.wrapMensaje > div.mensaje#msj<ID>``.
POST = "div.wrapMensaje > div.mensaje"
POST_ID = re.compile(r"^msj(\d{1,20})$")
#: The avatar shown with the post; it sits inside a link to the author's Umbría profile.
AVATAR = "img.fotoAvatar"
AUTHOR_LINK = re.compile(r"/comunidad/companeros/(\d{1,20})")
#: ``DD/MM/YYYY, HH:MM`` in Madrid time.
DATE = "div.fecha"
DATE_TEXT = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4}),?\s+(\d{1,2}):(\d{2})")
#: The name the post was shown under (a character, an NPC or the director).
SPEAKER = "div.pj"
#: The post's text as HTML.
BODY = "div.texto"
#: «Notas de juego» (``div.notas#notas<ID>``), headed by that title.
NOTES = "div.notas"
NOTES_HEADING = "notas de juego"
#: The visible words under the name of a post only the director sees (compared folded:
#: «Sólo para el director», «Solo para el director»).
DIRECTOR_ONLY = "solo para el director"

# -- the list of scenes (front page, and the side of every scene page) ---------------------

SCENE_LIST = "div#listaEscenas"
#: A scene's address: the game and scene numbers, and the page when there is one.
ADDRESS = re.compile(r"/partida/(\d{1,20})/(\d{1,20})(?:/?\?__Pg=(\d{1,6}))?")
#: Where a saved page may keep its own address: browsers write ``saved from url`` in a
#: comment; pages also carry ``link rel=canonical`` and ``og:url``, and the pager's links.
SAVED_FROM = re.compile(r"saved from url=\(\d+\)(\S+)")

# -- the characters' pages: menu_personajes.html (players) and menu_pnjs.html (NPCs) -------

#: One character: a block with the class ``personaje`` (its name in ``.nombre`` or its first
#: heading, its avatar the first image, its player a link to the player's Umbría profile).
CHARACTER_BLOCK = ".personaje"
CHARACTER_NAME = ".nombre"
#: The sections of a character, found by their heading's visible words (folded).
SECTION_HEADINGS = {
    "descripcion": "description",
    "descripcion publica": "description",
    "historia": "history",
    "trasfondo": "history",
    "ficha": "sheet",
    "equipo": "equipment",
    "inventario": "equipment",
}
HEADING_TAGS = ("h2", "h3", "h4", "h5", "h6")


def parse_date(text: str) -> datetime | None:
    """``"23/01/2014, 17:14"`` as an aware time in Madrid (None if it does not read so).

    A time that happens twice (the October change) is read as the first; one that never
    happens (the March change) is moved forward by the zone rules, as Umbría's server did.
    """
    found = DATE_TEXT.search(text)
    if found is None:
        return None
    day, month, year, hour, minute = (int(part) for part in found.groups())
    try:
        return datetime(year, month, day, hour, minute, tzinfo=UMBRIA_ZONE)
    except ValueError:
        return None


def author_of(href: str | None) -> str | None:
    """The Umbría user number in a link to their profile (``/comunidad/companeros/13377``)."""
    found = AUTHOR_LINK.search(href or "")
    return found.group(1) if found else None


def address_of(text: str | None) -> tuple[str, str, int | None] | None:
    """``(game, scene, page)`` of a scene address found in ``text``."""
    found = ADDRESS.search(text or "")
    if found is None:
        return None
    page = int(found.group(3)) if found.group(3) else None
    return found.group(1), found.group(2), page


def section_of(heading: str) -> str | None:
    """Which section of a character a heading opens (``description``, ``history``, ``sheet``,
    ``equipment``), by its visible words; None for any other heading."""
    return SECTION_HEADINGS.get(fold_words(heading).strip(" :"))


# -- rolls, by their visible text -------------------------------------------------------------
#
#   Tirada: 1d100(+31)   Motivo: Acechar   Resultado: 74(+31)=105
#   Tirada: 2d10         Motivo: Iniciativa   Resultados: 10, 5
#
# The three labels may be on separate lines or on one line separated by « / ».

ROLL_LABEL = re.compile(r"\b(Tirada|Motivo|Resultados?)\s*:", re.IGNORECASE)
ROLL_EXPRESSION = re.compile(
    r"^\s*(\d{1,3})\s*[dD]\s*(\d{1,4})\s*(?:\(\s*([+-]\s*\d{1,6})\s*\))?\s*$"
)
#: ``74(+31)=105`` or ``74``: the die, the modifier, the total.
ROLL_SINGLE = re.compile(
    r"^\s*(-?\d{1,7})\s*(?:\(\s*([+-]\s*\d{1,6})\s*\))?\s*(?:=\s*(-?\d{1,8}))?\s*$"
)
#: ``10, 5`` (and any modifier and total written after them, as for one die).
ROLL_MANY = re.compile(
    r"^\s*(\d{1,7}(?:\s*[,;]\s*\d{1,7})*)\s*(?:\(\s*([+-]\s*\d{1,6})\s*\))?\s*(?:=\s*(-?\d{1,8}))?\s*$"
)
