import PajamaFuzz

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: SettingsFuzz.
FuzzDriver.main { data, size in
    SettingsFuzz.fuzzOne(FuzzDriver.bytes(data, size))
    return 0
}
