#!/usr/bin/env bash
# Install the Debian packages Odeon needs that this machine lacks.
#   scripts/system-deps.sh         what the app needs (Python venv, Qt + OpenGL libraries)
#   scripts/system-deps.sh --test  also what the tests need (Xvfb, the real ODE: libode8)
# Nothing is installed when everything is there; otherwise apt-get runs as root,
# or through sudo. Not on Debian/Ubuntu (no dpkg): prints a note and goes on.
set -euo pipefail
packages=(python3-venv python3-pip
  libgl1 libegl1 libgl1-mesa-dri libglib2.0-0 libdbus-1-3 libfontconfig1
  libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0)
if [ "${1:-}" = "--test" ]; then
  packages+=(xvfb xauth libode8)
fi
if ! command -v dpkg-query >/dev/null; then
  echo "system-deps: not a Debian system; make sure Qt's xcb and OpenGL libraries are installed" >&2
  exit 0
fi
missing=()
for p in "${packages[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "system-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "system-deps: run as root: apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
