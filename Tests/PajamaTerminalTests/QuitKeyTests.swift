import Testing

@testable import PajamaTerminal

/// `q` and Esc quit at once (issue 35, item 11): the loop ends on the key, with no wait for more input after
/// it (that wait, up to a second, was the time `q` took where Ctrl-C took 5 ms).
@MainActor @Suite struct QuitKeyTests {
    @Test(arguments: [Key.character("q"), Key.escape])
    func aQuitKeyEndsTheLoopWithoutWaitingForInput(key: Key) async throws {
        let s = try await ReaderControllerHeadlessTests().start()
        defer { s.dir.remove() }
        let t = s.terminal
        #expect(await t.waitForFrame(containing: "The Hall"))
        let pressed = ContinuousClock.now
        t.push(key)
        guard case .quit = await s.run.value else {
            Issue.record("expected quit")
            return
        }
        let took = ContinuousClock.now - pressed
        #expect(t.waitsSinceLastKey == 0, "the loop waited for input after the quit key (\(took))")
        await s.viewModel.close()
    }
}
