#!/usr/bin/env bash
# Sound helpers for make-story-assets.sh. Every sound is synthesised here with sox (and espeak-ng for
# the few spoken words); nothing is downloaded or sampled from elsewhere.
# `sox -R` keeps the noise generators repeatable, so re-running gives the same audio.
set -euo pipefail

TMP="${TMP_ASSETS:?TMP_ASSETS must be set}"

calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# finish <in.wav> <out> <rate> <channels>: resample, set channels, fade edges, peak at -3 dBFS.
finish() {
  local in="$1" out="$2" rate="$3" ch="$4"
  local opts=()
  case "$out" in
    *.wav)  opts=(-b 16 -e signed-integer) ;;
    *.flac) opts=(-b 16 -C 8) ;;
    *.ogg)  opts=(-C 3) ;;
  esac
  mkdir -p "$(dirname "$out")"
  sox -R "$in" "${opts[@]}" "$out" gain -10 channels "$ch" fade t 0.008 0 0.03 rate "$rate" gain -n -3
}

# note name -> frequency helper is sox's own (%n semitone syntax); we just use Hz or note names.

# pluck <out.wav> <note> <seconds>: a plucked string, tail faded.
pluck() { sox -R -n "$1" synth "$3" pluck "$2" gain -6 fade l 0 "$3" "$(calc "$3*0.9")"; }

# bell <out.wav> <freq> <seconds>: inharmonic partials with a long log decay.
bell() {
  local f="$2" d="$3"
  sox -R -c 4 -n "$1" synth "$d" sine "$f" sine "$(calc "$f*2.76")" sine "$(calc "$f*5.40")" sine "$(calc "$f*2.0")" \
    remix 1v0.5,2v0.2,3v0.08,4v0.25 fade l 0.003 "$d" "$(calc "$d*0.95")"
}

# silence <out.wav> <seconds>
silence() { sox -n -r 44100 -c 1 "$1" trim 0 "$2"; }

# speak <out.wav> <voice> <speed> <pitch> <words>
speak() { espeak-ng -v "$2" -s "$3" -p "$4" -w "$1.raw.wav" "$5"; sox "$1.raw.wav" -r 44100 -c 1 "$1"; rm -f "$1.raw.wav"; }
