"""The service packages import each other only as their ``__init__`` docstrings say.

Each package of ``bot/services/`` ends its docstring's "May import:" paragraph with the
service packages it builds on; this test reads that paragraph (so the docstring cannot
drift from the code) and walks every module's syntax tree with the same walker as the rules
contract (imports inside functions and ``TYPE_CHECKING`` blocks included).  Together the
paragraphs form a layering with no cycle: shared → campaigns → sheets → play → table →
chronicle, and privacy beside them on shared alone.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.rules.test_import_contract import imported_names

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "bot" / "services"
PACKAGES = sorted(p.name for p in SERVICES.iterdir() if (p / "__init__.py").is_file())


def allowed_packages(package: str) -> set[str]:
    """The service packages named in the "May import:" paragraph of ``package``."""
    docstring = ast.get_docstring(ast.parse((SERVICES / package / "__init__.py").read_text()))
    assert docstring, f"bot/services/{package}/__init__.py has no docstring"
    paragraph = docstring.partition("May import:")[2].split("\n\n")[0]
    assert paragraph, f"bot/services/{package} does not say what it may import"
    return set(re.findall(r"bot\.services\.(\w+)", paragraph))


def service_imports(source: str, module: str) -> set[str]:
    """The service packages ``source`` imports (``bot.services`` itself counts as shared)."""
    found = set()
    for name in imported_names(source, module):
        parts = name.split(".")
        if parts[:2] == ["bot", "services"]:
            found.add(parts[2] if len(parts) > 2 else "shared")
    return found


def test_every_service_module_lives_in_a_package():
    loose = [p.name for p in SERVICES.glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    assert set(PACKAGES) >= {"shared", "campaigns", "sheets", "play", "table", "chronicle"}


def test_service_packages_import_only_what_their_docstring_allows():
    wrong = {}
    for package in PACKAGES:
        allowed = allowed_packages(package) | {package}
        for path in sorted((SERVICES / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if bad := service_imports(path.read_text(encoding="utf-8"), module) - allowed:
                wrong[str(path.relative_to(ROOT))] = sorted(bad)
    assert wrong == {}


def test_the_allowed_imports_have_no_cycle():
    graph = {package: allowed_packages(package) for package in PACKAGES}
    unknown = {p: sorted(deps - set(PACKAGES)) for p, deps in graph.items() if deps - set(PACKAGES)}
    assert unknown == {}
    order: list[str] = []
    while graph:
        ready = sorted(p for p, deps in graph.items() if deps <= set(order))
        assert ready, f"cycle among {sorted(graph)}"
        order += ready
        for p in ready:
            del graph[p]


def test_the_walker_sees_a_forbidden_import():
    """The check can fail: a sheets module importing play, even inside a function."""
    source = (
        "from .access import x\ndef f():\n    from bot.services.play.rolls import RollService\n"
    )
    found = service_imports(source, "bot.services.sheets.probe")
    assert found - allowed_packages("sheets") - {"sheets"} == {"play"}
