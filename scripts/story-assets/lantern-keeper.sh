#!/usr/bin/env bash
# Assets of Stories/lantern-keeper. Sourced by scripts/make-story-assets.sh (helpers from sounds.sh).
S=Stories/lantern-keeper/assets/sounds
I=Stories/lantern-keeper/assets/images
T="$TMP/lk"; mkdir -p "$T" "$S" "$I"

# --- sounds ---------------------------------------------------------------------------------------
# Sea wind: two channels of brown noise, low-passed, slowly swelling (page_enter ambience, stereo ogg).
sox -R -n -c 2 "$T/wind.wav" synth 3.5 brownnoise brownnoise gain -6 lowpass 700 tremolo 0.4 55 fade h 0.8 3.5 1.2
finish "$T/wind.wav" "$S/sea-wind.ogg" 44100 2

# One wave on the rocks: pink noise rising and falling (tap sound, mono 22050 wav).
sox -R -n "$T/wave.wav" synth 0.9 pinknoise gain -6 lowpass 1400 fade q 0.35 0.9 0.5
finish "$T/wave.wav" "$S/wave.wav" 22050 1

# Footsteps on iron stairs: three muffled knocks with a faint ring (choice sound, mono 48000 flac).
sox -R -n "$T/step.wav" synth 0.12 brownnoise sine 190 remix 1v0.8,2v0.15 gain -6 lowpass 900 fade 0.002 0.12 0.1 pad 0 0.22
sox "$T/step.wav" "$T/step.wav" "$T/step.wav" "$T/steps.wav"
finish "$T/steps.wav" "$S/footsteps.flac" 48000 1

# Door latch: a click, then a short creak (choice sound, mono 44100 wav).
sox -R -n "$T/click.wav" synth 0.03 whitenoise gain -6 highpass 1800 pad 0 0.02
sox -R -n "$T/creak.wav" synth 0.45 sawtooth 210-140 gain -6 lowpass 1100 tremolo 28 70 fade 0.05 0.45 0.2
sox "$T/click.wav" "$T/creak.wav" "$T/latch.wav"
finish "$T/latch.wav" "$S/door-latch.wav" 44100 1

# Match strike: a bright scrape, then a soft flame (choice sound, mono ogg).
sox -R -n "$T/scrape.wav" synth 0.15 whitenoise bandpass 3200 1200h fade 0.01 0.15 0.06
sox -R -n "$T/flame.wav" synth 0.9 brownnoise gain -6 lowpass 350 fade q 0.1 0.9 0.6 vol 0.6
sox "$T/scrape.wav" "$T/flame.wav" "$T/match.wav"
finish "$T/match.wav" "$S/match.ogg" 44100 1

# Moth wings: fluttering band of noise (choice sound, mono 22050 wav).
sox -R -n "$T/moth.wav" synth 0.7 pinknoise bandpass 1600 900h tremolo 19 95 fade q 0.1 0.7 0.25
finish "$T/moth.wav" "$S/moth.wav" 22050 1

# Tide bell: a bronze bell with a little room around it (choice sound, stereo 48000 flac).
bell "$T/tidebell1.wav" 392 2.4
sox "$T/tidebell1.wav" -c 2 "$T/tidebell.wav" gain -6 reverb 35 50 60
finish "$T/tidebell.wav" "$S/tide-bell.flac" 48000 2

# Lamp light: a warm rising major chord (page_enter of ending A, stereo ogg).
sox -R -n -c 2 "$T/chordA.wav" synth 3 pluck C4 pluck G4 delay 0 0.12
sox -R -n -c 2 "$T/chordB.wav" synth 3 pluck E4 pluck C5 delay 0.24 0.36
sox -m "$T/chordA.wav" "$T/chordB.wav" "$T/chord.wav" gain -6 reverb 40
finish "$T/chord.wav" "$S/lamp-chord.ogg" 44100 2

# The keeper says "Light!" (tap sound in ending A, mono 22050 ogg).
speak "$T/light0.wav" en-gb+f3 120 55 "Light!"
sox "$T/light0.wav" "$T/light.wav" pad 0.05 0.4 gain -6 reverb 45
finish "$T/light.wav" "$S/light-voice.ogg" 22050 1

# Foghorn of the fishing boat: two slightly detuned low saws (page_enter of ending B, mono flac).
sox -R -n "$T/horn.wav" synth 2.6 sawtooth 110 sawtooth 111.3 remix 1,2 gain -6 lowpass 480 fade h 0.35 2.6 1.1
finish "$T/horn.wav" "$S/foghorn.flac" 44100 1

# --- images ---------------------------------------------------------------------------------------
# Title: a striped lighthouse on its rock under a night sky, beam shining left.
convert -size 96x48 gradient:'#0b1a3a'-'#27457a' \
  -fill '#fff6c8' -draw 'circle 80,9 80,13' \
  -fill '#e8e8ff' -draw 'point 10,5' -draw 'point 25,12' -draw 'point 40,4' -draw 'point 60,8' -draw 'point 52,15' -draw 'point 18,20' \
  -fill '#ffe27a' -draw 'polygon 50,14 0,6 0,22' \
  -fill '#102a4c' -draw 'rectangle 0,38 95,47' \
  -fill '#2c5a8a' -draw 'rectangle 0,40 95,40' -draw 'rectangle 8,43 30,43' -draw 'rectangle 60,44 88,44' \
  -fill '#3b3b3b' -draw 'polygon 36,39 66,39 60,33 42,33' \
  -fill '#f4f4f4' -draw 'polygon 45,33 57,33 55,14 47,14' \
  -fill '#d23c3c' -draw 'polygon 46,28 56,28 55.5,23 46.5,23' -draw 'polygon 47,19 55,19 55,16 47,16' \
  -fill '#ffd84a' -draw 'rectangle 47,10 55,14' \
  -fill '#d23c3c' -draw 'polygon 45,10 57,10 51,5' \
  -strip "$I/title.png"

# The storm: grey-green sky, a jagged bolt, slanting rain, the lighthouse dark.
convert -size 96x48 gradient:'#1c2126'-'#3a4a52' \
  -fill '#fff27a' -draw 'polygon 20,0 27,0 22,12 28,12 16,30 19,16 13,16' \
  -stroke '#8fa8b8' -strokewidth 1 \
  -draw 'line 35,2 31,10' -draw 'line 62,4 58,12' -draw 'line 80,1 76,9' -draw 'line 8,30 4,38' -draw 'line 44,18 40,26' -draw 'line 88,20 84,28' -draw 'line 70,26 66,34' \
  -stroke none -fill '#16232e' -draw 'rectangle 0,38 95,47' \
  -fill '#5f7f8f' -draw 'polygon 0,38 10,34 20,38 30,35 40,38 50,34 60,38 72,35 84,38 96,34 96,38' \
  -fill '#2a2a2a' -draw 'polygon 60,38 84,38 80,33 64,33' \
  -fill '#9a9a9a' -draw 'polygon 67,33 77,33 75.5,16 68.5,16' \
  -fill '#4a4a4a' -draw 'rectangle 68,12 75,16' -fill '#7a2a2a' -draw 'polygon 66,12 77,12 71.5,7' \
  -strip "$I/storm.png"

# The choice: warm stairs climbing up on the left, the cold shore and a hand lantern on the right.
convert -size 96x48 xc:'#5a3214' \
  -fill '#c8782c' -draw 'rectangle 4,40 44,46' -draw 'rectangle 10,33 44,39' -draw 'rectangle 16,26 44,32' -draw 'rectangle 22,19 44,25' -draw 'rectangle 28,12 44,18' -draw 'rectangle 34,5 44,11' \
  -fill '#f0a848' -draw 'rectangle 4,40 44,41' -draw 'rectangle 10,33 44,34' -draw 'rectangle 16,26 44,27' -draw 'rectangle 22,19 44,20' -draw 'rectangle 28,12 44,13' -draw 'rectangle 34,5 44,6' \
  -fill '#0e2440' -draw 'rectangle 48,0 95,47' \
  -fill '#1f4a7a' -draw 'rectangle 48,30 95,47' \
  -fill '#6fa0d0' -draw 'rectangle 52,33 70,33' -draw 'rectangle 74,37 92,37' -draw 'rectangle 56,42 80,42' \
  -fill '#333333' -draw 'rectangle 70,12 80,13' -draw 'rectangle 74,9 76,12' \
  -fill '#ffd84a' -draw 'rectangle 71,14 79,24' -fill '#fff6c8' -draw 'rectangle 73,16 77,22' \
  -fill '#333333' -draw 'rectangle 70,24 80,25' \
  -fill '#ffffff' -draw 'rectangle 46,0 47,47' \
  -strip "$I/choice.png"

# The shore in mist (an optional picture): pale rocks and a grey-green sea fading into fog.
convert -size 96x48 gradient:'#aab8b8'-'#50686e' \
  -fill '#3a4446' -draw 'ellipse 14,44 16,8 180,360' -draw 'ellipse 44,46 12,6 180,360' -draw 'ellipse 82,45 18,9 180,360' \
  -fill '#c8d4d4' -draw 'rectangle 0,30 95,30' -draw 'rectangle 20,35 60,35' \
  -fill '#ffd84a' -draw 'circle 44,38 44,40' \
  -blur 0x0.6 -strip "$I/shore.png"

# The lamp room: the great lens glowing gold.
convert -size 96x48 radial-gradient:'#fff6b0'-'#3a2a10' \
  -fill none -stroke '#ffe9a0' -strokewidth 2 -draw 'circle 48,24 48,6' -draw 'circle 48,24 48,13' \
  -stroke '#7a5a20' -strokewidth 1 -draw 'line 48,0 48,47' -draw 'line 0,24 95,24' \
  +dither -colors 24 -strip "$I/lamp.png"

# Home by lantern light: a little boat with a lantern, the harbour lights beyond.
convert -size 96x48 gradient:'#1a2450'-'#4a3a6a' \
  -fill '#ffcf5a' -draw 'point 8,22' -draw 'point 14,21' -draw 'point 22,22' -draw 'point 78,21' -draw 'point 86,22' \
  -fill '#2a2040' -draw 'rectangle 0,24 95,27' \
  -fill '#183060' -draw 'rectangle 0,28 95,47' \
  -fill '#8a5a2a' -draw 'polygon 28,36 68,36 62,43 34,43' \
  -fill '#e8e0d0' -draw 'polygon 49,10 49,34 66,34' \
  -fill '#6a4a2a' -draw 'rectangle 48,9 49,36' \
  -fill '#ffd84a' -draw 'circle 36,32 36,34' \
  -fill '#ffd84a' -draw 'rectangle 30,45 42,45' -draw 'rectangle 33,47 39,47' \
  -strip "$I/harbor.png"

# The spiral stairs as text art is hand-written and lives in assets/art/stairs.txt (not generated).
