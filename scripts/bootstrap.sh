#!/usr/bin/env bash
# Installs what building and testing need, only when it is missing: json-c's headers
# (Debian: libjson-c-dev) and the Python packages the grammar and editor tests use.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

apt_install() {
    # apt-get update only when the package is not found in the current lists.
    if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "$@" >/dev/null 2>&1; then
        $SUDO apt-get update >/dev/null
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "$@" >/dev/null
    fi
}

if ! pkg-config --exists json-c 2>/dev/null; then
    echo "bootstrap: installing libjson-c-dev" >&2
    if command -v apt-get >/dev/null 2>&1; then
        apt_install libjson-c-dev pkg-config
    elif command -v brew >/dev/null 2>&1; then
        brew install json-c pkg-config
    else
        echo "bootstrap: please install json-c (headers and pkg-config file)" >&2
        exit 1
    fi
fi

# Graphviz renders `routes tree --format dot` in the tests.
if ! command -v dot >/dev/null 2>&1; then
    echo "bootstrap: installing graphviz" >&2
    if command -v apt-get >/dev/null 2>&1; then
        apt_install graphviz
    elif command -v brew >/dev/null 2>&1; then
        brew install graphviz
    fi
fi

# Python packages of the grammar and editor tests (pinned where a test depends on a version).
PY_PACKAGES="lark pytest pyyaml textmate-grammar-python==0.6.1"
if ! python3 -c "import lark, pytest, yaml, textmate_grammar" >/dev/null 2>&1; then
    echo "bootstrap: installing Python test packages ($PY_PACKAGES)" >&2
    python3 -m pip install --quiet $PY_PACKAGES
fi

# The independent language-server client suite (pytest-lsp).
if ! python3 -c "import pytest_lsp, pytest_asyncio, pygls, lsprotocol" >/dev/null 2>&1; then
    echo "bootstrap: installing pytest-lsp (Tests/lsp/requirements.txt)" >&2
    python3 -m pip install --quiet -r "$(dirname "$0")/../Tests/lsp/requirements.txt"
fi
