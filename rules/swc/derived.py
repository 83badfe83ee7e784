"""Everything ``/sheet show`` displays for an swc character, computed from a valid sheet.

Each value carries a short Spanish formula naming its source (table or rule), so a referee
can check it against the book.  Multiclass characters get one level, to-hit line, thief-skill
block and spell block per class; the save is the single best option (:mod:`rules.swc.saves`).
"""

from __future__ import annotations

from rules.names import display
from rules.swc.advancement import hit_dice, spell_slots, xp_bonus, xp_for_level
from rules.swc.attributes import (
    charisma_effects,
    constitution_modifiers,
    dexterity_modifiers,
    intelligence_limits,
    missile_to_hit_bonus,
    strength_modifiers,
    wisdom_effects,
)
from rules.swc.classes import (
    abilities,
    advancement,
    backstab,
    get_class,
    monk_progress,
    parry_penalty,
)
from rules.swc.combat import attack_bonus, descending_to_ascending, to_hit_target
from rules.swc.equipment import armour, armour_class, find_item
from rules.swc.movement import base_movement, carried_weight
from rules.swc.multiclass import hit_die_expression, multiclass_hit_dice
from rules.swc.races import get_race
from rules.swc.saves import character_save
from rules.swc.saving_throws_alt import SaveCategory
from rules.swc.sheet import Character, character, setting
from rules.swc.shop import inventory
from rules.swc.thief import is_percent, thief_skills
from rules.systems.base import DerivedValue, Settings, Sheet
from rules.text import spanish_number

__all__ = [
    "armour_blocks_spells",
    "armour_blocks_thief_skills",
    "carried",
    "derived",
    "load_pounds",
    "spell_table",
]

# Headings of /sheet show (game terms; the bot translates the ones its catalogue knows).
LEVEL, SAVE, RACE = "Nivel", "Salvación", "Raza"


def _signed(n: int) -> str:
    return f"{n:+d}"


def armour_blocks_thief_skills(ch: Character) -> bool:
    """Thief skills need leather or no armour ("no podrá usar sus habilidades ... más pesada")."""
    return ch.armadura is not None and "cuero" not in armour(ch.armadura).name.lower()


def armour_blocks_spells(ch: Character, clase: str) -> bool:
    """Magos cast in no armour; Elfos and Semielfos also in magical armour (not a shield)."""
    if clase != "mago" or (ch.armadura is None and not ch.escudo):
        return False
    elvish = ch.raza in ("elfo", "semielfo")
    return not (elvish and ch.armadura_magica and not ch.escudo)


def spell_table(ch: Character, clase: str, settings: Settings) -> dict[str, dict[int, int]]:
    """Slots for one class: the table, the Elfo's 5th-level cap, the Clérigo's Sabiduría spell."""
    slots = spell_slots(clase, ch.niveles[clase])
    cap = get_race(ch.raza).max_nivel_conjuro.get(clase)
    if cap is not None:
        slots = {k: {lv: n for lv, n in v.items() if lv <= cap} for k, v in slots.items()}
    extra = wisdom_effects(
        ch.atributos["Sabiduría"],
        clase,
        cleric_extra_spell=bool(setting(settings, "conjuro_extra_sabiduria")),
    ).extra_first_level_spell
    if clase == "clerigo" and extra:
        slots.setdefault("clerigo", {})
        slots["clerigo"][1] = slots["clerigo"].get(1, 0) + 1
    return {k: v for k, v in slots.items() if v}


def _levels(ch: Character) -> list[DerivedValue]:
    out = []
    for clase in ch.clases:
        nivel = ch.niveles[clase]
        cap = ch.limites[clase]
        formula = f"{ch.xp_por_clase[clase]} PX ({get_class(clase).tabla}); siguiente: {xp_for_level(clase, nivel + 1)} PX"
        if cap is not None:
            formula += f"; límite racial {cap}"
        out.append(
            DerivedValue(
                f"nivel.{clase}", f"Nivel de {get_class(clase).nombre}", nivel, formula, LEVEL
            )
        )
    if ch.multiclase:
        out.append(
            DerivedValue(
                "bono_px",
                "Bono de PX",
                "0 %",
                "multiclase: sin bono; PX repartidos a partes iguales",
                LEVEL,
            )
        )
    else:
        bonus = xp_bonus(ch.clases[0], ch.atributos)
        out.append(
            DerivedValue(
                "bono_px",
                "Bono de PX",
                f"{bonus} %",
                "atributo primario 13+, Carisma 13+, Sabiduría 13+",
                LEVEL,
            )
        )
    return out


def _hit_points(ch: Character, sheet: Sheet) -> list[DerivedValue]:
    if ch.multiclase:
        dice, fixed = multiclass_hit_dice(ch.clases, ch.xp_por_clase)
        formula = f"cada DG es la media de {hit_die_expression(ch.clases)}; máximo 9 DG"
    else:
        clase = ch.clases[0]
        dice, fixed = hit_dice(clase, ch.niveles[clase])
        formula = f"d{get_class(clase).dado_golpe} por nivel ({get_class(clase).tabla})"
    value = f"{dice} DG" + (f" + {fixed} pg" if fixed else "")
    con = constitution_modifiers(ch.atributos["Constitución"])
    pg = sheet.get("pg") or {}
    return [
        DerivedValue("dados_golpe", "Dados de Golpe", value, formula, "combate"),
        DerivedValue(
            "pg_por_dado",
            "pg por DG (Constitución)",
            _signed(con.hp_per_hit_die),
            "Tabla 3",
            "atributos",
        ),
        DerivedValue(
            "pg", "Puntos de Golpe", f"{pg.get('actual', 0)}/{pg.get('max', 0)}", "", "combate"
        ),
    ]


def _saves(ch: Character, settings: Settings) -> list[DerivedValue]:
    if not setting(settings, "salvaciones_alternativas"):
        save = character_save(ch.raza, ch.niveles)
        bonuses = sorted(
            {
                f"{_signed(b)} {display('swc', 'amenaza', t)}"
                for c in ch.clases
                for t, b in get_class(c).bonos_salvacion.items()
            }
        )
        race = get_race(ch.raza)
        bonuses += [
            f"{_signed(b)} {display('swc', 'amenaza', t)} ({race.nombre})"
            for t, b in race.bonos_salvacion.items()
        ]
        return [
            DerivedValue(
                "salvacion",
                "Tirada de Salvación",
                save.objetivo,
                f"{get_class(save.clase).nombre} nivel {ch.niveles[save.clase]}",
                SAVE,
            ),
            DerivedValue(
                "salvacion.bonos",
                "Bonos a la salvación",
                ", ".join(bonuses) or "—",
                "clase y raza",
                SAVE,
            ),
        ]
    fire = int(setting(settings, "bono_fuego_druida"))
    out = []
    for cat in SaveCategory:
        save = character_save(ch.raza, ch.niveles, categoria=cat.value, druid_fire_bonus=fire)
        out.append(
            DerivedValue(
                f"salvacion.{cat.value}",
                f"Salvación: {display('swc', 'salvacion', cat.value)}",
                save.objetivo,
                "Tabla 28",
                SAVE,
            )
        )
    return out


def _combat(ch: Character, settings: Settings, sheet: Sheet) -> list[DerivedValue]:
    asc = bool(setting(settings, "ca_ascendente"))
    des = ch.atributos["Destreza"]
    cap = int(setting(settings, "bono_fuerza_no_guerreros"))
    who = "guerrero" if "guerrero" in ch.clases else ch.clases[0]
    out = []
    monk = ch.clases == ("monje",) and ch.armadura is None and not ch.escudo
    if monk:
        prog = monk_progress(ch.niveles["monje"])
        ca = prog.ca - dexterity_modifiers(des).ac_improvement
        value, formula = (
            (descending_to_ascending(ca) if asc else ca),
            "Tabla 18 y Destreza (Tabla 2)",
        )
    else:
        value = armour_class(ch.armadura, ch.escudo, des, asc)
        formula = "Tabla 22 y Destreza (Tabla 2)"
    out.append(DerivedValue("ca", "Clase de Armadura", value, formula, "combate"))
    for clase in ch.clases:
        nivel = ch.niveles[clase]
        acs = range(10, 20) if asc else range(9, -1, -1)
        line = " ".join(f"{ac}:{to_hit_target(clase, nivel, ac, asc)}" for ac in acs)
        out.append(
            DerivedValue(
                f"impactar.{clase}",
                f"Impactar ({get_class(clase).nombre})",
                line,
                f"CA:d20 necesario; bono de ataque {_signed(attack_bonus(clase, nivel))}",
                "combate",
            )
        )
    fue = strength_modifiers(ch.atributos["Fuerza"], who, non_fighter_cap=cap)
    out.append(
        DerivedValue(
            "fuerza",
            "Fuerza",
            f"impactar {_signed(fue.to_hit)}, daño {_signed(fue.damage)}, puertas 1-{fue.open_doors} en 6, carga {_signed(fue.carry_bonus)} lb",
            "Tabla 1",
            "atributos",
        )
    )
    missile = missile_to_hit_bonus(
        ch.atributos["Fuerza"],
        des,
        who,
        strength_on_missiles=bool(setting(settings, "fuerza_en_proyectiles")),
        non_fighter_cap=cap,
    )
    missile += get_race(ch.raza).bono_proyectiles
    out.append(
        DerivedValue(
            "proyectiles",
            "Impactar con proyectiles",
            _signed(missile),
            "Tablas 1-2 y raza",
            "combate",
        )
    )
    if "guerrero" in ch.clases and parry_penalty(des):
        out.append(
            DerivedValue(
                "parada",
                "Parar",
                parry_penalty(des),
                "Tabla 12: penalizador a los ataques enemigos",
                "combate",
            )
        )
    if "guerrero" in ch.clases:
        out.append(
            DerivedValue(
                "ataques_multiples",
                "Ataques Múltiples",
                ch.niveles["guerrero"],
                "ataques por asalto contra criaturas de 1 DG o menos",
                "combate",
            )
        )
    stabs = [(stab, c) for c in ch.clases if (stab := backstab(c, ch.niveles[c])) is not None]
    if stabs:
        (hit, mult), clase = stabs[0]
        out.append(
            DerivedValue(
                "apunalar",
                "Apuñalar",
                f"{_signed(hit)} para impactar, daño x{mult}",
                get_class(clase).nombre,
                "combate",
            )
        )
    if "monje" in ch.clases:
        prog = monk_progress(ch.niveles["monje"])
        out.append(
            DerivedValue(
                "monje.desarmado",
                "Daño desarmado",
                f"{prog.dano_desarmado} ({prog.ataques_desarmado} atq/asalto)",
                "Tabla 18",
                "combate",
            )
        )
        out.append(
            DerivedValue(
                "monje.dano_armas",
                "Bono al daño con armas",
                _signed(prog.bono_dano_armas),
                "Monje",
                "combate",
            )
        )
    out += _movement(ch, sheet, fue.carry_bonus, monk)
    return out


def load_pounds(sheet: Sheet, armadura: str | None, escudo: bool, magica: bool) -> float:
    """Tabla 25's load: worn armour (magic armour weighs half), every carried item times its
    quantity (Tabla 20 gear has no weight: it is in the 10 lb of normal gear), coins at 1/10 lb."""
    pounds = 0.0
    for name in (armadura, "Escudo" if escudo else None):
        if name:
            pounds += armour(name).weight(magica and name == armadura)
    for entry in inventory(sheet):
        item = find_item(entry["nombre"])
        if item is not None:
            pounds += float(getattr(item, "weight_lb", 0) or 0) * int(entry["cantidad"])
    coins = sum(int(v) for v in (sheet.get("monedas") or {}).values())
    return carried_weight(pounds, coins)


def carried(sheet: Sheet) -> list[DerivedValue]:
    """The backpack as one line (``/sheet item`` changes it)."""
    items = inventory(sheet)
    text = ", ".join(
        e["nombre"] if int(e["cantidad"]) == 1 else f"{e['cantidad']}× {e['nombre']}" for e in items
    )
    return [DerivedValue("equipo", "Equipo", text or "—", "", "equipo")] if items else []


def _movement(ch: Character, sheet: Sheet, carry_bonus: int, monk: bool) -> list[DerivedValue]:
    load = load_pounds(sheet, ch.armadura, ch.escudo, ch.armadura_magica)
    # a number (shown in the reader's language), its unit in the label
    weight = DerivedValue("carga", "Carga (lb)", load, "equipo normal 10 lb", "equipo")
    if monk:
        return [
            weight,
            DerivedValue(
                "movimiento",
                "Movimiento",
                monk_progress(ch.niveles["monje"]).movimiento,
                "Tabla 18",
                "combate",
            ),
        ]
    mov = base_movement(load, carry_bonus)
    return [
        weight,
        DerivedValue(
            "movimiento",
            "Movimiento",
            "—" if mov is None else mov,
            f"Tabla 25: {spanish_number(load)} lb"
            + (f", carga {carry_bonus:+d}" if carry_bonus else ""),
            "combate",
        ),
    ]


def _thief(ch: Character, settings: Settings) -> list[DerivedValue]:
    out = []
    table6 = bool(setting(settings, "asesino_tabla_6"))
    blocked = armour_blocks_thief_skills(ch)
    for clase in ch.clases:
        for skill, value in thief_skills(
            clase, ch.niveles[clase], ch.raza, tabla_asesino=table6
        ).items():
            text = f"{value} %" if is_percent(skill) else f"{value} en 6"
            formula = (
                "no utilizable con armadura más pesada que el cuero"
                if blocked
                else get_class(clase).nombre
            )
            out.append(
                DerivedValue(
                    f"ladron.{skill}", skill.replace("_", " ").capitalize(), text, formula, "ladron"
                )
            )
    return out


def _spells(ch: Character, settings: Settings) -> list[DerivedValue]:
    out = []
    for clase in ch.clases:
        for lista, levels in spell_table(ch, clase, settings).items():
            text = " · ".join(f"{lv}º: {n}" for lv, n in sorted(levels.items()))
            formula = (
                "no puede lanzar con esta armadura"
                if armour_blocks_spells(ch, clase)
                else get_class(clase).tabla
            )
            out.append(
                DerivedValue(
                    f"conjuros.{clase}.{lista}",
                    f"Conjuros de {display('swc', 'lista', lista)} ({get_class(clase).nombre})",
                    text,
                    formula,
                    "conjuros",
                )
            )
    if any(c in ("mago", "explorador") for c in ch.clases):
        lim = intelligence_limits(ch.atributos["Inteligencia"])
        most = "todos" if lim.max_spells_per_level is None else lim.max_spells_per_level
        out.append(
            DerivedValue(
                "inteligencia.conjuros",
                "Conjuros de Mago (Inteligencia)",
                f"nivel máx. {lim.max_spell_level}, aprender {lim.learn_spell_pct} %, {lim.min_spells_per_level}/{most} por nivel",
                "Tabla 4",
                "conjuros",
            )
        )
    return out


def _other(ch: Character) -> list[DerivedValue]:
    race = get_race(ch.raza)
    lim = intelligence_limits(ch.atributos["Inteligencia"])
    cha = charisma_effects(ch.atributos["Carisma"])
    con = constitution_modifiers(ch.atributos["Constitución"])
    out = [
        DerivedValue("idiomas", "Idiomas adicionales", lim.extra_languages, "Tabla 4", "atributos"),
        DerivedValue(
            "seguidores", "Seguidores especiales", cha.max_special_followers, "Tabla 5", "atributos"
        ),
        DerivedValue(
            "supervivencia",
            "Sobrevivir a Revivir a los Muertos",
            f"{con.survival_pct} %",
            "Tabla 3",
            "atributos",
        ),
        DerivedValue(
            "infravision",
            "Infravisión",
            f"{race.infravision_pies} pies" if race.infravision_pies else "—",
            race.nombre,
            RACE,
        ),
        DerivedValue(
            "puertas_secretas",
            "Puertas secretas",
            f"{race.puertas_secretas} en 6",
            race.nombre
            + (
                f"; sin buscar {race.puertas_secretas_sin_buscar} en 6"
                if race.puertas_secretas_sin_buscar
                else ""
            ),
            RACE,
        ),
    ]
    if "druida" in ch.clases:
        posicion = advancement("druida", ch.niveles["druida"]).extra["posicion"]
        out.append(
            DerivedValue("druida.posicion", "Posición en la Orden", posicion, "Tabla 9", "clase")
        )
    if race.rasgos:
        out.append(
            DerivedValue("rasgos", "Rasgos raciales", ", ".join(race.rasgos), race.nombre, RACE)
        )
    for clase in ch.clases:
        out.append(
            DerivedValue(
                f"habilidades.{clase}",
                f"Habilidades de {get_class(clase).nombre}",
                ", ".join(abilities(clase, ch.niveles[clase])),
                get_class(clase).tabla,
                "clase",
            )
        )
    return out


def derived(sheet: Sheet, settings: Settings) -> tuple[DerivedValue, ...]:
    """All derived values of a sheet :func:`rules.swc.validation.problems` accepts."""
    ch = character(sheet, settings)
    return tuple(
        _levels(ch)
        + _hit_points(ch, sheet)
        + _saves(ch, settings)
        + _combat(ch, settings, sheet)
        + _thief(ch, settings)
        + _spells(ch, settings)
        + _other(ch)
        + carried(sheet)
    )
