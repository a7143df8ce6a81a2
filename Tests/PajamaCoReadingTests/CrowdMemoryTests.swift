import PajamaModel
import Testing
@testable import PajamaCoReading

/// When the host gives a crowd's memory back (issue 42, item 7): after a crowd (`threshold` sockets or
/// more), when the sockets open fall to a quarter of the most seen, and when none is left.
/// The effect on RSS is measured with scripts/host-rss-rounds.sh (docs/security.md, "Memory over many joins").
@Suite struct CrowdMemoryTests {
    final class Releases: Sendable {
        private let count = Locked(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    @Test func aCrowdThatLeavesIsReleasedOnceAndASmallSessionNever() {
        let releases = Releases()
        let memory = CrowdMemory(threshold: 128) { releases.add() }
        // A small session comes and goes: nothing to give back.
        for open in Array(1...100) + Array((0...99).reversed()) { memory.changed(open: open) }
        #expect(releases.value == 0)
        // A crowd of 400 joins; as it leaves, a release at 100 (a quarter), and one when none is left.
        for open in 1...400 { memory.changed(open: open) }
        for open in (101...399).reversed() { memory.changed(open: open) }
        #expect(releases.value == 0)
        memory.changed(open: 100)
        #expect(releases.value == 1)
        for open in (1...99).reversed() { memory.changed(open: open) }
        #expect(releases.value == 1)
        memory.changed(open: 0)
        #expect(releases.value == 2)
        // The next crowd is released again; one that thins and grows again is a crowd again.
        for open in 1...200 { memory.changed(open: open) }
        for open in (0...199).reversed() { memory.changed(open: open) }
        #expect(releases.value == 4)
        for open in 1...200 { memory.changed(open: open) }
        for open in (40...199).reversed() { memory.changed(open: open) }
        #expect(releases.value == 5)
        for open in 41...300 { memory.changed(open: open) }
        for open in (76...299).reversed() { memory.changed(open: open) }
        #expect(releases.value == 5)
        memory.changed(open: 75)
        #expect(releases.value == 6)
    }

    @Test func glibcsTrimIsFound() throws {
        // Looked up by name (Swift's Glibc module does not declare it): a wrong name would release nothing.
        let trim = try #require(CrowdMemory.mallocTrim)
        #expect([0, 1].contains(trim(0)))
    }
}
