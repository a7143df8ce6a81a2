import Foundation
import PajamaTerminal
import PajamaTestSupport
import Testing

/// The quit signals as one sequence: a signal sent to this process once `start()` has returned is kept
/// (the first one only) and wakes whoever listens, instead of ending the process.
@MainActor @Suite(.serialized, .timeLimit(.minutes(1))) struct QuitSignalsTests {
    @Test func theFirstQuitSignalIsKeptAndWakesTheListener() async {
        let signals = QuitSignals()
        let (wakes, wake) = AsyncStream<Void>.makeStream()
        var woken = wakes.makeAsyncIterator()
        signals.onSignal = { wake.yield() }
        await signals.start()
        #expect(signals.received == nil)
        kill(getpid(), SIGHUP)
        _ = await woken.next()  // the signal's own wake: no poll
        #expect(signals.received == SIGHUP)
        kill(getpid(), SIGTERM)
        _ = await woken.next()
        #expect(signals.received == SIGHUP, "later signals change nothing")
        signals.stop()
    }

    @Test func aScreenEndsOnTheSignalItsQuitSignalsReceived() async {
        let signals = QuitSignals()
        let screen = Screen(theme: .builtIn, capabilities: TerminalCapabilities.current(), signals: signals)
        // The screen's own wake, and then this test's: the signal has reached the screen when it comes.
        let screensWake = signals.onSignal
        let (wakes, wake) = AsyncStream<Void>.makeStream()
        var woken = wakes.makeAsyncIterator()
        signals.onSignal = {
            screensWake?()
            wake.yield()
        }
        await signals.start()
        #expect(screen.quitSignal == nil)
        kill(getpid(), SIGINT)
        _ = await woken.next()
        #expect(screen.quitSignal == SIGINT)
        signals.stop()
    }
}
