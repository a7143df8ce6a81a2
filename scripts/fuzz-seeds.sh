#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target under .build-fuzz/seeds/NAME (see scripts/fuzz.sh and
# docs/security.md, "Fuzzing"): the bundled stories, themes and their pictures and sounds; the picture
# fixtures (JPEG, WebP, GIF); small generated PNGs (every colour type, 1-16 bits, interlaced) and sounds (WAV, FLAC, Ogg Vorbis, Opus, MP3); valid
# settings, progress and co-reading messages; and every JSON text written out in the tests (the bad-input
# corpus cases). The fuzzers keep what they find in .build-fuzz/corpus/NAME; seeds are only the start.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-fuzz/seeds
rm -rf "$out"
mkdir -p "$out"/{story,theme,settings,progress,picture,jpeg,webp,gif,sound,session}

seed() { printf '%s' "$2" > "$out/$1/$3"; }  # TARGET TEXT NAME

# Stories: each package whole (story.json, then each beat after a line "---"), and each file alone.
for story in Stories/*/; do
    [ -f "$story/story.json" ] || continue  # an ink story (Stories/ferry-cat) is no package
    name=$(basename "$story")
    python3 - "$story" "$out/story/$name.package" <<'PY'
import pathlib, sys
story = pathlib.Path(sys.argv[1])
parts = [(story / "story.json").read_bytes()] + [p.read_bytes() for p in sorted((story / "beats").glob("*.json"))]
pathlib.Path(sys.argv[2]).write_bytes(b"\n---\n".join(parts))
PY
    cp "$story/story.json" "$out/story/$name.story.json"
    for beat in "$story"/beats/*.json; do cp "$beat" "$out/story/$name.$(basename "$beat")"; done
    cp "$story"/assets/images/*.png "$story"/assets/art/*.txt "$out/picture/" 2>/dev/null || true
done
# Sounds: the stories' small ones (libFuzzer's input size follows the largest seed).
find Stories -path '*/assets/sounds/*' -size -64k -exec cp {} "$out/sound/" \;

# Every JSON text the tests write out (#"{...}"# literals): the bad-input corpus, to every JSON target.
python3 - "$out" <<'PY'
import pathlib, re, sys, hashlib
out = pathlib.Path(sys.argv[1])
for path in pathlib.Path("Tests").rglob("*.swift"):
    for text in re.findall(r'#"(\{.*?\}|\[.*?\])"#', path.read_text()):
        name = "test-" + hashlib.sha1(text.encode()).hexdigest()[:12]
        for target in ("story", "theme", "settings", "progress", "session"):
            (out / target / name).write_text(text)
PY

# Themes and settings.
cp Themes/*.json "$out/theme/"
seed settings '{"theme":"night"}' reader
seed settings '{"volume":35,"muted":true}' sound
seed settings '{"theme":"paper","volume":100,"muted":false}' both

# Progress of the progress target's story (PajamaFuzz/FuzzStory.swift: start, left, right, end).
seed progress '{"finished":false,"history":[{"beatId":"start","lineIndex":0,"pageId":"cover"},{"beatId":"start","lineIndex":2,"pageId":"road"}],"location":{"beatId":"start","lineIndex":2,"pageId":"road"},"pagesRead":2,"storyVersion":"1"}' road
seed progress '{"finished":true,"history":[{"beatId":"start","lineIndex":0,"pageId":"fork"},{"beatId":"left","lineIndex":1,"pageId":"p"},{"beatId":"end","lineIndex":0,"pageId":"q"}],"location":{"beatId":"end","lineIndex":0,"pageId":"q"},"pagesRead":9}' ended
seed progress '{"finished":false,"history":[],"location":{"beatId":"right","lineIndex":0,"pageId":"p"},"pagesRead":0}' bare

# Co-reading messages, one of each type.
seed session '{"name":"Ada","type":"hello","v":1}' hello
seed session '{"location":{"beatId":"storm","lineIndex":1,"pageId":"choice"},"owner":"Bo","participants":["Ada","Cy"],"story":{"id":"lantern-keeper","title":"The Lantern Keeper","url":"http://127.0.0.1:8080/story/","version":"1"},"type":"welcome","v":1}' welcome
seed session '{"location":{"beatId":"shore","lineIndex":0,"pageId":"p"},"type":"location","v":1}' location
seed session '{"choice":1,"cue":"choice","path":"assets/sounds/door-latch.wav","type":"cue","v":1}' cue
seed session '{"participants":["Ada","Cy"],"type":"participants","v":1}' participants
seed session '{"name":"Bo","type":"end","v":1}' end
seed session '{"countOnly":true,"name":"Ada","type":"hello","v":1}' hello-count
seed session '{"followers":2,"location":{"beatId":"storm","lineIndex":1,"pageId":"choice"},"owner":"Bo","story":{"id":"lantern-keeper","url":"/","version":"1"},"type":"welcome","v":1}' welcome-count
seed session '{"followers":2000,"type":"followers","v":1}' followers

# JPEG, WebP and GIF: the committed fixtures (scripts/make-picture-fixtures.py: baseline, progressive, grey,
# CMYK, every EXIF orientation; lossy, lossless, alpha and animated WebP; plain, interlaced-transparent and
# animated GIF), each to its format's target and all to the picture target (which knows them by their bytes).
cp Tests/Fixtures/pictures/*.jpg "$out/jpeg/"
cp Tests/Fixtures/pictures/*.webp "$out/webp/"
cp Tests/Fixtures/pictures/*.gif "$out/gif/"
cp Tests/Fixtures/pictures/* "$out/picture/"

# Generated pictures: every PNG colour type and bit depth libpng reads, interlaced, with tRNS and gAMA.
python3 - "$out/picture" <<'PY'
import pathlib, struct, sys, zlib
out = pathlib.Path(sys.argv[1])
def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
def png(name, width, height, depth, colour, extra=b"", interlace=0):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    row = (width * channels * depth + 7) // 8
    raw = b"".join(b"\x00" + bytes((x * 37 + y * 11) & 0xff for x in range(row)) for y in range(height))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))
    data += extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    (out / f"gen-{name}.png").write_bytes(data)
palette = chunk(b"PLTE", bytes(range(48)))
for depth in (1, 2, 4, 8, 16): png(f"grey{depth}", 7, 5, depth, 0)
for depth in (8, 16): png(f"rgb{depth}", 6, 4, depth, 2); png(f"rgba{depth}", 6, 4, depth, 6); png(f"greyalpha{depth}", 5, 3, depth, 4)
for depth in (1, 2, 4, 8): png(f"palette{depth}", 9, 3, depth, 3, palette + chunk(b"tRNS", b"\x00\x80"))
png("interlaced", 9, 9, 8, 6, interlace=1)
png("gamma", 4, 4, 8, 2, chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"tRNS", b"\x00\x01\x00\x02\x00\x03"))
(out / "gen-art.txt").write_text("  /\\\n /  \\\n/____\\\n")
PY

# Generated sounds: a short tone in every format libsndfile is asked to decode (the tools of make deps).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sox -n -r 8000 -c 1 -b 16 "$tmp/tone.wav" synth 0.05 sine 660 vol 0.5
sox -n -r 22050 -c 2 -b 8 "$out/sound/gen-stereo8.wav" synth 0.02 sine 440
sox "$tmp/tone.wav" "$out/sound/gen-tone.wav"
sox "$tmp/tone.wav" "$out/sound/gen-tone.flac"
sox "$tmp/tone.wav" "$out/sound/gen-tone.ogg"
sox "$tmp/tone.wav" -e floating-point "$out/sound/gen-float.wav"
sox "$tmp/tone.wav" -e u-law "$out/sound/gen-ulaw.wav"
sox "$tmp/tone.wav" "$out/sound/gen-tone.aiff"
opusenc --quiet "$tmp/tone.wav" "$out/sound/gen-tone.opus"
lame --quiet -b 32 "$tmp/tone.wav" "$out/sound/gen-tone.mp3"

for target in "$out"/*/; do printf '%-9s %4d seeds\n' "$(basename "$target")" "$(ls "$target" | wc -l)"; done
