@testable import PajamaTwine

/// A runtime over Twee source (the first passage is the start unless one is called Start).
func harlowe(_ twee: String, seed: Int = 1) throws -> HarloweRuntime {
    HarloweRuntime(story: try Twee.parse(twee), seed: seed)
}

/// The text of the start passage `source`, its lines joined by "\n".
func text(of source: String, seed: Int = 1) throws -> String {
    let runtime = try harlowe(":: Start\n" + source + "\n\n:: Other\nOther passage.\n\n:: Second\nSecond passage.", seed: seed)
    return runtime.start().text
}

extension HarloweMoment {
    var text: String { lines.map(\.text).joined(separator: "\n") }
    var labels: [String] { links.map(\.label) }
}
