#!/usr/bin/env bash
# Regenerates every generated asset of the bundled stories (Stories/*/assets) from scratch:
# sounds with sox synthesis (plus espeak-ng for a few spoken words), pictures with ImageMagick.
# The text-art pictures (assets/art/*.txt) are written by hand and are not touched here.
# Usage: scripts/make-story-assets.sh   (from anywhere; needs sox, libsox-fmt-all, espeak-ng, convert)
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in sox espeak-ng convert awk; do
  command -v "$tool" >/dev/null || { echo "make-story-assets: $tool is required" >&2; exit 1; }
done

TMP_ASSETS="$(mktemp -d)"
export TMP_ASSETS
trap 'rm -rf "$TMP_ASSETS"' EXIT

# shellcheck source=story-assets/sounds.sh
source scripts/story-assets/sounds.sh

for story in lantern-keeper clockwork-atlas night-garden; do
  rm -rf "Stories/$story/assets/sounds" "Stories/$story/assets/images"
  echo "== $story"
  # shellcheck disable=SC1090
  source "scripts/story-assets/$story.sh"
done

du -sh Stories
