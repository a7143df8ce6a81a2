import PajamaLoading
import PajamaModel
import Testing

/// When a transfer ends, from its progress: its round trip (the request to the first report) and the
/// rate since; whether it ends within one round trip of now (the preloader then sends the next request).
@Suite struct TransferForecastTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    /// A duration in whole milliseconds (the rates are floating point).
    func milliseconds(_ duration: Duration?) -> Int? {
        duration.map { Int(($0 / .milliseconds(1)).rounded()) }
    }

    @Test func nothingIsForecastBeforeTheSizeAndTheRateAreKnown() {
        var forecast = TransferForecast(started: start)
        #expect(forecast.roundTrip == nil)
        #expect(!forecast.endsWithinRoundTrip)
        forecast.record(TransferProgress(received: 0, expected: 500_000), at: at(80))
        #expect(forecast.roundTrip == .milliseconds(80))
        #expect(forecast.bytesPerSecond == nil)
        #expect(forecast.remaining == nil)
        #expect(!forecast.endsWithinRoundTrip)
    }

    @Test func aTransferEndsWithinItsRoundTripOnceItsMissingBytesTakeNoLongerAtTheRateSeen() {
        var forecast = TransferForecast(started: start)
        forecast.record(TransferProgress(received: 0, expected: 500_000), at: at(80))
        // 100 KB in 50 ms: 2 MB/s; 400 KB to go take 200 ms, more than the 80 ms round trip.
        forecast.record(TransferProgress(received: 100_000, expected: 500_000), at: at(130))
        #expect(forecast.bytesPerSecond == 2_000_000)
        #expect(milliseconds(forecast.remaining) == 200)
        #expect(!forecast.endsWithinRoundTrip)
        // 360 KB in 180 ms: 140 KB to go take 70 ms, within the round trip.
        forecast.record(TransferProgress(received: 360_000, expected: 500_000), at: at(260))
        #expect(milliseconds(forecast.remaining) == 70)
        #expect(forecast.endsWithinRoundTrip)
    }

    @Test func aSizeNeverAnnouncedIsNeverForecastUntilNothingIsMissing() {
        var forecast = TransferForecast(started: start)
        forecast.record(TransferProgress(received: 0, expected: nil), at: at(80))
        forecast.record(TransferProgress(received: 490_000, expected: nil), at: at(300))
        #expect(!forecast.endsWithinRoundTrip)
        var whole = TransferForecast(started: start)
        whole.record(TransferProgress(received: 9, expected: 9), at: at(0))
        #expect(whole.remaining == .zero)
        #expect(whole.endsWithinRoundTrip)
    }

    @Test func aResumedTransferCountsOnlyTheBytesOfThisAnswerInItsRate() {
        var forecast = TransferForecast(started: start)
        forecast.record(TransferProgress(received: 300_000, expected: 500_000), at: at(100))
        forecast.record(TransferProgress(received: 400_000, expected: 500_000), at: at(200))
        #expect(forecast.bytesPerSecond == 1_000_000)
        #expect(milliseconds(forecast.remaining) == 100)
        #expect(forecast.endsWithinRoundTrip)
    }
}

extension TransferForecastTests {
    @Test func theLinksRateStandsInUntilTheTransfersOwnBytesGiveOne() {
        var small = TransferForecast(started: start, linkRate: 2_000_000)
        // 12 KB announced at the head: 6 ms at the link's rate, within the 80 ms round trip.
        small.record(TransferProgress(received: 0, expected: 12_000), at: at(80))
        #expect(milliseconds(small.remaining) == 6)
        #expect(small.endsWithinRoundTrip)
        var large = TransferForecast(started: start, linkRate: 2_000_000)
        large.record(TransferProgress(received: 0, expected: 500_000), at: at(80))
        #expect(!large.endsWithinRoundTrip)
        // Its own rate replaces the link's: 100 KB in 100 ms, 1 MB/s.
        large.record(TransferProgress(received: 100_000, expected: 500_000), at: at(180))
        #expect(milliseconds(large.remaining) == 400)
    }
}
