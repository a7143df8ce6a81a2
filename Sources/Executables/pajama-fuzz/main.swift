import PajamaFuzz
import PajamaFuzzSession

// The one fuzz executable: `pajama-fuzz TARGET [libFuzzer arguments or files to replay]` (scripts/fuzz.sh,
// docs/security.md "Fuzzing"). Each target is one `fuzzOne` over a real decoder; built with -DFUZZING it runs
// under libFuzzer, otherwise it replays the files named.
FuzzDriver.main(targets: [
    "story": { data, size in StoryFuzz.fuzzOne(FuzzDriver.bytes(data, size)); return 0 },
    "theme": { data, size in ThemeFuzz.fuzzOne(FuzzDriver.bytes(data, size)); return 0 },
    "settings": { data, size in SettingsFuzz.fuzzOne(FuzzDriver.bytes(data, size)); return 0 },
    "progress": { data, size in ProgressFuzz.fuzzOne(FuzzDriver.bytes(data, size)); return 0 },
    "picture": { data, size in PictureFuzz.fuzzOne(FuzzDriver.bytes(data, size)); return 0 },
    "jpeg": { data, size in PictureFormatFuzz.fuzzOne(FuzzDriver.bytes(data, size), as: .jpeg); return 0 },
    "webp": { data, size in PictureFormatFuzz.fuzzOne(FuzzDriver.bytes(data, size), as: .webp); return 0 },
    "gif": { data, size in PictureFormatFuzz.fuzzOne(FuzzDriver.bytes(data, size), as: .gif); return 0 },
    "sound": { data, size in SoundFuzz.fuzzOne(FuzzDriver.bytes(data, size)); return 0 },
    "session": { data, size in SessionFuzz.fuzzOne(FuzzDriver.bytes(data, size)); return 0 },
])
