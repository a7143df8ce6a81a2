import PajamaFuzz
import PajamaFuzzSession

// libFuzzer target (built with -DFUZZING, see scripts/fuzz.sh) or replay tool: SessionFuzz.
FuzzDriver.main { data, size in
    SessionFuzz.fuzzOne(FuzzDriver.bytes(data, size))
    return 0
}
