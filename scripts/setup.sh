#!/usr/bin/env bash
# Sets up everything rollbook needs, from nothing: a Python >= 3.12 venv with the project
# installed (editable, every package at the exact version constraints.txt names), the pinned
# npm packages (Pyodide), and with --browser Debian's Chromium for the browser tests.
# Idempotent: a stamp records what was installed, so a second run with unchanged pins costs
# well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1

say() { printf 'rollbook setup: %s\n' "$*" >&2; }

find_python() {
    local cand v
    for cand in python3.13 python3.12 \
        "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3 \
        "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3 \
        /usr/bin/python3.13 /usr/bin/python3.12 /usr/local/bin/python3.13 /usr/local/bin/python3.12 \
        python3; do
        # pyenv shims exist for every installed version but fail unless selected, so each
        # candidate is asked to run rather than trusted for its name.
        v=$("$cand" -c 'import sys; print(int(sys.version_info >= (3, 12)))' 2>/dev/null) || continue
        if [ "$v" = 1 ]; then command -v "$cand" || echo "$cand"; return 0; fi
    done
    return 1
}

if [ ! -x .venv/bin/python ]; then
    py=$(find_python) || {
        say "no Python 3.12 or newer was found (tried python3.13, python3.12, pyenv's versions, python3)."
        say "Install one (e.g. 'pyenv install 3.13') and run this again."
        exit 1
    }
    say "creating .venv with $py ($("$py" --version))"
    "$py" -m venv .venv
fi

stamp=.venv/.rollbook-stamp
want=$(cat pyproject.toml constraints.txt package.json package-lock.json 2>/dev/null | sha256sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing Python packages"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
    .venv/bin/python -m pip install --quiet --disable-pip-version-check \
        -c constraints.txt -e '.[dev,material]'
    say "installing npm packages (pinned by package-lock.json)"
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    echo "$want" > "$stamp"
fi

# fonts-liberation: the social-cards plugin's test font (chromium only recommends it).
if [ "$want_browser" = 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/truetype/liberation ]; }; then
    say "installing Debian's chromium (and fonts-liberation) for the browser tests"
    if [ "$(id -u)" = 0 ]; then sudo_cmd=(); else sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq chromium fonts-liberation >/dev/null
fi
say "ready"
