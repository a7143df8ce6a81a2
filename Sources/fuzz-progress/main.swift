import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: ProgressFuzz.
FuzzDriver.main { data, size in
    ProgressFuzz.fuzzOne(FuzzDriver.bytes(data, size))
    return 0
}
