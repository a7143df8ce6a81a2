import Foundation
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP
import PajamaInkBridge
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// Co-reading an ink story on 127.0.0.1: a real host serving the ink file's folder, a real follower
/// connection, and a follower reader whose own runtime makes the owner's beats (docs/ink.md, "Co-reading").
@Suite(.serialized) struct InkLoopbackTests {
    /// A random number (1 to 1000), then a sticky choice back to the top.
    static let randomLoop = ##"""
    {"inkVersion":21,"root":[["ev",1,1000,"rnd","out","/ev","\n","ev","str","^Again","/str","/ev",{"*":"0.c-0","flg":4},{"c-0":[{"->":"0"},{"#f":5}]}],"done",null],"listDefs":{}}
    """##

    static func open(_ source: any StorySource) async throws -> StoryContentManager {
        try await StoryContentManager.open(
            source: source, diskCache: nil,
            decodeImage: { _, bytes throws(AssetLoadError) in .textArt(lines: [String(decoding: bytes, as: UTF8.self)]) },
            sound: nil, preloading: false)
    }

    @MainActor func page(_ vm: ReaderViewModel) -> PageState? {
        if case .page(let p) = vm.state { return p }
        return nil
    }

    /// What the owner's wiring does for each page shown: the beat first, then the location.
    func publish(_ vm: ReaderViewModel, to host: CoReadingHost) async throws {
        let shown = try #require(await page(vm))
        if let sync = BeatSync(shown.beat) { await host.publish(beat: sync) }
        await host.publish(shown.location)
    }

    @Test func aLateFollowerOpensTheInkFileAndFollowsTheOwnersRandomBeats() async throws {
        let dir = try TemporaryDirectory(prefix: "pajama-ink-coread")
        defer { dir.remove() }
        try dir.write("tale.ink.json", Self.randomLoop)
        let ownerContent = try await Self.open(InkStorySource(base: FolderStorySource(folder: dir.path), file: "tale.ink.json", seed: 12))
        let owner = await ReaderViewModel(content: ownerContent, sound: nil, progress: nil)
        let host = CoReadingHost(content: .folder(dir.url), storyId: ownerContent.manifest.id, storyVersion: ownerContent.manifest.version,
                                 format: "ink", files: ["tale.ink.json"],
                                 packageFiles: FormatRegistry.all.find(at: dir.path + "/tale.ink.json")?.packageFiles(), configuration: .init(port: 0, ownerName: "bob"), token: "secret-secret-42", log: { _ in })
        _ = try await host.start()
        await owner.start()
        for move in [PageMove.advance, .advance, .choose(0), .advance] {
            await owner.changePage(move)
            try await publish(owner, to: host)
        }

        // A follower joins now: the welcome names the ink file and carries the owner's beat.
        var events = FollowerConnection.connect(to: URL(string: host.joinURL)!, token: "secret-secret-42", name: "ann").makeAsyncIterator()
        guard case .welcome(let welcome, let storyURL)? = await events.next() else {
            Issue.record("expected a welcome")
            return
        }
        #expect(welcome.story.format == "ink")
        #expect(welcome.story.files == ["tale.ink.json"])
        let sync = try #require(welcome.beat)
        let package = HTTPStorySource(baseURL: storyURL, authorization: "Bearer secret-secret-42")
        let content = try await Self.open(InkStorySource(base: package, file: try #require(welcome.story.files.first), seed: 77))
        #expect(content.manifest.version == ownerContent.manifest.version)
        let follower = await ReaderViewModel(content: content, sound: nil, progress: nil)
        #expect(await content.restore(sync.origin) == .restoredAnew)  // the owner's seed and state, not 77
        let location: StoryLocation = try #require(welcome.location)
        await follower.start(at: location)
        #expect(await page(follower)?.page == page(owner)?.page, "the same random number as the owner's")

        // The owner moves on: the follower gets the beat, then the location, and makes the same beat.
        let outcomes = Locked<[ReaderViewModel.FollowOutcome]>([])
        let following = Task { @MainActor in
            var latest: BeatSync? = sync
            while let event = await events.next(isolation: #isolation) {
                if case .beat(let next) = event { latest = next }
                if case .location(let location) = event {
                    let outcome = await follower.follow(location, sync: latest)
                    outcomes.withLock { $0.append(outcome) }
                }
            }
        }
        defer { following.cancel() }
        for move in [PageMove.choose(0), .advance, .choose(0)] {
            await owner.changePage(move)
            try await publish(owner, to: host)
            let target = try #require(await page(owner)?.location)
            #expect(await eventually { await page(follower)?.location == target }, "the follower is at \(target)")
            #expect(await page(follower)?.page == page(owner)?.page)
        }
        #expect(outcomes.withLock { $0 }.allSatisfy { $0 == .inStep })
        await owner.close()
        await follower.close()
        await host.end()
    }
}
