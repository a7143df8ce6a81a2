import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: SoundFuzz.
FuzzDriver.main { data, size in
    SoundFuzz.fuzzOne(FuzzDriver.bytes(data, size))
    return 0
}
