@testable import PajamaAudio
import Testing

/// The fallback stream's mixer, without a server.
@Suite struct StreamMixerTests {
    private func render(_ mixer: inout StreamMixer, _ count: Int) -> [Float] {
        var out = [Float](repeating: 9, count: count)
        out.withUnsafeMutableBufferPointer { mixer.render(into: $0) }
        return out
    }

    private func buffer(_ samples: [Float]) -> PCMBuffer {
        PCMBuffer(sampleRate: 48_000, channels: 2, frames: samples.count / 2, samples: samples)
    }

    @Test func silenceWhenNothingPlays() {
        var mixer = StreamMixer(channels: 2)
        #expect(render(&mixer, 8) == [Float](repeating: 0, count: 8))
    }

    @Test func voicesAreSummedWithTheirGainAndEnd() {
        var mixer = StreamMixer(channels: 2)
        mixer.start(buffer([0.1, 0.1, 0.2, 0.2]), gain: 1)
        mixer.start(buffer([0.3, 0.3, 0.3, 0.3, 0.3, 0.3]), gain: 0.5)
        #expect(mixer.activeVoices == 2)
        let first = render(&mixer, 4)
        #expect(zip(first, [0.25, 0.25, 0.35, 0.35] as [Float]).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(mixer.activeVoices == 1)
        let second = render(&mixer, 4)
        #expect(zip(second, [0.15, 0.15, 0, 0] as [Float]).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(mixer.activeVoices == 0)
    }

    @Test func theSumIsClipped() {
        var mixer = StreamMixer(channels: 2)
        mixer.start(buffer([0.8, -0.8]), gain: 1)
        mixer.start(buffer([0.7, -0.7]), gain: 1)
        #expect(render(&mixer, 2) == [1, -1])
    }

    @Test func aVoiceStartedAfterOthersWaitsForTheirEnd() {
        var mixer = StreamMixer(channels: 2)
        mixer.start(buffer([0.1, 0.1, 0.1, 0.1]), gain: 1)
        mixer.startAfterOthers(buffer([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]), gain: 1)
        mixer.startAfterOthers(buffer([0.2, 0.2]), gain: 1)
        let out = render(&mixer, 14)
        let expected: [Float] = [0.1, 0.1, 0.1, 0.1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.2, 0.2, 0, 0]
        #expect(zip(out, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(out)")
        #expect(mixer.activeVoices == 0)
        // Waiting across render calls, and stopAll drops waiting voices too.
        mixer.start(buffer([0.1, 0.1, 0.1, 0.1]), gain: 1)
        mixer.startAfterOthers(buffer([0.3, 0.3]), gain: 1)
        #expect(render(&mixer, 2) == [0.1, 0.1])
        mixer.stopAll()
        #expect(render(&mixer, 6) == [0, 0, 0, 0, 0, 0])
    }

    @Test func aLoopingVoiceStartsAgainUntilStoppedAndFollowsItsGain() {
        var mixer = StreamMixer(channels: 2)
        mixer.startLooping(buffer([0.1, 0.1, 0.2, 0.2, 0.3, 0.3]), gain: 1)
        // Ten frames of a three-frame sound: it wraps round within one render, and across renders.
        let first = render(&mixer, 20)
        let expected: [Float] = [0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.1, 0.1]
        #expect(zip(first, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(first)")
        let second = render(&mixer, 4)
        #expect(zip(second, [0.2, 0.2, 0.3, 0.3] as [Float]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(second)")
        #expect(mixer.activeVoices == 1)
        mixer.setGain(0.5)
        let quieter = render(&mixer, 2)
        #expect(zip(quieter, [0.05, 0.05] as [Float]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(quieter)")
        mixer.setGain(0)
        #expect(render(&mixer, 6) == [Float](repeating: 0, count: 6))
        mixer.stopAll()
        #expect(mixer.activeVoices == 0)
    }
}
