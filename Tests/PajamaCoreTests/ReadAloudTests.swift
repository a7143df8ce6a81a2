import PajamaCore
import Testing

/// Read aloud's decisions with a fake voice: what is said, in which order, and when it stops.
@MainActor @Suite struct ReadAloudTests {
    /// Records what read aloud asks of the voice.
    final class FakeVoice: Sendable {
        enum Call: Equatable { case say(String, interrupting: Bool), stop }
        private let recorded = Locked<[Call]>([])
        var calls: [Call] { recorded.withLock { $0 } }
        var client: SpeechClient {
            SpeechClient(say: { text, interrupting in
                self.recorded.withLock { $0.append(.say(text, interrupting: interrupting)) }
                return true
            }, stop: { self.recorded.withLock { $0.append(.stop) } })
        }
        var said: [String] { calls.compactMap { if case .say(let text, _) = $0 { text } else { nil } } }
    }

    func reading(on: Bool) async -> (ReaderViewModel, ReadAloud, FakeVoice) {
        let (manifest, beats) = ReaderViewModelTests.story()
        let vm = ReaderViewModel(content: FakeContent(manifest: manifest, beats: beats), sound: nil, progress: nil)
        let voice = FakeVoice()
        let readAloud = ReadAloud(speech: voice.client, on: on)
        readAloud.follow(vm.events())
        return (vm, readAloud, voice)
    }

    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    @Test func eachPageAndEachRevealedLineIsSaidInOrderAPageChangeInterrupts() async {
        let (vm, readAloud, voice) = await reading(on: true)
        await vm.start()
        await vm.changePage(.advance)  // text page, line a
        await vm.changePage(.advance)  // line b
        await vm.changePage(.advance)  // line c
        await vm.changePage(.advance)  // the choice page
        #expect(await eventually { voice.said.count == 5 }, "\(voice.calls)")
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
        #expect(await eventually { voice.calls == [.stop, .stop] }, "\(voice.calls)")
        readAloud.isOn = true
        await vm.changePage(.advance)
        #expect(await eventually { voice.said == ["b"] }, "\(voice.calls)")
        readAloud.isOn = false
        #expect(voice.calls.last == .stop)
        await vm.changePage(.advance)
        for _ in 0..<100 { await Task.yield() }
        #expect(voice.said == ["b"])
        readAloud.finish()
        await vm.close()
    }
}
