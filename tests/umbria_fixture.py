"""The hand-written Umbría fixtures (tests/fixtures/umbria/README.md) as the zip a director
uploads."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "umbria"

__all__ = ["FIXTURES", "fixture_zip", "zip_of"]


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def fixture_zip(name: str = "partida", *, extra: dict[str, bytes] | None = None) -> bytes:
    """The folder ``tests/fixtures/umbria/<name>`` zipped (plus ``extra`` members)."""
    root = FIXTURES / name
    files = {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
    return zip_of({**files, **(extra or {})})
