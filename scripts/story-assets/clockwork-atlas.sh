#!/usr/bin/env bash
# Assets of Stories/clockwork-atlas. Sourced by scripts/make-story-assets.sh (helpers from sounds.sh).
S=Stories/clockwork-atlas/assets/sounds
I=Stories/clockwork-atlas/assets/images
T="$TMP/ca"; mkdir -p "$T" "$S" "$I"

# --- sounds ---------------------------------------------------------------------------------------
# Tick-tock: a bright click, a pause, a darker click (tap sound, mono 22050 wav).
sox -R -n "$T/tick1.wav" synth 0.012 whitenoise gain -6 highpass 3500 pad 0 0.2
sox -R -n "$T/tock1.wav" synth 0.018 whitenoise gain -6 bandpass 1200 400h pad 0 0.05
sox "$T/tick1.wav" "$T/tock1.wav" "$T/ticktock.wav"
finish "$T/ticktock.wav" "$S/tick.wav" 22050 1

# Winding key: a ratchet of twelve clicks (choice sound, mono 44100 flac).
sox -R -n "$T/ratchet1.wav" synth 0.01 whitenoise gain -6 bandpass 2600 900h pad 0 0.07
sox "$T/ratchet1.wav" "$T/ratchet.wav" repeat 11
finish "$T/ratchet.wav" "$S/wind-up.flac" 44100 1

# A page turning: a quick sweep of filtered noise (choice sound, mono 22050 wav).
sox -R -n "$T/page.wav" synth 0.35 pinknoise gain -6 highpass 900 fade q 0.05 0.35 0.25 tremolo 14 40
finish "$T/page.wav" "$S/page-turn.wav" 22050 1

# A big cog turning over: a low knock with a metallic ring (page_enter / choice sound, mono 48000 wav).
sox -R -n "$T/knock.wav" synth 0.5 sine 70 sine 210 brownnoise remix 1v0.7,2v0.2,3v0.4 gain -6 lowpass 900 fade l 0.002 0.5 0.45
finish "$T/knock.wav" "$S/gear.wav" 48000 1

# Clock chime: four bell notes climbing, then settling (page_enter, stereo 44100 ogg).
bell "$T/b1.wav" 523.25 1.6; bell "$T/b2.wav" 659.25 1.6; bell "$T/b3.wav" 587.33 1.6; bell "$T/b4.wav" 392 2.2
sox "$T/b1.wav" "$T/b1p.wav" pad 0 2.2
sox "$T/b2.wav" "$T/b2p.wav" pad 0.5 1.7
sox "$T/b3.wav" "$T/b3p.wav" pad 1.0 1.2
sox "$T/b4.wav" "$T/b4p.wav" pad 1.5 0
sox -m "$T/b1p.wav" "$T/b2p.wav" "$T/b3p.wav" "$T/b4p.wav" -c 2 "$T/chime.wav" gain -6 reverb 50 50 80
finish "$T/chime.wav" "$S/chime.ogg" 44100 2

# The Atlas speaks: "Hello, traveller", slowed and deepened, with a tick behind it (mono 22050 ogg).
speak "$T/voice0.wav" en-gb 115 30 "Hello, traveller."
sox "$T/voice0.wav" "$T/voice.wav" pitch -250 chorus 0.6 0.9 50 0.4 0.25 2 -t gain -6 reverb 30 pad 0.05 0.3
finish "$T/voice.wav" "$S/atlas-voice.ogg" 22050 1

# Paper waves: noise that swells like surf (page_enter, stereo 48000 ogg).
sox -R -n -c 2 "$T/waves.wav" synth 3.2 pinknoise pinknoise gain -6 lowpass 1800 highpass 120 tremolo 0.6 70 fade h 0.6 3.2 1
finish "$T/waves.wav" "$S/waves.ogg" 48000 2

# Birds in the orchard: little upward chirps scattered left and right (page_enter, stereo 48000 flac).
for i in 1 2 3 4 5; do
  f=$((2200 + i * 230))
  sox -R -n "$T/chirp$i.wav" synth 0.09 sine "$f-$((f + 900))" fade q 0.01 0.09 0.04 pad 0 0.05
  sox "$T/chirp$i.wav" "$T/chirp$i.wav" "$T/chirp2$i.wav"
done
sox "$T/chirp21.wav" "$T/c1.wav" pad 0.00 1.6 remix 1v1 1v0.3
sox "$T/chirp23.wav" "$T/c2.wav" pad 0.45 1.15 remix 1v0.3 1v1
sox "$T/chirp25.wav" "$T/c3.wav" pad 0.80 0.8 remix 1v0.8 1v0.6
sox "$T/chirp22.wav" "$T/c4.wav" pad 1.30 0.3 remix 1v1 1v0.2
sox -m "$T/c1.wav" "$T/c2.wav" "$T/c3.wav" "$T/c4.wav" "$T/birds.wav" gain -6 reverb 25
finish "$T/birds.wav" "$S/birds.flac" 48000 2

# --- images ---------------------------------------------------------------------------------------
# Title: the brass globe on its three legs, blue enamel seas and green-gold continents.
convert -size 96x48 gradient:'#2a1a10'-'#4a2e18' \
  -fill '#b8862c' -draw 'rectangle 46,38 50,44' -draw 'polygon 36,46 60,46 56,43 40,43' \
  -fill none -stroke '#e0b050' -strokewidth 2 -draw 'arc 26,2 70,42 100,260' \
  -stroke none -fill '#1f5aa8' -draw 'circle 48,22 48,4' \
  -fill '#7aa83a' -draw 'polygon 38,10 46,8 50,14 44,20 40,18' -draw 'polygon 50,22 60,20 62,28 54,34 50,30' -draw 'polygon 34,26 40,24 42,30 36,32' \
  -fill none -stroke '#f0d080' -strokewidth 1 -draw 'ellipse 48,22 18,4 0,360' -draw 'line 48,4 48,40' \
  -stroke none -fill '#ffe9a0' -draw 'circle 48,22 48,24' \
  -strip "$I/title.png"

# The map: a parchment with two islands, a dotted trail and a red X.
convert -size 96x48 xc:'#e8d5a4' \
  -fill '#c9b27a' -draw 'rectangle 0,0 95,2' -draw 'rectangle 0,45 95,47' \
  -fill '#6aa0c0' -draw 'rectangle 3,3 92,44' \
  -fill '#d9c48a' -draw 'ellipse 22,18 14,9 0,360' -draw 'ellipse 70,30 16,10 0,360' -draw 'ellipse 52,10 6,4 0,360' \
  -fill '#5a8a3a' -draw 'ellipse 20,17 7,4 0,360' -draw 'ellipse 73,28 7,5 0,360' \
  -fill '#7a4a20' -draw 'point 30,22' -draw 'point 34,24' -draw 'point 38,26' -draw 'point 42,27' -draw 'point 46,28' -draw 'point 50,29' -draw 'point 54,30' -draw 'point 58,30' \
  -stroke '#c02020' -strokewidth 2 -draw 'line 66,27 72,33' -draw 'line 72,27 66,33' \
  -stroke none -strip "$I/map.png"

# The Sea of Folded Paper: zig-zag white waves on blue, a bold island on the horizon.
convert -size 96x48 gradient:'#9ad0f0'-'#f0f4ff' \
  -fill '#3a7a3a' -draw 'polygon 60,20 70,12 82,20' -fill '#f4f0e0' -draw 'rectangle 73,10 74,20' \
  -fill '#2a5a9a' -draw 'rectangle 0,20 95,47' \
  -fill '#f4f4f4' -draw 'polygon 0,28 6,24 12,28 18,24 24,28 30,24 36,28 42,24 48,28 54,24 60,28 66,24 72,28 78,24 84,28 90,24 96,28 96,30 0,30' \
  -fill '#dfe8f4' -draw 'polygon 0,38 8,33 16,38 24,33 32,38 40,33 48,38 56,33 64,38 72,33 80,38 88,33 96,38 96,40 0,40' \
  -fill '#f4f0e0' -draw 'polygon 24,30 44,30 40,34 28,34' -draw 'polygon 34,20 34,30 42,30' \
  -strip "$I/sea.png"

# The Sky Orchard: trees hanging from clouds, red apples glowing.
convert -size 96x48 gradient:'#4aa0e0'-'#c0e4ff' \
  -fill '#ffffff' -draw 'ellipse 20,4 22,7 0,360' -draw 'ellipse 70,3 30,8 0,360' \
  -fill '#6a4a2a' -draw 'rectangle 19,8 21,20' -draw 'rectangle 67,8 69,24' \
  -fill '#3a9a4a' -draw 'circle 20,24 20,32' -draw 'circle 68,28 68,37' \
  -fill '#e03a3a' -draw 'circle 16,28 16,30' -draw 'circle 24,26 24,28' -draw 'circle 64,32 64,34' -draw 'circle 72,30 72,32' -draw 'circle 69,36 69,38' \
  -fill '#1a1a1a' -draw 'polygon 42,38 46,36 50,38 46,39' -draw 'polygon 44,37 46,33 47,37' \
  -strip "$I/sky.png"

# The Underclock: big cogs in warm darkness.
convert -size 96x48 xc:'#1a1208' \
  -fill '#8a6a2a' -draw 'circle 28,26 28,8' -fill '#1a1208' -draw 'circle 28,26 28,18' -fill '#8a6a2a' -draw 'circle 28,26 28,23' \
  -fill '#8a6a2a' -draw 'rectangle 26,5 30,10' -draw 'rectangle 26,42 30,47' -draw 'rectangle 7,24 12,28' -draw 'rectangle 44,24 49,28' \
  -fill '#c89a3a' -draw 'circle 66,18 66,6' -fill '#1a1208' -draw 'circle 66,18 66,12' \
  -fill '#c89a3a' -draw 'rectangle 64,3 68,7' -draw 'rectangle 64,29 68,33' -draw 'rectangle 51,16 55,20' -draw 'rectangle 77,16 81,20' \
  -fill '#e0c070' -draw 'rectangle 82,30 83,47' -draw 'circle 83,44 83,47' \
  -strip "$I/under.png"

# The Hall of Hours: a clock face with its hands near midnight, a crow on the minute hand.
convert -size 96x48 xc:'#201830' \
  -fill '#f0e6c8' -draw 'circle 48,24 48,2' \
  -fill '#302040' -draw 'rectangle 47,4 49,8' -draw 'rectangle 47,40 49,44' -draw 'rectangle 26,23 30,25' -draw 'rectangle 66,23 70,25' \
  -stroke '#302040' -strokewidth 2 -draw 'line 48,24 45,8' -draw 'line 48,24 52,12' -stroke none \
  -fill '#111111' -draw 'polygon 43,8 47,7 48,9 44,10' -draw 'polygon 45,8 46,5 47,8' \
  -fill '#c02020' -draw 'circle 48,24 48,26' \
  -strip "$I/hall.png"
