import PajamaModel
import PajamaReading
import Testing

/// Read aloud's decisions with a fake voice: what is said, in which order, and when it stops.
@MainActor @Suite(.timeLimit(.minutes(1))) struct ReadAloudTests {
    /// Records what read aloud asks of the voice; a test awaits the call that makes its condition true.
    final class FakeVoice: Sendable {
        enum Call: Equatable { case say(String, interrupting: Bool), stop }
        private struct Record {
            var calls: [Call] = []
            var waiters: [(condition: @Sendable ([Call]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        }
        private let recorded = Locked(Record())
        var calls: [Call] { recorded.withLock { $0.calls } }
        var client: SpeechClient {
            SpeechClient(say: { text, interrupting in
                self.record(.say(text, interrupting: interrupting))
                return true
            }, stop: { self.record(.stop) })
        }
        var said: [String] { calls.compactMap { if case .say(let text, _) = $0 { text } else { nil } } }

        private func record(_ call: Call) {
            let ready = recorded.withLock { record in
                record.calls.append(call)
                let calls = record.calls
                let ready = record.waiters.filter { $0.condition(calls) }.map(\.continuation)
                record.waiters.removeAll { $0.condition(calls) }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }

        /// Returns once the calls so far make `condition` true: at once, or at the call that does.
        func waitUntil(_ condition: @escaping @Sendable ([Call]) -> Bool) async {
            await withCheckedContinuation { continuation in
                let now = recorded.withLock { record in
                    if condition(record.calls) { return true }
                    record.waiters.append((condition, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    func reading(on: Bool) async -> (ReaderViewModel, ReadAloud, FakeVoice) {
        let (manifest, beats) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        let voice = FakeVoice()
        let readAloud = ReadAloud(speech: voice.client, on: on)
        readAloud.follow(vm.events())
        return (vm, readAloud, voice)
    }

    @Test func eachPageAndEachRevealedLineIsSaidInOrderAPageChangeInterrupts() async {
        let (vm, readAloud, voice) = await reading(on: true)
        await vm.start()
        await vm.changePage(.advance)  // text page, line a
        await vm.changePage(.advance)  // line b
        await vm.changePage(.advance)  // line c
        await vm.changePage(.advance)  // the choice page
        await voice.waitUntil { calls in calls.filter { if case .say = $0 { true } else { false } }.count == 5 }
        #expect(voice.said == ["T", "a", "b", "c", "?\n  1. L\n  2. R"])
        // A new page stops what is being said and interrupts; a new line of the same page waits its turn.
        #expect(voice.calls.contains(.say("a", interrupting: true)))
        #expect(voice.calls.contains(.say("b", interrupting: false)))
        let stops = voice.calls.indices.filter { voice.calls[$0] == .stop }
        #expect(stops.count == 3, "\(voice.calls)")  // the title, the text page, the choice page
        readAloud.finish()
        await vm.close()
    }

    @Test func offSaysNothingAndTurningItOffStopsTheVoice() async {
        let (vm, readAloud, voice) = await reading(on: false)
        await vm.start()
        await vm.changePage(.advance)
        // Off, a new page still stops the voice (the title, the text page) and nothing is said.
        await voice.waitUntil { $0.count == 2 }
        #expect(voice.calls == [.stop, .stop])
        readAloud.isOn = true
        await vm.changePage(.advance)
        await voice.waitUntil { $0.contains { if case .say("b", _) = $0 { true } else { false } } }
        #expect(voice.said == ["b"], "\(voice.calls)")
        readAloud.isOn = false
        #expect(voice.calls.last == .stop)
        await vm.changePage(.advance)  // line c, off: nothing said
        // The choice page stops the voice even when off; read aloud takes the events in order, so when that
        // stop comes, line c was handled, and nothing was said for it.
        let callsBefore = voice.calls.count
        await vm.changePage(.advance)
        await voice.waitUntil { $0.count > callsBefore }
        #expect(voice.said == ["b"], "\(voice.calls)")
        #expect(voice.calls.last == .stop)
        readAloud.finish()
        await vm.close()
    }
}
