#!/bin/sh
# Installs arch-check from these sources: builds it in release mode once and
# copies it to PREFIX/bin (default: ~/.local/bin). A second run with the same
# sources finds the installed binary's source hash and builds nothing, so CI
# that caches PREFIX (or the action in this folder, which does) pays the
# build (about 45 s on 2 cores) only when arch-check itself changes.
#
#   tools/arch-check/install.sh [PREFIX]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-"$HOME/.local"}
bin="$prefix/bin"
# The sources' hash: every file that goes into the build, in a stable order.
hash=$(cd "$here" && find Package.swift Sources -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-32)
if [ -x "$bin/arch-check" ] && [ "$(cat "$bin/arch-check.sources" 2>/dev/null)" = "$hash" ]; then
  echo "arch-check: $bin/arch-check is up to date ($("$bin/arch-check" --version))"
  exit 0
fi
swift build -c release --package-path "$here" --product arch-check
mkdir -p "$bin"
cp "$(swift build -c release --package-path "$here" --show-bin-path)/arch-check" "$bin/arch-check.partial"
mv "$bin/arch-check.partial" "$bin/arch-check"
echo "$hash" > "$bin/arch-check.sources"
echo "arch-check: installed $bin/arch-check ($("$bin/arch-check" --version))"
