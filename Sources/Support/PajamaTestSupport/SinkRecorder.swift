import Foundation

/// Records a private server's null-sink monitor (mono, 16-bit, 48 kHz) with parec, to prove a sound is
/// audible (and how loud, at which frequency).
///
/// A null sink's monitor renders ahead and rewinds, so a recording says *what* came out, never *when*:
/// tests ask the server (`SinkInputWatcher`) for when and how many plays, and wait on the amount of
/// audio recorded (`record(seconds:)`), never on the wall clock.
public final class SinkRecorder: @unchecked Sendable {
    // Safe: the lets are set in init and only read afterwards.
    public static let rate = 48_000
    private let pid: pid_t
    private let file: String
    private let log: String

    /// Starts parec on the monitor and returns once the server lists its recording stream, running
    /// (not corked), and audio has started to arrive; throws with parec's log otherwise.
    public init(server: PrivatePulseServer, timeout: TimeInterval = 30) throws {
        let tag = UUID().uuidString.prefix(6)
        file = server.home + "/record-\(tag).raw"
        log = server.home + "/record-\(tag).log"
        pid = try ChildProcess.spawn("parec", [
            "-s", server.serverAddress, "-d", server.sinkName + ".monitor", "--raw", "--format=s16le",
            "--rate=\(Self.rate)", "--channels=1", "--latency-msec=10", file,
        ], outputFile: log, errorFile: log, environment: server.clientEnvironment)
        let pid = self.pid, file = self.file
        var ended: String?
        let listed = server.waitUntil(timeout: timeout) {
            ended = ChildProcess.exitDescription(pid)
            if ended != nil { return true }
            let outputs = server.pactl("list", "source-outputs").components(separatedBy: "Source Output #")
            return outputs.contains(where: { $0.contains("application.process.id = \"\(pid)\"") && $0.contains("Corked: no") })
        }
        // An idle null sink renders in blocks of its largest latency (2 s) and takes the stream's 10 ms
        // only at the next block: the first audio arrived 2 s late, in every recording test. Suspending
        // and resuming the sink restarts its clock at the latency now asked for (first audio in ~60 ms).
        if listed, ended == nil {
            _ = server.pactl("suspend-sink", server.sinkName, "1")
            _ = server.pactl("suspend-sink", server.sinkName, "0")
        }
        let attached = listed && server.waitUntil(timeout: timeout) {
            ended = ChildProcess.exitDescription(pid)
            return ended != nil || ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) > 0
        }
        if ended != nil || !attached {
            ChildProcess.terminate(pid)
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ChildProcess.Failure(message: "parec did not start recording \(server.sinkName).monitor: "
                + (ended ?? "no running stream within \(Int(timeout)) s") + "; its log:\n" + output)
        }
    }

    /// The samples recorded so far.
    public func samples() -> [Int16] {
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Waits until `seconds` more of audio than now have been recorded (an amount of audio, not a wall
    /// clock: on a loaded machine it simply arrives later), then returns everything recorded since now.
    public func record(seconds: Double, timeout: TimeInterval = 60) throws -> [Int16] {
        let start = samples().count
        let wanted = start + Int(seconds * Double(Self.rate))
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let all = samples()
            if all.count >= wanted { return Array(all[start...]) }
            if Date() >= deadline {
                throw ChildProcess.Failure(message: "recorded \(all.count - start) of \(wanted - start) samples within \(Int(timeout)) s")
            }
            usleep(20_000)
        }
    }

    /// Stops recording and returns the samples.
    public func stop() -> [Int16] {
        ChildProcess.terminate(pid)
        return samples()
    }

    /// Seconds of sound above `threshold` (RMS over 10 ms windows, full scale = 1).
    public static func loudSeconds(_ samples: [Int16], threshold: Double = 0.01) -> Double {
        Double(windowRMS(samples).filter { $0 > threshold }.count) / 100
    }

    /// The amplitude of the `frequency` component of the recording (full scale = 1): Goertzel over each
    /// 100 ms window, averaged over the windows, so a tone of amplitude A that plays through the whole
    /// recording gives about A. Per window, not over the whole recording: a gap in the middle (a busy
    /// machine's underrun) shifts the tone's phase, and one sum over everything would cancel itself.
    public static func toneLevel(_ samples: [Int16], frequency: Double) -> Double {
        let window = rate / 10
        guard samples.count >= window else { return 0 }
        let coefficient = 2 * cos(2 * .pi * frequency / Double(rate))
        var total = 0.0, windows = 0
        var start = 0
        while start + window <= samples.count {
            var s1 = 0.0, s2 = 0.0
            for sample in samples[start..<(start + window)] {
                let s0 = Double(sample) / 32768 + coefficient * s1 - s2
                s2 = s1
                s1 = s0
            }
            let power = max(0, s1 * s1 + s2 * s2 - coefficient * s1 * s2)
            total += 2 * power.squareRoot() / Double(window)
            windows += 1
            start += window
        }
        return total / Double(windows)
    }

    /// The highest RMS of any 10 ms window.
    public static func peakRMS(_ samples: [Int16]) -> Double {
        windowRMS(samples).max() ?? 0
    }

    /// The RMS of each whole 10 ms window.
    private static func windowRMS(_ samples: [Int16]) -> [Double] {
        let window = rate / 100
        var levels: [Double] = []
        var start = 0
        while start + window <= samples.count {
            var sum = 0.0
            for s in samples[start..<(start + window)] { let v = Double(s) / 32768; sum += v * v }
            levels.append((sum / Double(window)).squareRoot())
            start += window
        }
        return levels
    }
}
