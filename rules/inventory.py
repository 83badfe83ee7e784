"""What every system checks before it touches a backpack: one item name, a non-zero quantity.

``/sheet item`` reaches :meth:`rules.systems.base.CharacterBuilder.adjust_inventory` of the
campaign's system; each system then applies its own rules (S&W's shop list, rolweb's weapons
going to ``armas``, Núcleo's equipment slots).  The request itself is the same everywhere, so
it is checked here, once, with the same catalogue keys for every system.
"""

from __future__ import annotations

from rules.systems.base import Problem, RulesError

__all__ = ["MAX_ITEM_NAME", "item_request"]

MAX_ITEM_NAME = 100


def item_request(item: str, quantity: int) -> str:
    """The item's name without surrounding spaces, after refusing an empty or too long name
    (``sheet.problem.item_name``) and a quantity of 0 (``sheet.problem.zero_quantity``)."""
    name = item.strip()
    if not name or len(name) > MAX_ITEM_NAME:
        raise RulesError(Problem("sheet.problem.item_name", "equipo", {"limit": MAX_ITEM_NAME}))
    if quantity == 0:
        raise RulesError(Problem("sheet.problem.zero_quantity", "equipo"))
    return name
