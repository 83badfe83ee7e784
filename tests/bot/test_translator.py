"""Every command, option and choice has a valid name and description in English and Spanish:
within Discord's limits, showing names (never ids), the English file in step with the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

NAME = re.compile(r"^[-_\w]{1,32}$")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tree(loaded_bot):
    """The real command tree, built by loading the real cogs (no connection needed)."""
    return loaded_bot.tree


async def test_every_command_and_option_has_a_spanish_translation(tree):
    payloads = [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree.get_commands()
    ]
    missing: list[str] = []

    def walk(payload, path):
        localized = payload.get("name_localizations", {})
        if "es-ES" not in localized:
            missing.append(path + ":name")
        else:
            assert (
                NAME.match(localized["es-ES"]) and localized["es-ES"] == localized["es-ES"].lower()
            )
            assert localized["es-419"] == localized["es-ES"]
        if "es-ES" not in payload.get("description_localizations", {}):
            missing.append(path + ":description")
        else:
            assert len(payload["description_localizations"]["es-ES"]) <= 100
        for choice in payload.get("choices", []):
            if "es-ES" not in choice.get("name_localizations", {}):
                missing.append(f"{path}:choice:{choice['value']}")
        for option in payload.get("options", []):
            walk(option, f"{path} {option['name']}")

    menus = [p for p in payloads if p.get("type", 1) != 1]
    for payload in payloads:
        if payload in menus:
            continue
        walk(payload, payload["name"])
    # context menus: names of 1-32 characters, any case and spaces; Discord shows no description
    for menu in menus:
        localized = menu.get("name_localizations") or {}
        if "es-ES" not in localized:
            missing.append(menu["name"] + ":name")
        else:
            assert 1 <= len(localized["es-ES"]) <= 32 and localized["es-419"] == localized["es-ES"]
    assert missing == []
    assert {m["name"]: m["name_localizations"]["es-ES"] for m in menus} == {
        "Edit post": "Editar publicación",
        "Delete post": "Borrar publicación",
    }
    names = {p["name"]: p["name_localizations"]["es-ES"] for p in payloads}
    assert names["roll"] == "tirar"
    assert names["campaign"] == "campaña"


def _slash_commands(payloads):
    """Every slash command, group and option payload with its path (context menus left out)."""
    found = []

    def walk(payload, path):
        found.append((path, payload))
        for option in payload.get("options", []):
            walk(option, f"{path} {option['name']}")

    for payload in payloads:
        if payload.get("type", 1) == 1:
            walk(payload, payload["name"])
    return found


async def test_discord_limits_hold_in_both_languages(tree):
    """What Discord refuses at sync: names ``^[-_\\p{L}\\p{N}]{1,32}$`` in lowercase, descriptions
    and choice names of 1-100 characters — for the English text written in the code as well as
    for every localisation (es-ES and es-419 alike)."""
    payloads = [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree.get_commands()
    ]
    wrong: list[str] = []
    for path, payload in _slash_commands(payloads):
        names = [payload["name"], *payload.get("name_localizations", {}).values()]
        for name in names:
            if not (NAME.match(name) and name == name.lower()):
                wrong.append(f"{path}: name {name!r}")
        descriptions = [
            payload["description"],
            *payload.get("description_localizations", {}).values(),
        ]
        for description in descriptions:
            if not 1 <= len(description) <= 100:
                wrong.append(f"{path}: description of {len(description)} characters")
        localized = payload.get("description_localizations", {})
        if localized.get("es-419") != localized.get("es-ES"):
            wrong.append(f"{path}: es-419 description differs from es-ES")
        for choice in payload.get("choices", []):
            for name in [choice["name"], *choice.get("name_localizations", {}).values()]:
                if not 1 <= len(name) <= 100:
                    wrong.append(f"{path}: choice {choice['value']!r} of {len(name)} characters")
                # a choice shows a name, never an internal id such as gm_role
                if "_" in name:
                    wrong.append(f"{path}: choice {choice['value']!r} shows the id {name!r}")
    assert wrong == []


async def test_the_english_commands_file_repeats_the_code_word_for_word(tree):
    """``locales/en/commands.toml`` mirrors the English text written in the cogs (Discord gets
    the code's); an entry that drifts from the code would mislead whoever edits it."""
    from bot.i18n import catalogue

    payloads = [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree.get_commands()
    ]
    canonical: dict[str, str] = {}
    for payload in payloads:
        if payload.get("type", 1) != 1:  # context menus: their keys are spelled out in the cog
            canonical[f"commands.{_MENU_KEYS[payload['name']]}.name"] = payload["name"]
            continue

        def walk(node, key):
            canonical[key + ".name"] = node["name"]
            canonical[key + ".description"] = node["description"]
            for option in node.get("options", []):
                if option["type"] in (1, 2):  # a subcommand or a subgroup
                    walk(option, f"{key}.{option['name']}")
                else:  # a parameter keeps its Python name in the key (``as_``)
                    walk(
                        option,
                        f"{key}.options.{_PARAMETER_KEYS.get(option['name'], option['name'])}",
                    )

        walk(payload, f"commands.{payload['name']}")
    english = {
        key: text
        for key, text in catalogue().messages["en"].items()
        if key.startswith("commands.") and not key.startswith("commands.choices.")
    }
    assert len(english) > 50  # the file really is read
    drifted = {
        key: (text, canonical.get(key))
        for key, text in english.items()
        if canonical.get(key) != text
    }
    assert drifted == {}


_MENU_KEYS = {"Edit post": "post_edit", "Delete post": "post_delete"}
_PARAMETER_KEYS = {"as": "as_"}


#: options whose value is a list of keywords the user types as they are (the description shows
#: them, underscores included); everywhere else a snake_case word is an id that leaked
_KEYWORD_OPTIONS = {"check circumstances", "attack circumstances"}


async def test_descriptions_name_things_never_their_ids(tree):
    """Issue 13: a description shows «Clérigo», «petrificación», «Rol por web» — not the ids
    ``clerigo``, ``petrificacion``, ``rolweb`` or a snake_case setting name."""
    import tomllib

    from rules.text import fold

    names = tomllib.loads((ROOT / "data" / "names" / "es.toml").read_text(encoding="utf-8"))
    accented_ids = {
        key
        for kinds in names.values()
        for table in kinds.values()
        for key, display in table.items()
        # the id is the display name without its accents: «clerigo» for «Clérigo»
        if isinstance(display, str)
        and fold(display) == key.replace("_", " ")
        and fold(display) != display.casefold()
    }
    assert "clerigo" in accented_ids  # the names file really is read
    payloads = [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree.get_commands()
    ]
    leaks: list[str] = []
    for path, payload in _slash_commands(payloads):
        texts = [
            payload["description"],
            *payload.get("description_localizations", {}).values(),
            *(
                name
                for choice in payload.get("choices", [])
                for name in [choice["name"], *choice.get("name_localizations", {}).values()]
            ),
        ]
        for text in texts:
            words = set(re.findall(r"[\w]+", text))
            leaked = words & ({"rolweb", "swc", "nucleo"} | accented_ids)
            if path not in _KEYWORD_OPTIONS:
                leaked |= {w for w in words if re.fullmatch(r"[a-z]+(?:_[a-z]+)+", w)}
            if leaked:
                leaks.append(f"{path}: {sorted(leaked)} in {text!r}")
    assert leaks == []
