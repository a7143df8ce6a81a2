import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: ThemeFuzz.
FuzzDriver.main { data, size in
    ThemeFuzz.fuzzOne(FuzzDriver.bytes(data, size))
    return 0
}
