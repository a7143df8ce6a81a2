import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: PictureFormatFuzz, WebP.
FuzzDriver.main { data, size in
    PictureFormatFuzz.fuzzOne(FuzzDriver.bytes(data, size), as: .webp)
    return 0
}
