"""Campaign settings for rolweb: where groups reasonably differ, the choice is theirs.

Seed 001 contradicts itself in a few places (see docs/rules-decisions.md, "Partida Rol por
web") and leaves others to the family it follows (Symbaroum).  Every such choice is a
:class:`~rules.systems.base.SettingSpec` here, so the rest of the package reads one
validated :class:`RolwebSettings` instead of raw mappings.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.systems.base import FieldKind, Problem, RulesError, SettingSpec
from rules.text import parse_yes_no

__all__ = [
    "DEFAULT_ATTRIBUTES",
    "REQUIRED_ATTRIBUTES",
    "STANDARD_ARRAY",
    "CreationMethod",
    "NaturalRule",
    "DeathRule",
    "NPCS_DIE_AT_ZERO",
    "PAIN_DEFAULT",
    "PainDefault",
    "RolwebSettings",
    "SETTING_SPECS",
    "parse_settings",
]

# The eight attributes of the Symbaroum family; the seed names six of them.
DEFAULT_ATTRIBUTES: tuple[str, ...] = (
    "Ágil",
    "Astuto",
    "Atento",
    "Diestro",
    "Discreto",
    "Fuerte",
    "Persuasivo",
    "Tenaz",
)
# The rules of seed 001 read these five, so a campaign's list may not drop them.
REQUIRED_ATTRIBUTES: tuple[str, ...] = ("Ágil", "Atento", "Diestro", "Discreto", "Fuerte")
STANDARD_ARRAY: tuple[int, ...] = (15, 13, 11, 10, 10, 9, 7, 5)


class CreationMethod(enum.StrEnum):
    """How starting attributes are chosen (Symbaroum family: a pool or the standard array)."""

    POOL = "puntos"
    ARRAY = "serie"
    FREE = "libre"


class NaturalRule(enum.StrEnum):
    """What a natural 1 or 20 means on a test (the seed is silent outside death tests)."""

    NONE = "ninguna"  # plain roll-under: only the target decides
    AUTOMATIC = "automaticos"  # 1 always succeeds, 20 always fails
    CRITICAL = "criticos"  # as automatic, and reported as critical / fumble


class DeathRule(enum.StrEnum):
    """What a death test of 2-19 does (the seed only says 1 gets up, 20 dies)."""

    SEED = "semilla"  # 2-19: nothing, roll again next turn
    FAMILY = "familia"  # 2-10 nothing, 11-19 a failure, the third failure kills


class PainDefault(enum.StrEnum):
    """UMBRAL DE DOLOR's effect when nobody chose before the hurt one's turn (the seed has the
    player choose and sets no time; docs/rules-decisions.md): the values of
    :class:`rules.rolweb.damage.PainEffect`."""

    PRONE = "derribado"  # it falls: the choice that stays with the one who had to make it
    FREE_ATTACK = "ataque_gratuito"


@dataclass(frozen=True, slots=True)
class RolwebSettings:
    """The validated campaign settings every rolweb module reads."""

    attributes: tuple[str, ...] = DEFAULT_ATTRIBUTES
    creation: CreationMethod = CreationMethod.POOL
    pool: int = 80
    minimum: int = 5
    maximum: int = 15
    array: tuple[int, ...] = STANDARD_ARRAY
    naturals: NaturalRule = NaturalRule.NONE
    movement_to_combat: bool = False
    defence_costs_action: bool = False
    run_squares: int = 5
    death_rule: DeathRule = DeathRule.SEED
    rise_toughness: str = "1d4"
    abilities_json: str = ""
    weapons_json: str = ""
    armour_json: str = ""
    starting_xp: int = 50
    currency: str = "monedas"
    npcs_die_at_zero: bool = True
    pain_default: PainDefault = PainDefault.PRONE


NPCS_DIE_AT_ZERO = "pnj_mueren_a_0"
PAIN_DEFAULT = "umbral_por_defecto"

SETTING_SPECS: tuple[SettingSpec, ...] = (
    SettingSpec("atributos", FieldKind.TEXT, ", ".join(DEFAULT_ATTRIBUTES)),
    SettingSpec("creacion", FieldKind.CHOICE, "puntos", tuple(CreationMethod)),
    SettingSpec("creacion_puntos", FieldKind.INTEGER, 80, minimum=1, maximum=400),
    SettingSpec("creacion_minimo", FieldKind.INTEGER, 5, minimum=1, maximum=20),
    SettingSpec("creacion_maximo", FieldKind.INTEGER, 15, minimum=1, maximum=20),
    SettingSpec("creacion_serie", FieldKind.TEXT, ", ".join(map(str, STANDARD_ARRAY))),
    SettingSpec("naturales", FieldKind.CHOICE, "ninguna", tuple(NaturalRule)),
    SettingSpec("movimiento_a_combate", FieldKind.BOOLEAN, False),
    SettingSpec("defensa_gasta_accion", FieldKind.BOOLEAN, False),
    SettingSpec("carrera_casillas", FieldKind.CHOICE, "5", ("5", "4")),
    SettingSpec("prueba_de_muerte", FieldKind.CHOICE, "semilla", tuple(DeathRule)),
    SettingSpec("resistencia_al_levantarse", FieldKind.CHOICE, "1d4", ("1d4", "1")),
    SettingSpec("habilidades", FieldKind.TEXT, ""),
    SettingSpec("armas", FieldKind.TEXT, ""),
    SettingSpec("armaduras", FieldKind.TEXT, ""),
    # The seed is silent on starting abilities; the family gives 50 XP to spend at creation.
    SettingSpec("xp_inicial", FieldKind.INTEGER, 50, minimum=0, maximum=1000),
    SettingSpec("moneda", FieldKind.TEXT, "monedas"),
    # DAÑO Y CURACIÓN: «A menos que el director de juego diga lo contrario, los monstruos y
    # personajes no jugadores mueren en cuanto su Resistencia cae a 0»; "no" makes them
    # moribundo like characters (a sheet's own ``pnj: false`` still does it for one NPC).
    SettingSpec(NPCS_DIE_AT_ZERO, FieldKind.BOOLEAN, True),
    # UMBRAL DE DOLOR: what applies when the choice was not made before the hurt one's turn
    SettingSpec(PAIN_DEFAULT, FieldKind.CHOICE, "derribado", tuple(PainDefault)),
)


def _bad(setting: str, value: Any) -> Problem:
    return Problem("rolweb.problem.bad_setting", setting, {"setting": setting, "value": str(value)})


def _split(value: Any) -> tuple[str, ...]:
    """A list setting may arrive as a comma-separated string or as a sequence."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, Sequence):
        return tuple(str(part).strip() for part in value if str(part).strip())
    raise RulesError(_bad("atributos", str(value)))


def _choice(raw: Mapping[str, Any], key: str, enum_type: type[enum.StrEnum]) -> Any:
    spec = next(s for s in SETTING_SPECS if s.key == key)
    value = raw.get(key, spec.default)
    try:
        return enum_type(value)
    except ValueError:
        raise RulesError(_bad(key, str(value))) from None


def _int(raw: Mapping[str, Any], key: str) -> int:
    spec = next(s for s in SETTING_SPECS if s.key == key)
    value = raw.get(key, spec.default)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RulesError(_bad(key, str(value)))
    try:
        number = int(value)
    except ValueError:
        raise RulesError(_bad(key, str(value))) from None
    if spec.minimum is not None and number < spec.minimum:
        raise RulesError(_bad(key, str(value)))
    if spec.maximum is not None and number > spec.maximum:
        raise RulesError(_bad(key, str(value)))
    return number


def _bool(raw: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = raw.get(key, default)
    if isinstance(value, bool):
        return value
    text = str(value)
    if not text.strip():
        return default
    answer = parse_yes_no(text)
    if answer is None:
        raise RulesError(_bad(key, text))
    return answer


def parse_settings(raw: Mapping[str, Any] | RolwebSettings | None) -> RolwebSettings:
    """Validate a campaign's raw settings; missing keys take the defaults above.

    Raises :class:`RulesError` with ``rolweb.problem.bad_setting`` or
    ``rolweb.problem.required_attribute_missing`` so a referee sees why a setting is refused.
    """
    if isinstance(raw, RolwebSettings):
        return raw
    raw = raw or {}
    attributes = _split(raw.get("atributos", DEFAULT_ATTRIBUTES))
    missing = [name for name in REQUIRED_ATTRIBUTES if name not in attributes]
    if missing:
        raise RulesError(
            [
                Problem("rolweb.problem.required_attribute_missing", "atributos", {"name": n})
                for n in missing
            ]
        )
    if len(set(attributes)) != len(attributes):
        raise RulesError(_bad("atributos", ", ".join(attributes)))
    try:
        array = tuple(int(v) for v in _split(raw.get("creacion_serie", STANDARD_ARRAY)))
    except ValueError:
        raise RulesError(_bad("creacion_serie", "?")) from None
    minimum, maximum = _int(raw, "creacion_minimo"), _int(raw, "creacion_maximo")
    if minimum > maximum:
        raise RulesError(_bad("creacion_minimo", str(minimum)))
    run = str(raw.get("carrera_casillas", "5"))
    rise = str(raw.get("resistencia_al_levantarse", "1d4"))
    if run not in ("5", "4"):
        raise RulesError(_bad("carrera_casillas", run))
    if rise not in ("1d4", "1"):
        raise RulesError(_bad("resistencia_al_levantarse", rise))
    return RolwebSettings(
        attributes=attributes,
        creation=_choice(raw, "creacion", CreationMethod),
        pool=_int(raw, "creacion_puntos"),
        minimum=minimum,
        maximum=maximum,
        array=array,
        naturals=_choice(raw, "naturales", NaturalRule),
        movement_to_combat=_bool(raw, "movimiento_a_combate"),
        defence_costs_action=_bool(raw, "defensa_gasta_accion"),
        run_squares=int(run),
        death_rule=_choice(raw, "prueba_de_muerte", DeathRule),
        rise_toughness=rise,
        abilities_json=str(raw.get("habilidades", "") or ""),
        weapons_json=str(raw.get("armas", "") or ""),
        armour_json=str(raw.get("armaduras", "") or ""),
        starting_xp=_int(raw, "xp_inicial"),
        currency=str(raw.get("moneda", "") or "monedas").strip() or "monedas",
        npcs_die_at_zero=_bool(raw, NPCS_DIE_AT_ZERO, default=True),
        pain_default=_choice(raw, PAIN_DEFAULT, PainDefault),
    )
