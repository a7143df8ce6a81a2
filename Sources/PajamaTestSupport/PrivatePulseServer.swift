import Foundation

/// A private PulseAudio server for tests: its own runtime folder and socket, one null sink whose monitor
/// a `SinkRecorder` records, stopped (and cleaned up) by `stop()`.
public final class PrivatePulseServer: @unchecked Sendable {
    // Safe: the lets are set in init; `stopped` is only touched with `lock` held.
    public let folder: TemporaryDirectory
    public let socketPath: String
    public let sinkName = "pajama_test"
    private let pid: pid_t
    private let lock = NSLock()
    private var stopped = false

    /// `unix:<socket>`, for PULSE_SERVER or the engine's `server:` parameter.
    public var serverAddress: String { "unix:" + socketPath }

    /// Starts a server at `socketPath` (a fresh one when nil) and waits until it answers.
    public init(socketPath: String? = nil, folder: TemporaryDirectory? = nil) throws {
        let folder = try folder ?? TemporaryDirectory(prefix: "pajama-pulse")
        self.folder = folder
        let socket = socketPath ?? folder.path + "/native"
        self.socketPath = socket
        try FileManager.default.createDirectory(atPath: folder.path + "/runtime", withIntermediateDirectories: true)
        pid = try ChildProcess.spawn("env", [
            "HOME=\(folder.path)", "XDG_RUNTIME_DIR=\(folder.path)/runtime", "XDG_CONFIG_HOME=\(folder.path)/config",
            "PULSE_RUNTIME_PATH=\(folder.path)/runtime",
            "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--system=no", "--use-pid-file=no",
            "--disable-shm=yes", "--realtime=no", "--high-priority=no",
            "-L", "module-null-sink sink_name=\(sinkName) rate=48000 channels=1",
            "-L", "module-native-protocol-unix socket=\(socket) auth-anonymous=1",
        ], outputFile: folder.path + "/pulseaudio.log")
        for _ in 0..<100 {
            if let info = try? ChildProcess.run("pactl", ["-s", serverAddress, "info"], timeout: 5), info.status == 0 { return }
            usleep(100_000)
        }
        ChildProcess.terminate(pid)
        let log = (try? String(contentsOfFile: folder.path + "/pulseaudio.log", encoding: .utf8)) ?? ""
        throw ChildProcess.Failure(message: "pulseaudio did not start:\n\(log)")
    }

    /// `pactl` against this server.
    public func pactl(_ arguments: String...) -> String {
        (try? ChildProcess.run("pactl", ["-s", serverAddress] + arguments, timeout: 10).stdout) ?? ""
    }

    /// Freezes the server (SIGSTOP): it keeps its socket but answers nothing until `resume()`.
    public func pause() { kill(pid, SIGSTOP) }

    /// Lets a paused server run again (SIGCONT).
    public func resume() { kill(pid, SIGCONT) }

    /// Stops the server (the socket goes away; clients see the server as lost).
    public func stop(removeFolder: Bool = true) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        kill(pid, SIGCONT)
        ChildProcess.terminate(pid)
        if removeFolder { folder.remove() }
    }

    deinit { stop() }
}

/// Records the null sink's monitor (mono, 16-bit, 48 kHz) with parec, to find out what really played.
public final class SinkRecorder: @unchecked Sendable {
    // Safe: the lets are set in init and only read afterwards.
    public static let rate = 48_000
    private let pid: pid_t
    private let file: String

    public init(server: PrivatePulseServer) throws {
        file = server.folder.path + "/record-\(UUID().uuidString.prefix(6)).raw"
        pid = try ChildProcess.spawn("parec", [
            "-s", server.serverAddress, "-d", server.sinkName + ".monitor", "--raw", "--format=s16le",
            "--rate=\(Self.rate)", "--channels=1", "--latency-msec=10", file,
        ], outputFile: "/dev/null")
        usleep(300_000)
    }

    /// The samples recorded so far, while recording goes on (for polling until a sound has come out).
    public func samplesSoFar() -> [Int16] {
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Stops recording and returns the samples.
    public func stop() -> [Int16] {
        ChildProcess.terminate(pid)
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Seconds of sound above `threshold` (RMS over 10 ms windows, full scale = 1).
    public static func loudSeconds(_ samples: [Int16], threshold: Double = 0.01) -> Double {
        let window = rate / 100
        var loud = 0
        var start = 0
        while start + window <= samples.count {
            var sum = 0.0
            for s in samples[start..<(start + window)] { let v = Double(s) / 32768; sum += v * v }
            if (sum / Double(window)).squareRoot() > threshold { loud += 1 }
            start += window
        }
        return Double(loud) / 100
    }

    /// How many separate sounds the recording holds: runs of loud 10 ms windows, where a run ends after
    /// at least `gap` seconds of quiet.
    public static func onsets(_ samples: [Int16], threshold: Double = 0.01, gap: Double = 0.1) -> Int {
        let window = rate / 100
        let quietWindows = max(1, Int(gap * 100))
        var count = 0, quiet = quietWindows
        var start = 0
        while start + window <= samples.count {
            var sum = 0.0
            for s in samples[start..<(start + window)] { let v = Double(s) / 32768; sum += v * v }
            if (sum / Double(window)).squareRoot() > threshold {
                if quiet >= quietWindows { count += 1 }
                quiet = 0
            } else {
                quiet += 1
            }
            start += window
        }
        return count
    }

    /// The amplitude of the `frequency` component of the recording (Goertzel over all samples, full
    /// scale = 1): a tone of amplitude A that plays through the whole recording gives about A.
    public static func toneLevel(_ samples: [Int16], frequency: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let coefficient = 2 * cos(2 * .pi * frequency / Double(rate))
        var s1 = 0.0, s2 = 0.0
        for sample in samples {
            let s0 = Double(sample) / 32768 + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * power.squareRoot() / Double(samples.count)
    }

    /// The highest RMS of any 10 ms window.
    public static func peakRMS(_ samples: [Int16]) -> Double {
        let window = rate / 100
        var best = 0.0
        var start = 0
        while start + window <= samples.count {
            var sum = 0.0
            for s in samples[start..<(start + window)] { let v = Double(s) / 32768; sum += v * v }
            best = max(best, (sum / Double(window)).squareRoot())
            start += window
        }
        return best
    }
}

/// Test sounds written in Swift: a 16-bit PCM WAV of a sine tone.
public enum TestSound {
    public static func wav(seconds: Double, frequency: Double = 440, rate: Int = 44_100, channels: Int = 1, amplitude: Double = 0.5) -> [UInt8] {
        let frames = Int(seconds * Double(rate))
        var pcm: [UInt8] = []
        pcm.reserveCapacity(frames * channels * 2)
        for i in 0..<frames {
            let value = Int16(amplitude * 32767 * sin(2 * .pi * frequency * Double(i) / Double(rate)))
            for _ in 0..<channels { withUnsafeBytes(of: value.littleEndian) { pcm += $0 } }
        }
        func le32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).littleEndian) { Array($0) } }
        func le16(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(v).littleEndian) { Array($0) } }
        var header = Array("RIFF".utf8) + le32(36 + pcm.count) + Array("WAVE".utf8)
        header += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate) + le32(rate * channels * 2) + le16(channels * 2) + le16(16)
        header += Array("data".utf8) + le32(pcm.count)
        return header + pcm
    }
}
