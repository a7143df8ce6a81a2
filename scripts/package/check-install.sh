#!/usr/bin/env bash
# make check-install: builds the .deb, installs it with dpkg -i, drives the installed /usr/bin/pajama with no
# Swift toolchain on PATH and an empty LD_LIBRARY_PATH, removes it with dpkg -r and checks nothing is left;
# then the same with make install DESTDIR=... / make uninstall. Each wait polls with a deadline (WAIT seconds);
# every failure says what was expected and what was seen. Needs root or sudo (dpkg).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
WAIT=${WAIT:-60}
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

scripts/install-deps.sh
scripts/package/install-package-deps.sh
started=$(date +%s)
# DEB=path checks a package built already; with BIN=binary and GENERATED=folder too, the DESTDIR install
# uses them (scripts/package/install.sh) instead of make install (which builds).
if [ -n "${DEB:-}" ]; then
  deb=$DEB
else
  make --no-print-directory deb
  deb=$(ls dist/pajama_*_"$(dpkg --print-architecture)".deb)
fi
built=$(date +%s)

work=$(mktemp -d /tmp/pajama-check-install.XXXXXX)
# One tmux server (private socket) per session: a new server on the name of one just killed can find it
# still going away ("server exited unexpectedly").
sessions=0
socket=""
new_session() { sessions=$((sessions + 1)); socket="pajama-check-$$-$sessions"; tmux -L "$socket" -f /dev/null new-session -d "$@"; }
cleanup() {
  # kill-server leaves the socket behind: removed too (issue 27 item 9).
  for ((i = 1; i <= sessions; i++)); do
    tmux -L "pajama-check-$$-$i" kill-server 2>/dev/null || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/pajama-check-$$-$i"
  done
  if dpkg-query -W -f='${Status}' pajama 2>/dev/null | grep -q "install ok installed"; then $SUDO dpkg -r pajama >/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "check-install: FAILED: $*" >&2; exit 1; }
pass() { echo "check-install: ok: $*"; }

# The reader's world: its own HOME and XDG folders, a folder without ./Stories, PATH without the toolchain.
home="$work/home"
mkdir -p "$home" "$work/elsewhere"
clean_env() {
  local bindir=$1
  echo env -i HOME="$home" PATH="$bindir:/usr/bin:/bin" LD_LIBRARY_PATH= TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" XDG_STATE_HOME="$home/state" \
    PULSE_SERVER=unix:/nonexistent
}

# Waits (polling every 0.1 s, at most WAIT s) until the tmux pane's screen matches the extended regex $1.
wait_screen() {
  local pattern=$1 what=$2 deadline=$(( $(date +%s) + WAIT )) screen=""
  while [ "$(date +%s)" -lt "$deadline" ]; do
    screen=$(tmux -L "$socket" capture-pane -p -t 0 2>/dev/null || true)
    if grep -Eq -- "$pattern" <<<"$screen"; then return 0; fi
    sleep 0.1
  done
  fail "$what: waited ${WAIT}s for /$pattern/; the screen was:
$screen"
}

# Everything a reader does with an installed pajama: $1 the bin folder, $2 the share folder, $3 the man tree.
check_installed() {
  local bindir=$1 share=$2 mandir=$3 bin="$1/pajama" env
  env=$(clean_env "$bindir")
  rm -rf "$home"; mkdir -p "$home"
  cd "$work/elsewhere"

  # No Swift toolchain anywhere the binary can see.
  $env bash -c '! command -v swift' >/dev/null || fail "swift is on the clean PATH"
  local libs; libs=$(ldd "$bin")
  if grep -Eq 'libswift|libFoundation|libdispatch|/opt/swift|not found' <<<"$libs"; then fail "ldd $bin shows toolchain libraries:
$libs"; fi
  pass "ldd: $(wc -l <<<"$libs") libraries, none from the Swift toolchain"

  local version; version=$($env "$bin" --version)
  [[ "$version" =~ ^pajama\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version printed '$version'"
  pass "--version: $version"

  local list; list=$($env "$bin" list) || fail "pajama list exited $?"
  for id in lantern-keeper clockwork-atlas night-garden; do
    grep -Eq "^$id .* yes$" <<<"$list" || fail "pajama list does not show $id as validating:
$list"
  done
  pass "list: the bundled stories, from $share/Stories"

  local doctor; doctor=$($env "$bin" doctor || true)
  grep -Fq "$share/Stories (bundled" <<<"$doctor" || fail "doctor does not name the bundled stories folder:
$doctor"
  grep -Fq "$home/data/pajama/stories (yours" <<<"$doctor" || fail "doctor does not name the reader's stories folder:
$doctor"
  grep -Eq "$share/Themes \(bundled.*: default, mono, night, paper" <<<"$doctor" || fail "doctor does not find the bundled themes:
$doctor"
  pass "doctor: says where stories and themes come from"

  local transcript; transcript=$($env "$bin" play "$share/Stories/lantern-keeper" --choices 1,1) || fail "play exited $?"
  grep -Fq "The End" <<<"$transcript" || fail "play did not reach The End:
$transcript"
  pass "play: lantern-keeper to ending A"

  # install-story: a broken story is refused with the validator's findings, a good one (a .zip) shows in the
  # library, uninstall-story removes it.
  mkdir -p "$work/packages"
  rm -rf "$work/packages"/*
  cp -r "$repo/Stories/lantern-keeper" "$work/packages/copy"
  sed -i 's/"id": *"lantern-keeper"/"id": "lantern-copy"/; s/"title": *"The Lantern Keeper"/"title": "A Copied Lantern"/' "$work/packages/copy/story.json"
  grep -q '"lantern-copy"' "$work/packages/copy/story.json" || fail "could not make the test story's copy"
  (cd "$work/packages" && python3 -c 'import shutil; shutil.make_archive("copy", "zip", ".", "copy")')
  cp -r "$work/packages/copy" "$work/packages/broken"
  rm "$work/packages/broken/beats/storm.json"
  local out status
  set +e; out=$($env "$bin" install-story "$work/packages/broken" 2>&1); status=$?; set -e
  [ "$status" = 1 ] && grep -Fq "storm" <<<"$out" || fail "install-story of a broken story: exit $status, said:
$out"
  [ ! -e "$home/data/pajama/stories/lantern-copy" ] || fail "the broken story was installed"
  $env "$bin" install-story "$work/packages/copy.zip" >/dev/null || fail "install-story of a .zip exited $?"
  $env "$bin" list | grep -Eq "^lantern-copy .*A Copied Lantern.* yes$" || fail "the installed story is not in pajama list"
  pass "install-story: a broken story refused (exit 1, the missing beat named), a .zip installed and listed"

  # The library (pajama with no argument) in tmux shows bundled and installed stories; a story with a
  # picture reads to its title page with the picture drawn (chafa's block characters).
  new_session -x 120 -y 40 -c "$work/elsewhere" "$env $bin --no-sound; echo '[exited' \$?']'; sleep 600"
  wait_screen "A Copied Lantern" "the library shows the installed story"
  wait_screen "The Lantern Keeper" "the library shows the bundled story"
  tmux -L "$socket" send-keys -t 0 q
  wait_screen '\[exited 0\]' "the library quits with q"
  tmux -L "$socket" kill-server
  new_session -x 120 -y 40 -c "$work/elsewhere" "$env $bin read $share/Stories/lantern-keeper --no-sound; echo '[exited' \$?']'; sleep 600"
  wait_screen "A short story" "read shows the title page"
  wait_screen "[▀▄█▌▐▖▗▘▝▚▞]" "read draws the title page's picture"
  tmux -L "$socket" send-keys -t 0 q
  wait_screen '\[exited 0\]' "the reader quits with q"
  tmux -L "$socket" kill-server
  pass "library and read in tmux: installed and bundled stories, a page with its picture"

  $env "$bin" uninstall-story lantern-copy >/dev/null || fail "uninstall-story exited $?"
  ! $env "$bin" list | grep -q "lantern-copy" || fail "the uninstalled story is still listed"
  set +e; out=$($env "$bin" uninstall-story lantern-keeper 2>&1); status=$?; set -e
  [ "$status" = 2 ] && grep -Fq "came with pajama" <<<"$out" || fail "uninstall-story of a bundled story: exit $status, said: $out"
  pass "uninstall-story: removed; a bundled story is refused"

  # The man page renders with the sections argument-parser cannot know.
  local page; page=$(MANPATH="$mandir" MANWIDTH=100 man -P cat pajama 2>&1) || fail "man pajama failed: $page"
  for section in SYNOPSIS KEYS ENVIRONMENT FILES "EXIT STATUS" install-story; do
    grep -Fq "$section" <<<"$page" || fail "man pajama has no $section"
  done
  MANPATH="$mandir" man -P cat pajama.read >/dev/null 2>&1 || fail "man pajama.read does not render"
  pass "man: pajama renders with KEYS, ENVIRONMENT, FILES, EXIT STATUS; pajama.read renders"

  # bash completion, typed for real: `pajama rea<TAB>` becomes `pajama read` (`re` is also `relay`'s start).
  local data_dirs=${4:-/usr/share}
  new_session -x 120 -y 10 -c "$work/elsewhere" \
    "$env XDG_DATA_DIRS=$data_dirs:/usr/share PS1='ready> ' bash --norc --noprofile"
  tmux -L "$socket" send-keys -t 0 "source /usr/share/bash-completion/bash_completion && echo loaded" Enter
  wait_screen "^loaded" "bash-completion loads"
  tmux -L "$socket" send-keys -t 0 "pajama rea" Tab
  wait_screen '^ready> pajama read *$' "bash completes 'pajama rea<TAB>' to 'pajama read'"
  tmux -L "$socket" kill-server
  pass "bash completion: pajama rea<TAB> -> pajama read"
  cd "$repo"
}

# --- the .deb, with dpkg
echo "check-install: $deb ($(du -h "$deb" | cut -f1))"
$SUDO dpkg -i "$deb" >/dev/null || fail "dpkg -i $deb"
mapfile -t packaged < <(dpkg -L pajama)
check_installed /usr/bin /usr/share/pajama /usr/share/man
$SUDO dpkg -r pajama >/dev/null || fail "dpkg -r pajama"
if dpkg-query -W -f='${Status}' pajama 2>/dev/null | grep -q "install ok installed"; then fail "dpkg still lists pajama as installed"; fi
left=()
for path in "${packaged[@]}"; do
  [ "$path" = /. ] && continue
  [ -e "$path" ] || [ -L "$path" ] || continue
  # A folder another package also owns (/usr/share/man/man1, /usr/share/lintian/overrides) stays: fine.
  if [ -d "$path" ] && [ ! -L "$path" ] && dpkg-query -S "$path" >/dev/null 2>&1; then continue; fi
  left+=("$path")
done
[ ${#left[@]} -eq 0 ] || fail "dpkg -r left: ${left[*]}"
[ ! -e /usr/bin/pajama ] && [ ! -e /usr/share/pajama ] || fail "dpkg -r left /usr/bin/pajama or /usr/share/pajama"
pass "dpkg -r: none of the package's ${#packaged[@]} paths is left"

# --- make install DESTDIR=... (PREFIX=/usr/local), then make uninstall
dest="$work/dest"
mkdir -p "$dest"
if [ -n "${DEB:-}" ] && [ -n "${BIN:-}" ]; then
  DESTDIR="$dest" PREFIX=/usr/local BIN="$BIN" GENERATED="${GENERATED:?GENERATED with BIN}" scripts/package/install.sh >/dev/null
else
  make --no-print-directory install DESTDIR="$dest" PREFIX=/usr/local >/dev/null
fi
check_installed "$dest/usr/local/bin" "$dest/usr/local/share/pajama" "$dest/usr/local/share/man" "$dest/usr/local/share"
[ -f "$dest/usr/local/share/zsh/site-functions/_pajama" ] && [ -f "$dest/usr/local/share/fish/vendor_completions.d/pajama.fish" ] \
  || fail "make install did not put the zsh and fish completions in their folders"
make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr/local >/dev/null
left_over=$(cd "$dest" && find . -mindepth 1)
[ -z "$left_over" ] || fail "make uninstall left: $left_over"
pass "make install DESTDIR / make uninstall: everything written was removed, nothing else touched"

echo "check-install: all good (package built in $((built - started)) s, checks $(( $(date +%s) - built )) s)"
