"""Example characters shared by the tests."""

from __future__ import annotations

# Seed 002's worked character "Ardelia", made legal: her printed sheet lists "Atletismo 1"
# twice, so the sixth level-1 skill is Nadar (docs/rules-decisions.md, Núcleo).
ARDELIA = {
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
        "Nadar": 1,
    },
    "hechizos": {},
    "ventaja": "Suerte",
    "raza": "Humano",
    "heridas": 0,
    "mana_gastado": 0,
    "token": True,
}
