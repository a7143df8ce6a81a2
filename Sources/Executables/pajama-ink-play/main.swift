// pajama-ink-play: plays a compiled ink story with PajamaInk and prints a transcript, one JSON object a line,
// for the differential tests against the reference runtime (scripts/ink-bink.sh, docs/ink.md). Not for readers.
//
//   pajama-ink-play STORY.ink.json [--story-seed N] [--choice-seed N] [--max-choices N]
//                   [--load-state FILE --skip-picks N] [--save-after N FILE]
//
// Choices are picked by a small LCG seeded with --choice-seed that the Python side implements identically.
import PajamaInk
import PajamaJSON

#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var storyPath = ""
    var storySeed = 0
    var choiceSeed = 1
    var maxChoices = 40
    var loadState: String?
    var skipPicks = 0
    var saveAfter: Int?
    var savePath: String?
}

func fail(_ message: String) -> Never {
    let bytes = Array("pajama-ink-play: \(message)\n".utf8)
    _ = bytes.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func readFile(_ path: String) -> String {
    guard let file = fopen(path, "rb") else { fail("cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func writeFile(_ path: String, _ text: String) {
    guard let file = fopen(path, "wb") else { fail("cannot write \(path)") }
    _ = Array(text.utf8).withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = Array(CommandLine.arguments.dropFirst())
    func next(_ name: String) -> String {
        guard !arguments.isEmpty else { fail("\(name) needs a value") }
        return arguments.removeFirst()
    }
    while !arguments.isEmpty {
        let a = arguments.removeFirst()
        switch a {
        case "--story-seed": options.storySeed = Int(next(a)) ?? 0
        case "--choice-seed": options.choiceSeed = Int(next(a)) ?? 1
        case "--max-choices": options.maxChoices = Int(next(a)) ?? 40
        case "--load-state": options.loadState = next(a)
        case "--skip-picks": options.skipPicks = Int(next(a)) ?? 0
        case "--save-after":
            options.saveAfter = Int(next(a)) ?? 0
            options.savePath = next(a)
        default:
            if a.hasPrefix("--") { fail("unknown option \(a)") }
            options.storyPath = a
        }
    }
    if options.storyPath.isEmpty { fail("usage: pajama-ink-play STORY.ink.json [options]") }
    return options
}

/// The picker the Python side mirrors: a 31-bit LCG.
struct Picker {
    var state: UInt64
    mutating func pick(_ count: Int) -> Int {
        state = (state &* 1_103_515_245 &+ 12345) & 0x7FFF_FFFF
        return Int(state % UInt64(count))
    }
}

func quote(_ s: String) -> String { JSON.string(s).serialized }

func list(_ items: [String]) -> String { "[" + items.map(quote).joined(separator: ",") + "]" }

let options = parseOptions()
let story: Story
do {
    story = try Story(json: readFile(options.storyPath), seed: options.storySeed)
} catch {
    print("{\"load_error\":\(quote(error.message))}")
    exit(0)
}
story.allowExternalFunctionFallbacks = true
var errors: [String] = []
story.onError = { message, kind in
    if kind == .error { errors.append(message) }
}
var picker = Picker(state: UInt64(options.choiceSeed))
if let statePath = options.loadState {
    do {
        try story.loadStateJSON(readFile(statePath))
    } catch {
        print("{\"state_error\":\(quote(error.message))}")
        exit(0)
    }
    for _ in 0..<options.skipPicks { _ = picker.pick(1000) }
}
var choicesMade = options.skipPicks
var lines = 0
outer: while true {
    while story.canContinue {
        let text: String
        do {
            text = try story.continueStory()
        } catch {
            errors.append(error.message)
            break
        }
        print("{\"text\":\(quote(text)),\"tags\":\(list(story.currentTags))}")
        lines += 1
        if lines > 2000 { print("{\"stopped\":\"too many lines\"}"); break outer }
    }
    if !errors.isEmpty {
        print("{\"errors\":\(errors.count)}")
        break
    }
    let choices = story.currentChoices
    if choices.isEmpty { break }
    if choicesMade >= options.maxChoices { break }
    if let saveAfter = options.saveAfter, let path = options.savePath, choicesMade == saveAfter {
        writeFile(path, story.saveStateJSON())
        print("{\"saved\":\(choicesMade)}")
        break
    }
    print("{\"choices\":\(list(choices.map(\.text))),\"choice_tags\":[\(choices.map { list($0.tags) }.joined(separator: ","))]}")
    let index = picker.pick(1000) % choices.count
    print("{\"pick\":\(index)}")
    do {
        try story.chooseChoiceIndex(index)
    } catch {
        print("{\"choose_error\":\(quote(error.message))}")
        break
    }
    choicesMade += 1
}
print("{\"end\":true}")
