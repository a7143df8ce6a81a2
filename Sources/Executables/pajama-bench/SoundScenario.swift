import Foundation
import PajamaAudio
import PajamaModel
import PajamaStorage
import PajamaTestSupport

/// `sound`: trigger to first non-silent sample at the sink, over many taps, on a private PulseAudio
/// server with a null sink, for the three ways to play a short sound: the sample cache (Pajama's
/// normal mode), the fallback stream (Pajama on a server without a sample cache), and the baseline
/// that decodes the file and streams it on a new playback stream on every play (the way paplay does;
/// `paplay` itself, a new process per tap, is measured too for context).
///
/// Method: an in-process record stream on the sink's monitor (`SinkOnsetRecorder`: 2 ms fragments,
/// timing interpolation) timestamps every chunk as it arrives and subtracts the record latency that
/// `pa_stream_get_latency` reports, so the first sample above the threshold is dated to when it left
/// the sink, on the same CLOCK_MONOTONIC as the trigger; a loud sample dated before the trigger is
/// ignored (it is the tail of an earlier tap). The tap's time is taken just before the play
/// call (before the decode, for the baseline). Between taps the sound (0.12 s) plays out, with over 100 ms of silence after it.
/// Each mode runs alone (one engine at a time); the recorder's low-latency request keeps the null sink
/// at a short latency for all three alike, so the figures compare the paths, not a sound card.
///
/// The method is checked against the server (`SinkInputEvents`, `methodRows`): for every path that makes a
/// sink input per tap, the server's announcement of it is dated too, and no onset may come before it.
/// What a tap costs the process (CPU time on every thread, heap allocations: `TapCost`) is measured first,
/// before the recorder runs.
struct SoundScenario: Scenario {
    let name = "sound"
    let summary = "tap to first sample at the sink and the cost of a tap: sample cache vs fallback stream vs decode-per-play vs paplay"

    func run(_ options: BenchOptions) async throws -> [BenchRow] {
        let server: PrivatePulseServer
        do {
            server = try PrivatePulseServer()
        } catch {
            throw Skip(reason: "no private PulseAudio server could be started (is pulseaudio installed?): \(error)")
        }
        defer { server.stop() }
        // The engines remember volume and mute in the config folder: keep the reader's own untouched.
        let config = try TemporaryDirectory(prefix: "pajama-bench-sound")
        defer { config.remove() }
        let settingsFile = Paths(home: config.url).soundSettings

        let tapSound = try Self.tapSound(in: config)
        let taps = options.iterations(55)
        let paths = TapPlayers(server: server.serverAddress, settingsFile: settingsFile, sound: tapSound)

        // What a tap costs, first: the recorder's 2 ms fragments would add their own CPU to every window.
        var costs: [TapPath: TapCost] = [:]
        try await paths.forEach { player in
            costs[player.path] = try await TapCost.measure(blocks: options.iterations(8), player.play, settle: player.settle)
        }

        let recorder: SinkOnsetRecorder
        let events: SinkInputEvents
        do {
            recorder = try SinkOnsetRecorder(server: server.serverAddress, source: server.sinkName + ".monitor")
        } catch {
            throw Skip(reason: "cannot record the null sink's monitor: \(error)")
        }
        defer { recorder.stop() }
        do {
            events = try SinkInputEvents(server: server.serverAddress)
        } catch {
            throw Skip(reason: "cannot follow the server's sink-input events: \(error)")
        }
        defer { events.stop() }
        var results: [TapPath: TapSeries] = [:]
        try await paths.forEach { player in
            results[player.path] = try await measure(taps: taps, recorder: recorder, events: player.path.makesSinkInputs ? events : nil, player.play)
            await player.settle()
            if let engine = player.engine, player.path == .sampleCache {
                results[.speech] = try await measureSpeech(engine, lines: taps, recorder: recorder)
            }
        }
        let paplay = results[.paplay]
        let soundName = tapSound.name

        let baseline = results[.baseline]!, cache = results[.sampleCache]!, stream = results[.stream]!
        let baselineStats = Statistics(baseline.heard), cacheStats = Statistics(cache.heard), streamStats = Statistics(stream.heard)
        let speedup = baselineStats.median / cacheStats.median
        // Issue 14: against what most terminal programs do (a paplay per tap), not against an in-process
        // decode-per-play, which a null sink cannot tell apart (both reach it in about 2 ms).
        let paplaySpeedup = paplay.map { Statistics($0.heard).median / cacheStats.median }
        var rows = [
            BenchRow(scenario: name, name: "decode + new stream per play", unit: .seconds, stats: baselineStats,
                     note: baseline.note + ", \(soundName) decoded in process on every tap"),
            BenchRow(scenario: name, name: "sample cache play", unit: .seconds, stats: cacheStats,
                     baseline: "decode + new stream per play", target: "p99 < 5 ms, >= 2.5x faster than paplay per tap",
                     met: paplaySpeedup.map { cacheStats.p99 < 0.005 && $0 >= 2.5 && cache.missed == 0 },
                     note: cache.note + String(format: ", %.1fx faster than decode-per-play", speedup)
                        + (paplaySpeedup.map { String(format: ", %.1fx faster than paplay", $0) } ?? ", paplay missing: not compared")),
            BenchRow(scenario: name, name: "fallback stream play", unit: .seconds, stats: streamStats,
                     baseline: "decode + new stream per play", target: "p99 < 20 ms", met: streamStats.p99 < 0.020 && stream.missed == 0,
                     note: stream.note + ", stream target latency \(FallbackStream.targetLatencyMilliseconds) ms"),
        ]
        if let speech = results[.speech] {
            let stats = Statistics(speech.heard)
            rows.append(BenchRow(scenario: name, name: "read aloud: line revealed to first speech sample", unit: .seconds, stats: stats,
                                 target: "median < 150 ms", met: stats.median < 0.150 && speech.missed == 0,
                                 note: "\(speech.heard.count) lines heard, espeak-ng synthesis included" + (speech.missed > 0 ? ", \(speech.missed) not heard" : "")))
        }
        if let paplay {
            rows.append(BenchRow(scenario: name, name: "paplay per play (new process)", unit: .seconds, stats: Statistics(paplay.heard),
                                 baseline: "decode + new stream per play", note: paplay.note + ", for context"))
        }
        let checked = [TapPath.sampleCache, .baseline, .paplay].compactMap { path in results[path].map { (path.label, $0) } }
        rows += checked.flatMap { methodRows($0.0, $0.1) }
        rows += costRows(costs: [TapPath.sampleCache, .stream, .baseline, .paplay].compactMap { path in costs[path].map { (path.label, $0) } })
        return rows
    }

    /// The tapped sound: a 0.12 s 1 kHz tone as Ogg Vorbis 44.1 kHz stereo, like the bundled stories'
    /// sounds (made with sox), or the same tone as WAV when sox is missing.
    private static func tapSound(in folder: TemporaryDirectory) throws -> TapSound {
        let ogg = folder.path + "/tap.ogg"
        if let made = try? ChildProcess.run("sox", ["-n", "-r", "44100", "-c", "2", ogg, "synth", "0.12", "sine", "1000", "vol", "0.5"]),
            made.status == 0, let data = FileManager.default.contents(atPath: ogg)
        {
            return TapSound(bytes: Array(data), file: ogg, name: "tap.ogg")
        }
        let wav = folder.path + "/tap.wav"
        let bytes = TestSound.wav(seconds: 0.12, frequency: 1000, rate: 44_100, channels: 2)
        _ = FileManager.default.createFile(atPath: wav, contents: Data(bytes))
        return TapSound(bytes: bytes, file: wav, name: "tap.wav")
    }

    /// Says a short line `lines` times (after 5 warm-up lines) as read aloud does when a line is revealed
    /// (`SpeechClient.live`: espeak-ng synthesis, then the speech stream) and returns each line's time from
    /// the call to its first sample at the sink. The voice is stopped after each line and left silent.
    private func measureSpeech(_ engine: PulseSoundEngine, lines: Int, recorder: SinkOnsetRecorder) async throws -> TapSeries {
        var series = TapSeries()
        guard case .success(let synthesizer) = SpeechSynthesizer.shared(voice: "en") else {
            series.missed = lines
            return series
        }
        let speech = SpeechClient.live(engine, synthesizer: synthesizer)
        for line in 0..<(lines + 5) {
            let start = SinkOnsetRecorder.now()
            recorder.arm(notBefore: start)
            let saying = Task { await speech.say("The bell rang twice.", true) }
            var onset: Double?
            while onset == nil, SinkOnsetRecorder.now() - start < 2 {
                try await Task.sleep(for: .milliseconds(1))
                onset = recorder.onset
            }
            _ = await saying.value
            speech.stop()
            if line >= 5 {
                if let onset { series.heard.append(onset - start) } else { series.missed += 1 }
            }
            try await Task.sleep(for: .milliseconds(300))
        }
        return series
    }

    /// Taps `taps` times (after 5 warm-up taps) and returns each tap's trigger-to-sink time and, with
    /// `events`, when the server announced the tap's sink input.
    private func measure(
        taps: Int, recorder: SinkOnsetRecorder, events: SinkInputEvents?, _ play: () throws -> Void
    ) async throws -> TapSeries {
        var series = TapSeries()
        for tap in 0..<(taps + 5) {
            let start = SinkOnsetRecorder.now()
            recorder.arm(notBefore: start)
            events?.arm(notBefore: start)
            try play()
            var onset: Double?
            var announced: Double?
            while onset == nil || (events != nil && announced == nil), SinkOnsetRecorder.now() - start < 2 {
                try await Task.sleep(for: .milliseconds(1))
                onset = recorder.onset
                announced = events?.announced
            }
            if tap >= 5 {
                if let onset { series.heard.append(onset - start) } else { series.missed += 1 }
                if let announced {
                    series.announced.append(announced - start)
                    if let onset { series.agreement.append(onset - announced) }
                }
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        return series
    }
}
