#!/bin/sh
# Tiny real audio and video files for ImageVerifierTests' media table: made by ffmpeg (apt-get install
# ffmpeg; only to regenerate them — the tests read the committed files) and cut to their first 1 KiB,
# the head the verifier keeps to name a refused file. Deterministic enough: the heads hold no dates.
set -eu
cd "$(dirname "$0")"
tone="-f lavfi -i sine=frequency=440:duration=0.2:sample_rate=8000"
video="-f lavfi -i color=c=red:size=16x16:duration=0.08:rate=25"
ff() { ffmpeg -hide_banner -loglevel error -y -fflags +bitexact -flags:a +bitexact -flags:v +bitexact "$@"; }
ff $tone -c:a libmp3lame -b:a 32k -id3v2_version 3 -write_xing 0 tone-id3.mp3
ff $tone -c:a libmp3lame -b:a 32k -id3v2_version 0 -write_xing 0 tone-frames.mp3
ff $tone -c:a aac -b:a 16k -f adts tone.aac
ff $tone -c:a aac -b:a 16k tone.m4a
ff $tone -c:a pcm_s16le tone.wav
ff $tone -c:a pcm_s16be tone.aiff
ff $video -c:v mpeg4 -pix_fmt yuv420p red.mp4
ff $video -c:v mpeg4 -pix_fmt yuv420p -f mov red.mov
ff $video -c:v mpeg4 -pix_fmt yuv420p red.avi
ff $video -c:v mpeg1video -f mpeg red.mpg
ff $video -c:v mpeg2video -f mpegts red.ts
for file in *.mp3 *.aac *.m4a *.wav *.aiff *.mp4 *.mov *.avi *.mpg *.ts; do
    head -c 1024 "$file" > "$file.cut" && mv "$file.cut" "$file"
done
