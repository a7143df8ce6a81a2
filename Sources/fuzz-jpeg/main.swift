import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: PictureFormatFuzz, JPEG.
FuzzDriver.main { data, size in
    PictureFormatFuzz.fuzzOne(FuzzDriver.bytes(data, size), as: .jpeg)
    return 0
}
