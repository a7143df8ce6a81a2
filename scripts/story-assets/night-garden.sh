#!/usr/bin/env bash
# Assets of Stories/night-garden. Sourced by scripts/make-story-assets.sh (helpers from sounds.sh).
# Everything musical is in C major pentatonic (C D E G A), so the page_enter pad, the tap notes and the
# choice chimes sound well together when they overlap.
S=Stories/night-garden/assets/sounds
I=Stories/night-garden/assets/images
T="$TMP/ng"; mkdir -p "$T" "$S" "$I"

# --- sounds ---------------------------------------------------------------------------------------
# Night pad: a soft C major 9 chord swelling in and out, with faint crickets (page_enter, stereo 48000 ogg).
sox -R -n -c 2 "$T/padL.wav" synth 4 sine C3 sine G3 remix 1,2 0 fade h 1.2 4 1.6
sox -R -n -c 2 "$T/padR.wav" synth 4 sine E3 sine D4 remix 0 1,2 fade h 1.5 4 1.6
sox -R -n -c 2 "$T/padM.wav" synth 4 sine B3 remix 1v0.5 1v0.5 fade h 1.8 4 1.6 vol 0.6
sox -R -n "$T/cricket1.wav" synth 0.5 sine 4400 tremolo 32 100 fade h 0.05 0.5 0.1 pad 0 0.5
sox "$T/cricket1.wav" -c 2 "$T/crickets.wav" repeat 3 remix 1v0.04 1v0.02
sox -m "$T/padL.wav" "$T/padR.wav" "$T/padM.wav" "$T/crickets.wav" "$T/pad.wav" gain -6 reverb 40 50 100
finish "$T/pad.wav" "$S/night-pad.ogg" 48000 2

# Tap notes: plucked strings, one per note of the scale, each with a little room (mixed formats/rates).
pluck "$T/c.wav" C5 1.1; sox "$T/c.wav" "$T/c2.wav" gain -6 reverb 30; finish "$T/c2.wav" "$S/note-c.wav" 22050 1
pluck "$T/d.wav" D5 1.1; sox "$T/d.wav" "$T/d2.wav" gain -6 reverb 30; finish "$T/d2.wav" "$S/note-d.flac" 48000 1
pluck "$T/e.wav" E5 1.1; sox "$T/e.wav" "$T/e2.wav" gain -6 reverb 30; finish "$T/e2.wav" "$S/note-e.wav" 22050 1
pluck "$T/g.wav" G5 1.1; sox "$T/g.wav" "$T/g2.wav" gain -6 reverb 30; finish "$T/g2.wav" "$S/note-g.ogg" 44100 1
pluck "$T/a.wav" A5 1.1; sox "$T/a.wav" "$T/a2.wav" gain -6 reverb 30; finish "$T/a2.wav" "$S/note-a.flac" 44100 1

# Wind chimes: small bells falling in from left and right (choice sounds, stereo).
chimes() { # chimes <out.wav> <freq...>: four bells, 0.18 s apart, alternating sides
  local out="$1"; shift; local i=0 parts=()
  for f in "$@"; do
    bell "$T/ch$i.wav" "$f" 1.6
    if (( i % 2 )); then sox "$T/ch$i.wav" "$T/chp$i.wav" pad "$(calc "$i*0.18")" 0 remix 1v0.35 1v1
    else sox "$T/ch$i.wav" "$T/chp$i.wav" pad "$(calc "$i*0.18")" 0 remix 1v1 1v0.35; fi
    parts+=("$T/chp$i.wav"); i=$((i + 1))
  done
  sox -m "${parts[@]}" "$out" gain -6 reverb 35
}
chimes "$T/chimeA.wav" 1046.5 1318.5 1568 2093; finish "$T/chimeA.wav" "$S/chime-a.ogg" 44100 2
chimes "$T/chimeB.wav" 1760 1568 1174.7 1318.5; finish "$T/chimeB.wav" "$S/chime-b.flac" 22050 2

# Frog: two friendly ribbits (page_enter and choice sound, mono 22050 wav).
sox -R -n "$T/rib.wav" synth 0.16 square 190 square 380 remix 1v0.7,2v0.3 gain -6 lowpass 1200 tremolo 38 90 fade q 0.01 0.16 0.05 pad 0 0.1
sox "$T/rib.wav" "$T/rib.wav" "$T/frog.wav" pitch 200
finish "$T/frog.wav" "$S/frog.wav" 22050 1

# Owl: hoo ... hoo-hoo, a soft sine with a breathy edge (page_enter, mono 44100 wav).
sox -R -n "$T/hoo.wav" synth 0.45 sine 390-350 pinknoise remix 1v0.9,2v0.03 gain -6 lowpass 1500 fade h 0.08 0.45 0.2
sox -R -n "$T/hoo2.wav" synth 0.25 sine 380-350 pinknoise remix 1v0.9,2v0.03 gain -6 lowpass 1500 fade h 0.05 0.25 0.12
sox "$T/hoo.wav" "$T/hoo2.wav" "$T/hoo2.wav" "$T/owl0.wav"
sox "$T/owl0.wav" "$T/owl.wav" pad 0 0.3 gain -6 reverb 50
finish "$T/owl.wav" "$S/owl.wav" 22050 1

# Summer rain: soft filtered noise with a few bright drops (page_enter and choice sound, stereo 44100 ogg).
sox -R -n -c 2 "$T/rainbed.wav" synth 3 pinknoise pinknoise highpass 500 gain -6 lowpass 5000 fade h 0.5 3 1 vol 0.5
sox -R -n "$T/drop.wav" synth 0.05 sine 2600-1800 fade q 0.002 0.05 0.04
sox "$T/drop.wav" "$T/d1.wav" pad 0.3 2.65 remix 1v0.4 1v0.1
sox "$T/drop.wav" "$T/d2.wav" pad 0.9 2.05 remix 1v0.1 1v0.4
sox "$T/drop.wav" "$T/d3.wav" pad 1.6 1.35 remix 1v0.3 1v0.3
sox -m "$T/rainbed.wav" "$T/d1.wav" "$T/d2.wav" "$T/d3.wav" "$T/rain.wav"
finish "$T/rain.wav" "$S/rain.ogg" 44100 2

# "Goodnight", whispered, in a large soft room (page_enter of both endings, mono 22050 ogg).
speak "$T/gn0.wav" en+whisper 110 50 "Goodnight."
sox "$T/gn0.wav" "$T/gn.wav" pad 0.6 0.6 gain -6 reverb 60 50 100
finish "$T/gn.wav" "$S/goodnight.ogg" 22050 1

# Music box: a little pentatonic tune of short high plucks (page_enter of the moonflower, stereo 44100 ogg).
mb_notes=(E6 G6 A6 G6 E6 D6 C6)
parts=(); i=0
for n in "${mb_notes[@]}"; do
  sox -R -n "$T/mb$i.wav" synth 0.9 pluck "$n" fade l 0 0.9 0.85 pad "$(calc "$i*0.32")" 0
  parts+=("$T/mb$i.wav"); i=$((i + 1))
done
sox -m "${parts[@]}" -c 2 "$T/mbox.wav" gain -6 reverb 45 50 90
finish "$T/mbox.wav" "$S/music-box.ogg" 44100 2

# --- images ---------------------------------------------------------------------------------------
# Title: a big pale moon over a dark garden, tall flowers glowing.
convert -size 96x48 gradient:'#0a0f2a'-'#1e2a5a' \
  -fill '#f4f0d0' -draw 'circle 70,14 70,24' -fill '#e0dcb8' -draw 'circle 66,11 66,13' -draw 'circle 74,18 74,19' \
  -fill '#dfe6ff' -draw 'point 10,6' -draw 'point 22,14' -draw 'point 36,4' -draw 'point 48,12' -draw 'point 88,30' \
  -fill '#0c2a1c' -draw 'rectangle 0,38 95,47' -draw 'ellipse 20,40 24,8 180,360' -draw 'ellipse 80,41 22,6 180,360' \
  -fill '#2a6a3a' -draw 'rectangle 14,26 15,40' -draw 'rectangle 30,22 31,40' -draw 'rectangle 46,28 47,40' \
  -fill '#e070c0' -draw 'circle 14,25 14,28' -fill '#f0e070' -draw 'circle 31,21 31,24' -fill '#80b0ff' -draw 'circle 47,27 47,30' \
  -strip "$I/title.png"

# The garden gate: two paths, blue pond to the left, purple lavender to the right.
convert -size 96x48 xc:'#10203a' \
  -fill '#1a3a2a' -draw 'rectangle 0,20 95,47' \
  -fill '#c8c0a0' -draw 'polygon 44,20 52,20 70,47 26,47' \
  -fill '#10203a' -draw 'polygon 48,22 48,22 56,47 40,47' \
  -fill '#3a70c0' -draw 'ellipse 14,34 12,6 0,360' -fill '#f4f0d0' -draw 'ellipse 14,34 3,1 0,360' \
  -fill '#8a5ac8' -draw 'rectangle 74,28 76,40' -draw 'rectangle 80,26 82,40' -draw 'rectangle 86,29 88,40' \
  -fill '#f0e080' -draw 'point 70,22' -draw 'point 84,18' -draw 'point 92,24' \
  -fill '#f4f0d0' -draw 'circle 48,8 48,12' \
  -strip "$I/garden.png"

# The pond: the moon in the water, lily pads, a green frog.
convert -size 96x48 xc:'#0e1a30' \
  -fill '#1a4a7a' -draw 'ellipse 48,28 44,16 0,360' \
  -fill '#f4f0d0' -draw 'ellipse 48,26 8,5 0,360' \
  -fill '#3a9a4a' -draw 'ellipse 22,30 7,3 0,360' -draw 'ellipse 74,22 7,3 0,360' -draw 'ellipse 70,36 6,3 0,360' \
  -fill '#5ac05a' -draw 'ellipse 22,27 4,3 0,360' -fill '#ffffff' -draw 'point 20,25' -draw 'point 24,25' \
  -fill '#f08ac0' -draw 'circle 74,21 74,22' \
  -strip "$I/pond.png"

# The lavender path (an optional picture): purple rows and drifting fireflies.
convert -size 96x48 gradient:'#141432'-'#2a1a4a' \
  -fill '#6a3aa8' -draw 'polygon 0,47 0,30 40,24 30,47' -draw 'polygon 96,47 96,30 56,24 66,47' \
  -fill '#9a6ad8' -draw 'point 6,32' -draw 'point 14,30' -draw 'point 22,28' -draw 'point 88,32' -draw 'point 80,30' -draw 'point 72,28' \
  -fill '#b8a888' -draw 'polygon 40,24 56,24 66,47 30,47' \
  -fill '#ffe860' -draw 'circle 30,14 30,15' -draw 'circle 52,10 52,11' -draw 'circle 66,18 66,19' -draw 'circle 44,20 44,21' -draw 'circle 80,8 80,9' \
  -strip "$I/lavender.png"

# The moonflower: a big white star-shaped bloom with a glowing heart.
convert -size 96x48 radial-gradient:'#2a3a6a'-'#080c1c' \
  -fill '#2a6a3a' -draw 'rectangle 47,30 49,47' -draw 'ellipse 40,40 7,2 0,360' -draw 'ellipse 56,38 7,2 0,360' \
  -fill '#f4f4ff' -draw 'polygon 48,4 53,16 66,17 56,24 60,36 48,28 36,36 40,24 30,17 43,16' \
  -fill '#fff2a0' -draw 'circle 48,20 48,25' \
  -fill '#ffffff' -draw 'circle 48,20 48,22' \
  +dither -colors 24 -strip "$I/moonflower.png"
