import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: PictureFuzz.
FuzzDriver.main { data, size in
    PictureFuzz.fuzzOne(FuzzDriver.bytes(data, size))
    return 0
}
