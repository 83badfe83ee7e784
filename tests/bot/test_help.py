"""/help is generated from the command tree: every command has help, later commands too.

The tree is the real one (every cog loaded, as tests/bot/test_translator.py builds it); the
"later" commands are registered by the test itself, so nothing in cogs/ui/help_pages.py
knows them.
"""

from __future__ import annotations

import re

import pytest
from discord import app_commands

from bot.i18n import catalogue, t
from cogs.ui import help_pages
from cogs.ui.help_pages import (
    GUIDES,
    PAGE_LIMIT,
    command_help,
    docs_of,
    find_topic,
    suggestions,
    topic_label,
    topic_page,
    topics,
)


@pytest.fixture
def bot(loaded_bot):
    return loaded_bot


def _leaves(tree: app_commands.CommandTree) -> list[str]:
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, app_commands.Group):
            for child in node.commands:
                walk(child)
        else:
            found.append(node.qualified_name)

    for command in tree.get_commands():
        walk(command)
    return found


async def test_every_command_of_the_tree_has_help_in_both_languages(bot):
    docs = await docs_of(bot)
    assert sorted(d.path for d in docs) == sorted(_leaves(bot.tree))
    assert len(docs) > 40  # the walk reaches the subcommands
    for doc in docs:
        for locale in ("es", "en"):
            text = command_help(doc, locale)
            if doc.context_menu:  # Discord gives context menus a name only, no description
                assert (
                    doc.names[locale] in text
                    and t(f"help.context_menu.{doc.context_menu}", locale) in text
                ), doc.path
                continue
            assert doc.descriptions[locale] and doc.descriptions[locale] in text, doc.path
            assert f"/{doc.names[locale]}" in text
            for option in doc.options:
                assert option.names[locale] in text and option.descriptions[locale] in text
                if option.names[locale] != option.name:
                    assert f"`{option.name}:`" in text  # the English name, as typed
    attack = next(d for d in docs if d.path == "attack")
    es = command_help(attack, "es")
    assert es.startswith("**/atacar** (`/attack`)")
    assert "`objetivo` (`target:`) — obligatoria" in es
    assert "Ejemplo: `/atacar objetivo:Orco arma:Espada larga`" in es
    en = command_help(attack, "en")
    assert en.startswith("**/attack**\n") and "`target` — required" in en
    assert (
        "Example: `/attack target:Orc weapon:Espada larga`" in en
    )  # weapons keep their Spanish names


async def test_a_command_added_later_gets_help_without_touching_the_help_code(bot):
    before = await docs_of(bot)  # built (and kept) before the new commands exist
    assert "seance" not in topics(before) and await docs_of(bot) is before
    group = app_commands.Group(name="seance", description="Scenes in threads")

    @group.command(name="open", description="Open a scene in a new thread")
    @app_commands.describe(title="The scene's title", mood="How it feels")
    @app_commands.choices(
        mood=[
            app_commands.Choice(name="Dark", value="dark"),
            app_commands.Choice(name="Calm", value="calm"),
        ]
    )
    async def scene_open(itx, title: str, mood: str | None = None) -> None: ...

    @app_commands.context_menu(name="Quote in seance")
    async def quote(itx, message: __import__("discord").Message) -> None: ...

    bot.tree.add_command(group)
    bot.tree.add_command(quote)
    docs = await docs_of(bot)
    assert "seance" in topics(docs) and "Quote in seance" in topics(docs)
    assert find_topic(docs, "/seance open") == "seance open"
    assert find_topic(docs, "seance") == "seance"
    page, pages = topic_page(docs, "seance", "es", 0)
    assert pages == 1
    assert "Open a scene in a new thread" in page  # no Spanish yet: the English text, not nothing
    assert "`title`" in page and "obligatoria" in page and "Valores: Dark, Calm." in page
    menu, _ = topic_page(docs, "Quote in seance", "en", 0)
    assert "right-click (or long-press) a message" in menu
    assert ("/seance open", "seance open") in suggestions(docs, "open", "en")

    # a subcommand added to a group already in the tree shows too
    @group.command(name="close", description="Close the scene")
    async def scene_close(itx) -> None: ...

    assert find_topic(await docs_of(bot), "seance close") == "seance close"


async def test_a_long_topic_is_paged_and_nothing_is_cut(bot):
    group = app_commands.Group(name="huge", description="Many subcommands")
    texts = []
    for i in range(25):
        text = f"Subcommand number {i} " + "x" * 75

        @app_commands.describe(first="y" * 100, second="z" * 100)
        async def cb(itx, first: str, second: int | None = None) -> None: ...

        group.add_command(app_commands.Command(name=f"c{i}", description=text, callback=cb))
        texts.append(text)
    bot.tree.add_command(group)
    docs = await docs_of(bot)
    first, pages = topic_page(docs, "huge", "en", 0)
    assert pages > 1
    all_pages = [topic_page(docs, "huge", "en", n)[0] for n in range(pages)]
    assert first == all_pages[0]
    for page in all_pages:
        assert len(page) <= PAGE_LIMIT
    joined = "\n".join(all_pages)
    assert all(text in joined for text in texts)
    # a single block longer than a page (a very long guide paragraph) is split, not cut
    pages_of = help_pages._pages
    monkey = ["y" * (PAGE_LIMIT * 2 + 10)]
    original = help_pages._blocks
    help_pages._blocks = lambda *_: monkey  # type: ignore[assignment]
    try:
        split = pages_of(docs, "about", "en")
    finally:
        help_pages._blocks = original
    assert len(split) == 3 and "".join(split) == monkey[0]


async def test_topics_are_found_in_either_language(bot):
    docs = await docs_of(bot)
    assert find_topic(docs, "atacar") == "attack"
    assert find_topic(docs, "/campaña crear") == "campaign create"
    assert find_topic(docs, "ficha") == "sheet"
    assert find_topic(docs, "Primeros pasos (máster)") == "gm"
    assert find_topic(docs, "player") == "player"
    assert find_topic(docs, "nada de esto") is None
    for topic in topics(docs):
        for locale in ("es", "en"):
            # a label the autocomplete shows, sent back as typed, finds its topic again
            assert find_topic(docs, topic_label(docs, topic, locale)) == topic
    assert topic_label(docs, "sheet", "es") == "/ficha (/sheet)"
    assert topic_label(docs, "roll", "en") == "/roll"
    for guide in GUIDES:
        page, pages = topic_page(docs, guide, "es", 0)
        assert pages == 1 and len(page) > 200


async def test_examples_name_real_commands_and_options(bot):
    """An example line is typed as a user would: every ``option:`` it uses must exist."""
    docs = {d.path: d for d in await docs_of(bot)}
    messages = catalogue().messages
    for locale in ("es", "en"):
        examples = {
            k.removeprefix("help.examples."): v
            for k, v in messages[locale].items()
            if k.startswith("help.examples.")
        }
        assert len(examples) > 15
        for key, line in examples.items():
            doc = docs.get(key.replace(".", " "))
            assert doc is not None, f"help.examples.{key}: no such command"
            assert line.startswith(f"/{doc.names[locale]}"), (locale, key, line)
            used = re.findall(r"(?:^|\s)([\wñáéíóú]+):", line)
            known = {o.names[locale] for o in doc.options}
            assert set(used) <= known, (locale, key, set(used) - known)


def test_a_menu_entry_lists_whole_names_and_counts_the_rest():
    from cogs.ui.help_pages import fit_names

    names = [f"subcomando{i}" for i in range(12)]
    text = fit_names(names, "es")
    assert len(text) <= 100 and text.endswith(" más")
    shown = text.rsplit(" y ", 1)[0].split(", ")
    assert shown == names[: len(shown)]  # whole names, in order
    assert text.endswith(f"y {12 - len(shown)} más")
    assert fit_names(["crear", "ver"], "en") == "crear, ver"
    assert fit_names(["x" * 150], "en") == "and 1 more"


async def test_more_topics_than_a_menu_holds_spill_into_a_second_menu(bot):
    from cogs.help import help_message

    for i in range(10):

        async def cb(itx) -> None: ...

        bot.tree.add_command(app_commands.Command(name=f"extra{i}", description="x", callback=cb))
    docs = await docs_of(bot)
    every = topics(docs)
    assert len(every) > 25
    view = help_message(docs, "about", "es", 0)["view"]
    menus = [item.item for item in view.children]
    assert [len(m.options) for m in menus] == [25, len(every) - 25]
    assert [o.value for m in menus for o in m.options] == every
    assert len({m.custom_id for m in menus}) == 2
