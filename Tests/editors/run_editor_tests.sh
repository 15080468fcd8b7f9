#!/usr/bin/env bash
# Runs the editor integration tests in real headless editors against a built
# `routes` binary:
#
#   Tests/editors/nvim/test.lua         Neovim (>= 0.7), Editors/nvim
#   Tests/editors/emacs/test-routes.el  Emacs (>= 27) + Eglot, Editors/emacs
#
# Usage: Tests/editors/run_editor_tests.sh [nvim] [emacs]     (default: both)
#
# Environment:
#   ROUTES_BIN   the `routes` executable (default: .build/debug/routes, relative to
#                the repository root). Nothing is built here.
#   CI           when set, an editor that cannot be installed is a failure; otherwise
#                it is skipped.
#
# Installs neovim, emacs-nox and elpa-eglot with apt-get when they are missing
# (running `apt-get update` only when a package is unknown to apt). Prints PASS
# or FAIL per editor and finally `N passed, M failed`; exits non-zero on any
# failure.
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo" || exit 2

bin="${ROUTES_BIN:-.build/debug/routes}"
case "$bin" in
  /*) ;;
  */*) bin="$repo/$bin" ;;
  *) bin="$(command -v "$bin" || echo "$bin")" ;;
esac

editors=("$@")
[ ${#editors[@]} -eq 0 ] && editors=(nvim emacs)
for e in "${editors[@]}"; do
  case "$e" in nvim|emacs) ;; *) echo "usage: $0 [nvim] [emacs]" >&2; exit 2 ;; esac
done

passed=0
failed=0
skipped=0
work="$(mktemp -d "${TMPDIR:-/tmp}/routes-editor-tests.XXXXXX")"
trap 'rm -rf "$work"' EXIT

say() { printf '%s\n' "$*"; }

# --- installing -----------------------------------------------------------------

apt_updated=0
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n "$@"
  else return 1
  fi
}

# apt_install PKG WHY: installs PKG, saying why, running `apt-get update` first only
# when apt does not know PKG (or has no candidate for it).
apt_install() {
  local pkg="$1" why="$2"
  command -v apt-get >/dev/null 2>&1 || { say "   (no apt-get: cannot install $pkg, $why)"; return 1; }
  if [ "$apt_updated" -eq 0 ] && {
       ! apt-cache show "$pkg" >/dev/null 2>&1 ||
       apt-cache policy "$pkg" 2>/dev/null | grep -q 'Candidate: (none)'; }; then
    say "   apt-get update (apt does not know $pkg)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$work/apt-update.log" 2>&1 ||
      { cat "$work/apt-update.log"; return 1; }
    apt_updated=1
  fi
  say "   installing $pkg with apt-get: $why"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$pkg" \
    >"$work/apt-$pkg.log" 2>&1 || { tail -n 20 "$work/apt-$pkg.log"; return 1; }
}

nvim_ok() {
  command -v nvim >/dev/null 2>&1 &&
    nvim --headless -u NONE -i NONE -n +'lua if vim.fn.has("nvim-0.7") == 1 then vim.cmd("qall!") else vim.cmd("cquit 1") end' \
      >/dev/null 2>&1 </dev/null
}

emacs_eglot_ok() {
  command -v emacs >/dev/null 2>&1 &&
    emacs --batch --eval '(progn
      (unless (locate-library "eglot")
        (dolist (d (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/eglot-*"))
          (add-to-list (quote load-path) d)))
      (kill-emacs (if (locate-library "eglot") 0 1)))' >/dev/null 2>&1 </dev/null
}

ensure_nvim() {
  nvim_ok && return 0
  apt_install neovim "the Neovim test drives a headless Neovim" || return 1
  nvim_ok || { say "   Neovim 0.7 or later is needed: $(nvim --version 2>/dev/null | head -n 1)"; return 1; }
}

ensure_emacs() {
  emacs_eglot_ok && return 0
  command -v emacs >/dev/null 2>&1 || apt_install emacs-nox "the Emacs test drives Emacs in batch mode" || return 1
  emacs_eglot_ok && return 0
  apt_install elpa-eglot "the Emacs test talks to the server through Eglot" || return 1
  emacs_eglot_ok || { say "   Eglot cannot be loaded"; return 1; }
}

# --- running --------------------------------------------------------------------

# result NAME STATUS DETAIL: records and prints the outcome of one editor.
result() {
  case "$2" in
    pass) passed=$((passed + 1)); say "PASS: $1 $3" ;;
    skip) skipped=$((skipped + 1)); say "SKIP: $1 $3" ;;
    *) failed=$((failed + 1)); say "FAIL: $1 $3" ;;
  esac
}

# run_test NAME TIMEOUT CMD...: runs one editor test; its own lines go to stdout,
# the editor's stderr is shown only on failure.
run_test() {
  local name="$1" limit="$2"; shift 2
  local start end rc
  start=$(date +%s.%N)
  ROUTES_BIN="$bin" XDG_CACHE_HOME="$work/$name-cache" XDG_STATE_HOME="$work/$name-state" \
    XDG_DATA_HOME="$work/$name-data" XDG_CONFIG_HOME="$work/$name-config" \
    timeout --kill-after=5 "$limit" "$@" </dev/null >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  end=$(date +%s.%N)
  sed 's/^/   /' "$work/$name.out"
  local secs
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  if [ "$rc" -eq 0 ] && grep -q ' 0 failed$' "$work/$name.out"; then
    result "$name" pass "(${secs} s)"
  else
    if [ -s "$work/$name.err" ]; then
      say "   --- $name stderr (last 30 lines) ---"
      tail -n 30 "$work/$name.err" | sed 's/^/   /'
    fi
    case "$rc" in
      124|137) result "$name" fail "(timed out after $limit s)" ;;
      *) result "$name" fail "(exit status $rc, ${secs} s)" ;;
    esac
  fi
}

missing() {
  if [ -n "${CI:-}" ]; then result "$1" fail "($2)"; else result "$1" skip "($2)"; fi
}

say "editor tests: routes binary $bin"
if [ ! -x "$bin" ]; then
  say "   $bin is not an executable file; build it first (swift build --product routes)"
  for e in "${editors[@]}"; do result "$e" fail "(no routes binary)"; done
  say "$passed passed, $failed failed"
  exit 1
fi

for e in "${editors[@]}"; do
  case "$e" in
    nvim)
      say "== nvim"
      if ensure_nvim; then
        run_test nvim 60 nvim --headless -u NONE -i NONE -n \
          --cmd "set rtp+=$repo/Editors/nvim" -c "luafile $repo/Tests/editors/nvim/test.lua"
      else
        missing nvim "Neovim >= 0.7 is not installed and could not be installed"
      fi
      ;;
    emacs)
      say "== emacs"
      if ensure_emacs; then
        # Without -Q, so that site-start puts Debian's elpa-eglot on the load path.
        run_test emacs 120 emacs --batch -l "$repo/Editors/emacs/routes-mode.el" \
          -l "$repo/Tests/editors/emacs/test-routes.el" -f routes-test-run
      else
        missing emacs "Emacs with Eglot is not installed and could not be installed"
      fi
      ;;
  esac
done

[ "$skipped" -gt 0 ] && say "($skipped skipped: editor not available)"
say "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
