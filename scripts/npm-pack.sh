#!/usr/bin/env bash
# Packs the npm packages: each platform package named on the command line with its binary staged
# into it, and the main `skilllint` launcher package.
#
#   scripts/npm-pack.sh [--out DIR] [PLATFORM=BINARY ...]
#
# PLATFORM is a folder under npm/platforms (linux-x64, linux-arm64, darwin-x64, darwin-arm64,
# win32-x64). With no PLATFORM=BINARY argument it packs linux-x64 with target/release/skilllint
# (build it first with `cargo build --release --locked`). The release workflow passes every
# platform's binary. Packages are copied to a staging folder first, so no binary lands in npm/.
# The tarballs go to DIR (default target/npm) and their paths are printed, one a line.
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/npm
pairs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *=*) pairs+=("$1"); shift ;;
    *) echo "npm-pack.sh: unexpected argument '$1' (want PLATFORM=BINARY or --out DIR)" >&2; exit 2 ;;
  esac
done
if [ ${#pairs[@]} -eq 0 ]; then
  pairs=("linux-x64=target/release/skilllint")
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
staging="$out/staging"
rm -rf "$staging"
mkdir -p "$staging"

pack() {
  # npm pack prints the tarball's file name last.
  (cd "$1" && npm pack --silent --pack-destination "$out" | tail -n 1) | sed "s|^|$out/|"
}

for pair in "${pairs[@]}"; do
  platform=${pair%%=*}
  binary=${pair#*=}
  if [ ! -f "npm/platforms/$platform/package.json" ]; then
    echo "npm-pack.sh: no platform package npm/platforms/$platform" >&2
    exit 2
  fi
  if [ ! -f "$binary" ]; then
    echo "npm-pack.sh: binary '$binary' for $platform does not exist" >&2
    exit 2
  fi
  executable=skilllint
  case "$platform" in win32-*) executable=skilllint.exe ;; esac
  dir="$staging/$platform"
  mkdir -p "$dir/bin"
  cp "npm/platforms/$platform/package.json" "$dir/"
  cp LICENSE-MIT LICENSE-APACHE "$dir/"
  cp "$binary" "$dir/bin/$executable"
  chmod 755 "$dir/bin/$executable"
  pack "$dir"
done

main="$staging/skilllint"
mkdir -p "$main"
cp -R npm/skilllint/. "$main/"
cp LICENSE-MIT LICENSE-APACHE "$main/"
pack "$main"
