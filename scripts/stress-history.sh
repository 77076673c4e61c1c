#!/usr/bin/env bash
# Builds each hostile git repository shape `skilllint diff BASE [HEAD]` must bound (trees that name
# one folder many times, blobs that inflate, special files in .git, borrowed objects, a bare
# layout in the folder the diff runs in) and prints the diff's exit code, wall time and peak
# memory. Every run should stay under 1 s and 200 MB; the *-under shapes sit just inside a
# bound and are linted, the others are refused (exit 2) before any file is read.
#   scripts/stress-history.sh [SHAPE...]        SKILLLINT=target/debug/skilllint scripts/stress-history.sh
# Needs git, python3 (to write the trees) and mkfifo; uses /usr/bin/time for peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SKILLLINT:-}" ]; then
  bin=$(cd "$(dirname "$SKILLLINT")" && pwd)/$(basename "$SKILLLINT")
else
  cargo build --release --quiet
  bin=$PWD/target/release/skilllint
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=$work/gitconfig HOME=$work
git config --global user.name stress
git config --global user.email stress@skilllint.invalid
git config --global init.defaultBranch main
skill='---
name: s
description: Does things for the user. Use it when asked.
---
# S
'
new_repo() {
  rm -rf "$work/r"
  git init -q "$work/r"
  mkdir -p "$work/r/s"
  printf '%s' "$skill" > "$work/r/s/SKILL.md"
  git -C "$work/r" add -A
  git -C "$work/r" commit -q -m first
}
# A tree of COUNT entries named PREFIX0… of MODE KIND ID.
repeat_tree() {
  python3 -c 'import sys
mode, kind, oid, prefix, n = sys.argv[1:6]
sys.stdout.write("".join("%s %s %s\t%s%d\n" % (mode, kind, oid, prefix, i) for i in range(int(n))))' "$@" \
    | git -C "$work/r" mktree
}
commit_tree() {
  local commit
  commit=$(git -C "$work/r" commit-tree "$1" -p HEAD -m crafted)
  git -C "$work/r" update-ref HEAD "$commit"
}
skill_folder() {
  local blob
  blob=$(printf '%s' "$skill" | git -C "$work/r" hash-object -w --stdin)
  printf '100644 blob %s\tSKILL.md\n' "$blob" | git -C "$work/r" mktree
}
build() {
  new_repo
  case $1 in
    skills-160000)       # the issue's seven objects: one skill folder named 400 x 400 times
      commit_tree "$(repeat_tree 040000 tree "$(repeat_tree 040000 tree "$(skill_folder)" s 400)" g 400)" ;;
    skills-repeated-under) # one skill folder named 2,001 times: 2,000 repeats, the bound
      commit_tree "$(repeat_tree 040000 tree "$(skill_folder)" s 2001)" ;;
    folders-2250000)     # 1,500 folders of 1,500 files discovery does not read, one tree
      local blob
      blob=$(echo x | git -C "$work/r" hash-object -w --stdin)
      commit_tree "$(repeat_tree 040000 tree "$(repeat_tree 100644 blob "$blob" f 1500)" d 1500)" ;;
    folders-repeated-under) # 100 copies of a folder of 990 files discovery does not read
      local blob
      blob=$(echo x | git -C "$work/r" hash-object -w --stdin)
      commit_tree "$(repeat_tree 040000 tree "$(repeat_tree 100644 blob "$blob" f 990)" d 101)" ;;
    long-paths)          # 120 folders in a chain, each naming the next 300 times, 200-byte names
      local tree
      tree=$(printf '' | git -C "$work/r" mktree)
      for level in $(seq 1 120); do
        tree=$(python3 -c 'import sys
t, level = sys.argv[1:3]
sys.stdout.write("".join("040000 tree %s\t%s%s-%d\n" % (t, "n" * 200, level, i) for i in range(300)))' "$tree" "$level" \
          | git -C "$work/r" mktree)
      done
      commit_tree "$tree" ;;
    bytes-80mb|bytes-under) # distinct skills of 4,000,000 bytes each (a few KB packed)
      local n=20 entries=""
      [ "$1" = bytes-under ] && n=16
      for i in $(seq 1 "$n"); do
        local blob folder
        blob=$(python3 -c 'import sys
i = sys.argv[1]
t = ("---\nname: s%s\ndescription: Does things %s.\n---\n" % (i, i)).encode()
sys.stdout.buffer.write(t + b"a" * (4000000 - len(t)))' "$i" | git -C "$work/r" hash-object -w --stdin)
        folder=$(printf '100644 blob %s\tSKILL.md\n' "$blob" | git -C "$work/r" mktree)
        entries+=$(printf '040000 tree %s\ts%d\\n' "$folder" "$i")
      done
      commit_tree "$(printf "$entries" | git -C "$work/r" mktree)" ;;
    fifo-config|fifo-HEAD|fifo-packed-refs|fifo-alternates)
      git -C "$work/r" pack-refs --all
      local file=${1#fifo-}
      [ "$file" = alternates ] && file=objects/info/alternates
      rm -f "$work/r/.git/$file"
      mkfifo "$work/r/.git/$file" ;;
    zero-config|zero-HEAD|zero-packed-refs|zero-alternates)
      git -C "$work/r" pack-refs --all
      local file=${1#zero-}
      [ "$file" = alternates ] && file=objects/info/alternates
      rm -f "$work/r/.git/$file"
      ln -s /dev/zero "$work/r/.git/$file" ;;
    alternates-outside)  # a --shared clone: objects borrowed from the repository beside it
      rm -rf "$work/c"
      git clone -q --shared "$work/r" "$work/c" ;;
    bare-in-work-tree)   # a bare repository committed into the folder the diff runs in
      git init -q --bare "$work/r/wd" ;;
  esac
}
run_dir() {
  case $1 in
    bare-in-work-tree) echo "$work/r/wd" ;;
    alternates-outside) echo "$work/c" ;;
    *) echo "$work/r" ;;
  esac
}
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(skills-160000 skills-repeated-under folders-2250000 \
  folders-repeated-under long-paths bytes-80mb bytes-under fifo-config fifo-HEAD fifo-packed-refs \
  fifo-alternates zero-config zero-HEAD zero-packed-refs zero-alternates alternates-outside \
  bare-in-work-tree)
for shape in "${shapes[@]}"; do
  build "$shape"
  dir=$(run_dir "$shape")
  revs=(HEAD~1 HEAD)
  case $shape in fifo-*|zero-*|alternates-*|bare-*) revs=(HEAD) ;; esac
  if [ -x /usr/bin/time ]; then
    (cd "$dir" && timeout 60 /usr/bin/time -f "%e s %M KB" "$bin" diff --format json "${revs[@]}" \
      >/dev/null 2>"$work/err"; echo "exit $?" >>"$work/err") || true
    printf '%-24s %s, %s\n' "$shape" "$(grep -E '^exit' "$work/err")" "$(grep -E ' s [0-9]+ KB$' "$work/err")"
  else
    start=$(date +%s.%N)
    (cd "$dir" && timeout 60 "$bin" diff --format json "${revs[@]}" >/dev/null 2>&1; echo "exit $?") \
      > "$work/err" || true
    printf '%-24s %s, %.2f s\n' "$shape" "$(cat "$work/err")" "$(echo "$(date +%s.%N) - $start" | bc)"
  fi
done
