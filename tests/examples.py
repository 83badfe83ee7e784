"""Example characters shared by every test layer (rules, services, end to end): one Ardelia.

Seed 002's worked character «Ardelia» («Ninfa Estelar»), made legal: her printed sheet lists
«Atletismo 1» twice, leaving five distinct level-1 skills where the Versátil pyramid asks for
six, so the duplicate becomes «Sigilo 1» (docs/rules-decisions.md, Núcleo).  Tests copy these
before changing them (``copy.deepcopy`` or ``ardelia()``); never edit them in place.
"""

from __future__ import annotations

import copy
from typing import Any

ARDELIA: dict[str, Any] = {
    "name": "Ardelia",
    "system": "nucleo",
    "atributos": {"Físico": 6, "Destreza": 7, "Inteligencia": 9, "Percepción": 8, "Carisma": 7},
    "piramide": "versatil",
    "habilidades": {
        "Pilotar": 6,
        "Advertir/Notar": 5,
        "Esquivar": 5,
        "Reflejos": 4,
        "Armas a distancia": 4,
        "Navegación Espacial": 4,
        "Conducir": 3,
        "Mecánica": 3,
        "Ingeniería": 3,
        "Buscar": 3,
        "Seducir": 2,
        "Informática": 2,
        "Amenazar": 2,
        "Medicina": 2,
        "Callejeo": 2,
        "Regatear": 1,
        "Labia": 1,
        "Leyes": 1,
        "Atletismo": 1,
        "Etiqueta": 1,
        "Sigilo": 1,
    },
    "hechizos": {},
    "ventaja": "Suerte",
    "raza": "Humano",
    "ventaja_racial": None,
    "heridas": 0,
    "mana_gastado": 0,
    "token": True,
    "px": 0,
    "equipo": {
        "arma_principal": None,
        "dos_manos": False,
        "arma_secundaria": None,
        "armadura": None,
        "escudo": False,
        "otros": [],
    },
}

#: Ardelia's printed values next to what the formulas give (seed 002, «Ejemplo»).
ARDELIA_PRINTED = {"pv": 24, "defensa": 17, "iniciativa": 13, "voluntad": 19}

#: The same Ardelia through the creation wizard: the answer to each step, typed the way a
#: player on a phone would (case and accents ignored by the wizard).
ARDELIA_ATTRIBUTES = {
    "Físico": "6",
    "Destreza": "7",
    "Inteligencia": "9",
    "Percepción": "8",
    "Carisma": "7",
}
ARDELIA_HIGH_SKILLS = {
    "nivel_6": "pilotar",
    "nivel_5": "Advertir/Notar, esquivar",
    "nivel_4": "Reflejos, Armas a distancia, navegacion espacial",
}
ARDELIA_LOW_SKILLS = {
    "nivel_3": "Conducir, Mecánica, Ingenieria, Buscar",
    "nivel_2": "Seducir, Informática, Amenazar, Medicina, Callejeo",
    "nivel_1": "Regatear, Labia, Leyes, Atletismo, Etiqueta, Sigilo",
}
ARDELIA_ANSWERS: dict[str, Any] = {
    "atributos": ARDELIA_ATTRIBUTES,
    "raza": ["Humano"],
    "piramide": ["versatil"],
    "habilidades_1": ARDELIA_HIGH_SKILLS,
    "habilidades_2": ARDELIA_LOW_SKILLS,
    "ventaja": ["Suerte"],
    "arma": ["Espada larga"],
    "armadura": None,
    "escudo": ["escudo"],
}


def ardelia(**changes: Any) -> dict[str, Any]:
    """A private copy of Ardelia, with top-level ``changes`` (e.g. ``name="Bram"``)."""
    return {**copy.deepcopy(ARDELIA), **changes}


def ardelia_the_mage(spells: dict[str, int] | None = None) -> dict[str, Any]:
    """Ardelia with «Proyectil mágico» 1 in place of «Sigilo» 1 (spells count in the pyramid)."""
    sheet = ardelia()
    del sheet["habilidades"]["Sigilo"]
    sheet["hechizos"] = dict(spells or {"Proyectil mágico": 1})
    return sheet


def nucleo_android(name: str = "Unidad 7") -> dict[str, Any]:
    """A Núcleo Artificial («Androide»: Especialista only, no advantage, −1 PX a session;
    seed 002, «Módulo de reglas: Razas») on Ardelia's attributes and skills rearranged."""
    sheet = ardelia(name=name, raza="Artificial", piramide="especialista", ventaja=None)
    levels = (6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1)
    names = list(ARDELIA["habilidades"])[: len(levels)]
    sheet["habilidades"] = dict(zip(names, levels, strict=True))
    return sheet


def swc_character(
    name: str, clase: str, attributes: dict[str, int], hit_points: int, **changes: Any
) -> dict[str, Any]:
    """An S&W level-1 human of ``clase``, lawful, built on the system's own new sheet and the
    default settings (as the wizard would), with ``changes``."""
    from bot.services.campaigns.settings import resolved_settings
    from rules import systems

    swc = systems.get("swc")
    sheet = swc.new_sheet(name, resolved_settings(swc.settings(), {}))
    sheet.update(
        raza="humano",
        clases=[clase],
        alineamiento="legal",
        atributos=attributes,
        pg={"max": hit_points, "actual": hit_points},
    )
    return sheet | changes


def swc_cleric(**changes: Any) -> dict[str, Any]:
    """«Aldara», a Clérigo (Sabiduría 15) with 6 PG."""
    scores = {"Fuerza": 10, "Destreza": 10, "Constitución": 12, "Inteligencia": 10}
    scores |= {"Sabiduría": 15, "Carisma": 8}
    return swc_character("Aldara", "clerigo", scores, 6, **changes)


def swc_fighter(constitution: int = 15, **changes: Any) -> dict[str, Any]:
    """«Borin», a Guerrero (Fuerza 15) with 8 PG."""
    scores = {"Fuerza": 15, "Destreza": 10, "Constitución": constitution, "Inteligencia": 9}
    scores |= {"Sabiduría": 10, "Carisma": 9}
    return swc_character("Borin", "guerrero", scores, 8, **changes)


def image(kind: str = "png", width: int = 2, height: int = 2, *, noise: int = 0) -> bytes:
    """A real image (an avatar) of ``width`` × ``height`` in ``kind`` (png, jpeg, gif, webp),
    made by Pillow as the bot reads it; ``noise`` bytes of random pixels make it big (a PNG
    of 256 × 256 noise is about 192 KiB)."""
    import io
    import random

    from PIL import Image

    picture = Image.new("RGB", (width, height), (120, 40, 200))
    if noise:
        rng = random.Random(noise)
        picture = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
    out = io.BytesIO()
    picture.save(out, {"jpeg": "JPEG", "gif": "GIF", "webp": "WEBP"}.get(kind, "PNG"))
    return out.getvalue()


def declared_png(width: int, height: int) -> bytes:
    """A small, well-formed PNG whose header declares ``width`` × ``height`` pixels (its
    pixel data is a few rows of zeros): what a first-bytes check let through."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit grey
    rows = zlib.compress(b"\x00" * (1 + (width + 7) // 8) * 64, 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )
