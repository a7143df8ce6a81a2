import PajamaLoading
import PajamaModel
import Testing

/// What the preloader measures of the link and the reader, and the look-ahead by time it gives
/// (`PreloadPolicy.measured`): the standard window until the link and the pace are known, then `timed`.
@Suite struct LinkMeasureTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    /// A transfer of `size` bytes asked at `asked` ms, its head `roundTrip` ms later, its bytes at `rate`.
    func transfer(size: Int, asked: Int = 0, roundTrip: Int, rate: Int) -> TransferForecast {
        var forecast = TransferForecast(started: at(asked))
        forecast.record(TransferProgress(received: 0, expected: size), at: at(asked + roundTrip))
        forecast.record(TransferProgress(received: size, expected: size), at: at(asked + roundTrip + size * 1000 / rate))
        return forecast
    }

    @Test func nothingIsWidenedUntilTheLinkAndThePaceAreKnown() {
        var measure = LinkMeasure()
        #expect(measure.everyBeatWithin == 0)
        measure.turned(at: at(0))
        measure.transferred(transfer(size: 500_000, roundTrip: 80, rate: 2_000_000))
        #expect(measure.everyBeatWithin == 0)  // one turn: no pace yet
        measure.turned(at: at(250))
        #expect(measure.pageSeconds == 0.25)
        #expect(measure.latency == 0.08)
        #expect(measure.bytesPerSecond == 2_000_000)
        // (2 x 80 ms + two 500 KB pictures at 2 MB/s) / 250 ms = 2.64: every beat within 3 steps.
        #expect(measure.everyBeatWithin == 3)
    }

    @Test func theLinkRateIsTheFastestRecentTransferAndASlowerLinkLooksFurther() {
        var measure = LinkMeasure()
        measure.turned(at: at(0))
        measure.turned(at: at(250))
        // Two transfers sharing the link each saw half of it; the one alone saw all of it.
        measure.transferred(transfer(size: 500_000, roundTrip: 80, rate: 250_000))
        measure.transferred(transfer(size: 500_000, roundTrip: 80, rate: 500_000))
        #expect(measure.bytesPerSecond == 500_000)
        // (0.16 + 2.0) / 0.25 = 8.64: 5 steps, the most.
        #expect(measure.everyBeatWithin == 5)
    }

    @Test func aSmallFilesBurstDoesNotPassForTheLinksRate() {
        var measure = LinkMeasure()
        measure.turned(at: at(0))
        measure.turned(at: at(250))
        measure.transferred(transfer(size: 500_000, roundTrip: 80, rate: 2_000_000))
        // 16 KB handed over in 1 ms (16 MB/s): too few bytes to tell the link's rate; the window stays.
        measure.transferred(transfer(size: 16_000, roundTrip: 80, rate: 16_000_000))
        #expect(measure.bytesPerSecond == 2_000_000)
        #expect(measure.everyBeatWithin == 3)
        // Enough bytes at that rate do count.
        #expect(80_000 >= LinkMeasure.minimumRateBytes)
        measure.transferred(transfer(size: 80_000, roundTrip: 80, rate: 4_000_000))
        #expect(measure.bytesPerSecond == 4_000_000)
    }

    @Test func theMeasuredPolicyWidensTheStandardWindowAndOthersStayAsTheyAre() {
        #expect(PreloadPolicy.measured.widened(to: 0) == PreloadPolicy.measured)
        #expect(PreloadPolicy.measured.widened(to: 3).everyBeatWithin == 3)
        #expect(PreloadPolicy.measured.widened(to: 9).everyBeatWithin == PreloadPolicy.measured.ahead)
        #expect(PreloadPolicy.standard.widened(to: 3) == PreloadPolicy.standard)
        #expect(PreloadPolicy(everyBeatWithin: 4, byTime: true).widened(to: 2).everyBeatWithin == 4)
    }
}
