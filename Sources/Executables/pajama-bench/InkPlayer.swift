import PajamaInk

/// PajamaInk driven the way the bench and scripts/ink-bench-bink.py drive their runtimes, with a digest
/// of everything the story said.
final class InkPlayer {
    let story: Story
    private(set) var errors: [String] = []
    private var fnv = FNV1a()
    var digest: UInt64 { fnv.value }

    init(json: String) throws {
        story = try Story(json: json, seed: 7)
        story.allowExternalFunctionFallbacks = true
        story.onError = { [unowned self] message, kind in
            if kind == .error { self.errors.append(message) }
        }
    }

    /// Continues until the story offers choices or ends; returns the number of lines.
    @discardableResult
    func continueToChoice() -> Int {
        var lines = 0
        while story.canContinue {
            guard let line = try? story.continueStory() else { break }
            fnv.add(line)
            story.currentTags.forEach { fnv.add($0) }
            lines += 1
        }
        story.currentChoices.forEach { fnv.add($0.text) }
        return lines
    }

    /// The state at the start, the seed kept.
    func reset() throws {
        try story.resetState(seed: 7)
    }

    func jump(to path: String) throws {
        try story.choosePathString(path)
        continueToChoice()
    }

    /// Whether the story runs from `path` to a choice or its end, saying something and without an error.
    func runsCleanly(from path: String) -> Bool {
        errors = []
        guard (try? reset()) != nil, (try? story.choosePathString(path)) != nil else { return false }
        let lines = continueToChoice()
        return lines > 0 && errors.isEmpty && !story.hasError
    }
}

/// The choice picker of pajama-ink-play and the Python scripts: a 31-bit LCG.
struct ChoicePicker {
    var state: UInt64
    mutating func pick(_ count: Int) -> Int {
        state = (state &* 1_103_515_245 &+ 12345) & 0x7FFF_FFFF
        return Int(state % UInt64(count))
    }
}

/// FNV-1a, 64 bits, over each text's UTF-8 and a 0 byte (scripts/ink-bench-bink.py computes the same).
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325
    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
        value = value &* 0x100_0000_01B3
    }
}
