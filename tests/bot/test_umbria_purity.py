"""The Umbría reader is pure (no database, no Discord, no event loop), like rules/: it runs
in the worker process and is tested without a database.  The walk is the rules contract's."""

from __future__ import annotations

from pathlib import Path

from tests.rules.test_import_contract import ROOT, forbidden, imported_names

PURE = [
    *sorted((ROOT / "bot" / "services" / "chronicle" / "umbria").glob("*.py")),
    ROOT / "bot" / "services" / "chronicle" / "zipfiles.py",
]
ALLOWED_BOT = {
    "bot.services.chronicle.umbria",
    "bot.services.chronicle.archive",  # pure too: ArchiveProblems and the zip limits
    "bot.services.chronicle.zipfiles",
}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_umbria_reader_imports_no_database_discord_or_event_loop():
    assert len(PURE) >= 6
    found = {}
    for path in PURE:
        names = imported_names(
            path.read_text(encoding="utf-8"), _module(path), is_package=path.name == "__init__.py"
        )
        bad = {
            name
            for name in forbidden(names)
            if not any(name == ok or name.startswith(ok + ".") for ok in ALLOWED_BOT)
        }
        if bad:
            found[str(path.relative_to(ROOT))] = sorted(bad)
    assert found == {}


def test_the_walk_sees_a_forbidden_import():
    names = imported_names("def f():\n    import sqlalchemy\n", "bot.services.chronicle.umbria.x")
    assert forbidden(names) == {"sqlalchemy"}
