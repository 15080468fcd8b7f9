#!/usr/bin/env bash
# Installs what building and testing need, and only what is missing:
#
#   bash scripts/bootstrap.sh build   json-c's headers and pkg-config file: all that
#                                     `swift build` needs besides Swift (`make demo`)
#   bash scripts/bootstrap.sh test    the same, Graphviz, and the Python packages of the
#                                     test suites in a virtual environment, .venv/ (`make test`)
#
# System packages come from apt-get (through sudo when not run as root) or Homebrew, each
# announced with what is missing and why. Python packages go into .venv/ at the repository
# root (ignored by git), never into the system Python, which refuses them on Debian 12 and
# Ubuntu 24.04 ("externally-managed-environment", PEP 668). .venv/ is updated whenever
# Tests/requirements.txt or Tests/lsp/requirements.txt changes.
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-test}"
case "$what" in
    build|test) ;;
    *) echo "usage: $0 [build|test]" >&2; exit 2 ;;
esac

say() { echo "bootstrap: $*" >&2; }

as_root() {
    if [ "$(id -u)" = "0" ]; then "$@"; else sudo "$@"; fi
}

# install_system WHY APT-PACKAGES BREW-PACKAGES: installs packages that are missing, saying why.
install_system() {
    local why="$1" apt="$2" brew="$3"
    if command -v apt-get >/dev/null 2>&1; then
        if [ "$(id -u)" != "0" ] && ! command -v sudo >/dev/null 2>&1; then
            say "$why; please install $apt as root (apt-get install $apt)"
            return 1
        fi
        local via=""
        [ "$(id -u)" != "0" ] && via=" (through sudo)"
        say "$why: installing $apt with apt-get$via"
        # (apt-get update only when the current package lists do not have them.)
        if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt >/dev/null 2>&1; then
            say "apt-get update: the package lists do not have $apt"
            as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt >/dev/null
        fi
    elif command -v brew >/dev/null 2>&1; then
        say "$why: installing $brew with Homebrew"
        brew install $brew
    else
        say "$why; please install $apt (Debian, Ubuntu) or $brew (Homebrew)"
        return 1
    fi
}

# json-c: the JSON layer of `routes` (CLI output, the language server) is built on it.
if ! pkg-config --exists json-c 2>/dev/null; then
    install_system "json-c's headers are missing (routes reads and writes JSON with json-c, found through pkg-config)" \
        "libjson-c-dev pkg-config" "json-c pkg-config"
fi
[ "$what" = "build" ] && exit 0

# Graphviz: the tests render `routes tree --format dot` with `dot`.
if ! command -v dot >/dev/null 2>&1; then
    install_system "Graphviz is missing (the tests render \`routes tree --format dot\` with dot)" graphviz graphviz
fi

# The Python test packages, in .venv/.
if ! command -v python3 >/dev/null 2>&1; then
    install_system "Python 3 is missing (the grammar, editor-file and language-server client tests are Python)" \
        "python3 python3-venv" "python"
fi
if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    install_system "Python's venv module is missing (the test packages go into a virtual environment, .venv/)" \
        python3-venv python
fi
if [ -d .venv ] && ! .venv/bin/python -c "import sys" >/dev/null 2>&1; then
    say "making .venv/ again: its Python does not run (was the system Python replaced?)"
    rm -rf .venv
fi
if [ ! -d .venv ]; then
    say "making a virtual environment for the Python test packages: .venv/ (python3 -m venv)"
    python3 -m venv .venv
fi
wanted="$(cat Tests/requirements.txt Tests/lsp/requirements.txt)"
if [ "$wanted" != "$(cat .venv/routes-requirements.txt 2>/dev/null)" ]; then
    say "installing the Python test packages into .venv/ (Tests/requirements.txt)"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r Tests/requirements.txt
    printf '%s' "$wanted" > .venv/routes-requirements.txt
fi
