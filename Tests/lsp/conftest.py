"""Shared set-up of the pytest-lsp suite: where the server is, and a workspace to serve.

The server is `$ROUTES_BIN lsp`; ROUTES_BIN defaults to `.build/debug/routes` relative to the
repository root. A missing binary (or a missing pytest-lsp) skips the suite on a developer's
machine and fails it under CI (CI set to anything but "", "0", "false" or "no").
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "Examples"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def routes_bin() -> Path:
    value = os.environ.get("ROUTES_BIN", ".build/debug/routes")
    path = Path(value)
    return path if path.is_absolute() else REPO / path


def skip_or_fail(message: str) -> None:
    """Under CI a missing prerequisite is a failure; on a developer's machine a skip."""
    if in_ci():
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session", autouse=True)
def _prerequisites():
    """Runs before any server is started (session-scoped autouse fixtures come first)."""
    binary = routes_bin()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        skip_or_fail(f"the routes binary is not built: {binary} (set ROUTES_BIN or run `swift build`)")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace folder holding the seed app (Seed.routes) and the five files of the shop app."""
    root = tmp_path / "workspace"
    root.mkdir()
    shutil.copy(EXAMPLES / "Seed" / "App.routes", root / "Seed.routes")
    for name in ("App", "Shared", "Catalog", "Account", "Checkout"):
        shutil.copy(EXAMPLES / "Shop" / f"{name}.routes", root / f"{name}.routes")
    return root
