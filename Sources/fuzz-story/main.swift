import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: StoryFuzz.
FuzzDriver.main { data, size in
    StoryFuzz.fuzzOne(FuzzDriver.bytes(data, size))
    return 0
}
