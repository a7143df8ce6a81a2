import Foundation
import PajamaCoReading

/// `pajama-bench --crowd URL --crowd-size N` (hidden): the join storm's followers, in a process of their
/// own as they would be on other machines (in the host's process their client work, 2,000 handshakes and
/// readers, ran on the host's own event loops and task pool, and the owner's turn waited behind it). N
/// followers (token in `PAJAMA_TOKEN`) connect to URL at once. Prints "started T" (monotonic seconds,
/// comparable across processes), then "settled WELCOMED FULL FAILED LAST" whenever the counts changed
/// (at most every 20 ms; LAST: monotonic seconds of the latest welcome), and runs until ended.
enum CrowdChild {
    static func run(url: URL, followers: Int) async -> Never {
        let token = ProcessInfo.processInfo.environment["PAJAMA_TOKEN"] ?? ""
        let tally = CoReadingCrowdScenario.Tally()
        say("started \(now())")
        var listeners: [Task<Void, Never>] = []
        for index in 0..<followers {
            let events = FollowerConnection.connect(to: url, token: token, name: "s\(index)")
            listeners.append(Task { await CoReadingCrowdScenario.count(events, into: tally) })
        }
        var said = ""
        while true {
            let counts = tally.counts.withLock { $0 }
            let line = "settled \(counts.welcomed) \(counts.full) \(counts.failed) \(counts.lastWelcome)"
            if line != said {
                say(line)
                said = line
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `pajama-bench --follow URL` (hidden): the follower that times the owner's turns, alone in its process
    /// (as on another machine): prints "at N T" for each location received, N its line index (the bench
    /// numbers its moves so), T monotonic seconds.
    static func follow(url: URL) async -> Never {
        let token = ProcessInfo.processInfo.environment["PAJAMA_TOKEN"] ?? ""
        for await event in FollowerConnection.connect(to: url, token: token, name: "reference") {
            switch event {
            case .welcome(let welcome, _): if let location = welcome.location { say("at \(location.lineIndex) \(now())") }
            case .location(let location): say("at \(location.lineIndex) \(now())")
            case .failed(let error): say("failed \(error)")
            default: break
            }
        }
        exit(0)
    }

    /// A line on standard output, written at once (the bench reads the file as it grows).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
