"""The attributes and the creation rules (seed 001 and its family).

Seed 001 names six attributes (Ágil, Atento, Diestro, Discreto, Fuerte, Persuasivo); the
Symbaroum family it follows adds Astuto and Tenaz.  The seed gives no creation rules, so
they are campaign settings with the family's defaults: 80 points among the eight, each
5-15, or the standard array 15, 13, 11, 10, 10, 9, 7, 5 (or free, for imported sheets).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.rolweb._data import bad_data, read_json
from rules.rolweb.settings import CreationMethod, RolwebSettings
from rules.systems.base import Problem

__all__ = ["Attribute", "load_attributes", "describe", "validate_attributes"]


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute as ``data/rolweb/attributes.json`` describes it."""

    name: str
    description: str
    in_seed: bool


def load_attributes() -> tuple[Attribute, ...]:
    """The eight shipped attributes, validated (``data/rolweb/attributes.json``)."""
    raw = read_json("attributes.json")
    source = "data/rolweb/attributes.json"
    try:
        items = raw["atributos"]
        attributes = tuple(
            Attribute(str(item["nombre"]), str(item["descripcion"]), bool(item["en_semilla"]))
            for item in items
        )
    except (KeyError, TypeError) as error:
        raise bad_data(source, f"falta {error}") from None
    if len({a.name for a in attributes}) != len(attributes):
        raise bad_data(source, "nombres repetidos")
    return attributes


def describe(name: str) -> str:
    """The shipped description of an attribute, or ``""`` for a campaign's own attribute."""
    return next((a.description for a in load_attributes() if a.name == name), "")


def _value(values: Mapping[str, Any], name: str) -> int | None:
    value = values.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def validate_attributes(values: Mapping[str, Any], settings: RolwebSettings) -> list[Problem]:
    """Every problem with a sheet's ``atributos`` under the campaign's creation rules.

    Each listed attribute must be present as an integer 1..20 (a d20 test needs that
    range); unknown attributes are refused.  Then the creation method applies: with the
    pool, each value within the bounds and the sum equal to the pool; with the array, the
    values must be the array in any order.
    """
    problems: list[Problem] = []
    for name in settings.attributes:
        value = _value(values, name)
        if value is None:
            problems.append(
                Problem("rolweb.problem.attribute_missing", f"atributos.{name}", {"name": name})
            )
        elif not 1 <= value <= 20:
            problems.append(
                Problem(
                    "rolweb.problem.attribute_out_of_bounds",
                    f"atributos.{name}",
                    {"name": name, "value": value, "minimum": 1, "maximum": 20},
                )
            )
    for name in values:
        if name not in settings.attributes:
            problems.append(
                Problem("rolweb.problem.unknown_attribute", f"atributos.{name}", {"name": name})
            )
    if problems or settings.creation is CreationMethod.FREE:
        return problems
    numbers = [values[name] for name in settings.attributes]
    if settings.creation is CreationMethod.POOL:
        for name in settings.attributes:
            if not settings.minimum <= values[name] <= settings.maximum:
                problems.append(
                    Problem(
                        "rolweb.problem.attribute_out_of_bounds",
                        f"atributos.{name}",
                        {
                            "name": name,
                            "value": values[name],
                            "minimum": settings.minimum,
                            "maximum": settings.maximum,
                        },
                    )
                )
        if sum(numbers) != settings.pool:
            problems.append(
                Problem(
                    "rolweb.problem.pool_mismatch",
                    "atributos",
                    {"total": sum(numbers), "pool": settings.pool},
                )
            )
    elif Counter(numbers) != Counter(settings.array):
        problems.append(
            Problem(
                "rolweb.problem.array_mismatch",
                "atributos",
                {"array": ", ".join(map(str, settings.array))},
            )
        )
    return problems
