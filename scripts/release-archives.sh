#!/usr/bin/env bash
# Makes the release archives and the npm packages from the binaries inside the built wheels, so that
# every channel (PyPI, GitHub release, cargo-binstall, npm) ships the same bytes from one build per
# target:
#
#   scripts/release-archives.sh WHEELS_DIR OUT_DIR
#
# For each wheel whose platform has an archive (musllinux x86_64/aarch64: static, so one archive
# serves every Linux; macOS x86_64/arm64; Windows x86_64) it writes
# OUT_DIR/release/skilllint-v<version>-<target>.tar.gz (.zip on Windows) holding
# skilllint-v<version>-<target>/{skilllint[.exe],README.md,LICENSE-MIT,LICENSE-APACHE}, then
# OUT_DIR/release/SHA256SUMS, then the npm tarballs in OUT_DIR/npm (scripts/npm-pack.sh). The
# manylinux wheels are skipped: they are for pip on glibc only. Archive members get the time of
# SOURCE_DATE_EPOCH (default: the last commit's), so a rebuild gives the same archive.
set -euo pipefail
if [ $# -ne 2 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
wheels=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
rm -rf "$out/release" "$out/binaries"
mkdir -p "$out/release" "$out/binaries"

npm_pairs=()
found=0
for wheel in "$wheels"/skilllint_rs-"$version"-*.whl; do
  [ -e "$wheel" ] || continue
  case "$wheel" in
    *musllinux*_x86_64.whl) target=x86_64-unknown-linux-musl npm=linux-x64 ;;
    *musllinux*_aarch64.whl) target=aarch64-unknown-linux-musl npm=linux-arm64 ;;
    *macosx*_x86_64.whl) target=x86_64-apple-darwin npm=darwin-x64 ;;
    *macosx*_arm64.whl) target=aarch64-apple-darwin npm=darwin-arm64 ;;
    *win_amd64.whl) target=x86_64-pc-windows-msvc npm=win32-x64 ;;
    *) echo "release-archives.sh: no archive for $(basename "$wheel")"; continue ;;
  esac
  found=$((found + 1))
  executable=skilllint
  case "$target" in *windows*) executable=skilllint.exe ;; esac
  name="skilllint-v$version-$target"
  dir="$out/binaries/$name"
  mkdir -p "$dir"
  # maturin's bin wheels keep the executable under <name>.data/scripts/.
  python3 - "$wheel" "$executable" "$dir/$executable" <<'PY'
import sys
import zipfile

wheel, executable, destination = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive:
    members = [n for n in archive.namelist() if n.endswith(".data/scripts/" + executable)]
    if len(members) != 1:
        sys.exit("%s: expected one .data/scripts/%s, found %d" % (wheel, executable, len(members)))
    with archive.open(members[0]) as source, open(destination, "wb") as target:
        target.write(source.read())
PY
  chmod 755 "$dir/$executable"
  cp README.md LICENSE-MIT LICENSE-APACHE "$dir/"
  touch -d "@$epoch" "$dir" "$dir"/*
  if [ "$executable" = skilllint.exe ]; then
    (cd "$out/binaries" && find "$name" -print | LC_ALL=C sort | zip -X -q "$out/release/$name.zip" -@)
  else
    tar -C "$out/binaries" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
      -cf - "$name" | gzip -n > "$out/release/$name.tar.gz"
  fi
  npm_pairs+=("$npm=$dir/$executable")
done
if [ "$found" -eq 0 ]; then
  echo "release-archives.sh: no skilllint_rs-$version wheel with an archive platform in $wheels" >&2
  exit 1
fi
(
  cd "$out/release"
  shopt -s nullglob
  archives=(*.tar.gz *.zip)
  sha256sum -- "${archives[@]}" > SHA256SUMS
)
scripts/npm-pack.sh --out "$out/npm" "${npm_pairs[@]}"
ls -l "$out/release" "$out/npm"
