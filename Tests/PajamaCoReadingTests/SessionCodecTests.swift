import Foundation
import PajamaModel
import Testing
@testable import PajamaCoReading

@Suite struct SessionCodecTests {
    static let story = SessionStory(id: "tale", version: "3", url: "/")
    static let messages: [SessionMessage] = [
        .hello(name: "ann"),
        .welcome(SessionWelcome(story: story, owner: "bob", location: StoryLocation(beatId: "b", pageId: "p", lineIndex: 2),
                                participants: ["ann", "cy"])),
        .welcome(SessionWelcome(story: story, owner: "bob", location: nil, participants: [])),
        .location(StoryLocation(beatId: "forest", pageId: "wolf", lineIndex: 1)),
        .cue(try! AssetPath(validating: "assets/tap.ogg"), .tap),
        .cue(try! AssetPath(validating: "assets/left.ogg"), .choice(1)),
        .participants(["ann"]),
        .end(name: "bob"),
    ]

    @Test func everyMessageRoundTrips() throws {
        for message in Self.messages {
            let text = SessionCodec.encode(message)
            #expect(text.hasPrefix("{") && text.contains("\"v\":1") && text.contains("\"type\":\"\(message.type)\""))
            #expect(try SessionCodec.decode(text) == message)
        }
    }

    /// A story made from files of its own names its format and its files; a welcome from a host before the format
    /// seam (its files in `ink`, one a line) still opens.
    @Test func aWelcomeNamesTheStorysFormatAndFiles() throws {
        let twine = SessionStory(id: "mill", version: nil, url: "/", format: "twine", files: ["a.twee", "b.twee"])
        let welcome = SessionMessage.welcome(SessionWelcome(story: twine, owner: "bob", location: nil, participants: []))
        let text = SessionCodec.encode(welcome)
        #expect(text.contains(#""format":"twine""#) && text.contains(#""files":["a.twee","b.twee"]"#) && !text.contains(#""ink""#))
        #expect(try SessionCodec.decode(text) == welcome)
        let legacy = #"{"v":1,"type":"welcome","story":{"id":"mill","url":"/","ink":"a.twee\nb.twee"},"owner":"bob","participants":[]}"#
        guard case .welcome(let old) = try SessionCodec.decode(legacy) else {
            Issue.record("expected a welcome")
            return
        }
        #expect(old.story.files == ["a.twee", "b.twee"] && old.story.format == nil)
    }

    /// A welcome published through a relay says so (`relay`), and only then; a follower that said hello takes
    /// it, or any first message but a welcome, as a relay node's, which will close the socket for the hello.
    @Test func aWelcomeThroughARelaySaysSoAndAFollowerKnowsTheNodeByIt() throws {
        let direct = SessionWelcome(story: Self.story, owner: "bob", location: nil, participants: [])
        #expect(!SessionCodec.encode(.welcome(direct)).contains("relay"))
        let text = SessionCodec.encode(.welcome(direct.throughRelay))
        #expect(text.contains(#""relay":true"#))
        #expect(try SessionCodec.decode(text) == .welcome(direct.throughRelay))
        #expect(!FollowerConnection.isRelays(.welcome(direct)))
        #expect(FollowerConnection.isRelays(.welcome(direct.throughRelay)))
        #expect(FollowerConnection.isRelays(.end(name: "bob")))
        #expect(FollowerConnection.isRelays(.cue(try AssetPath(validating: "assets/tap.ogg"), .tap)))
        #expect(!FollowerConnection.isRelays(.hello(name: "ann")))
    }

    @Test func aMessageOverTheLimitIsRefusedBeforeParsing() {
        let name = String(repeating: "a", count: SessionCodec.maximumSize)
        let text = SessionCodec.encode(.hello(name: name))
        #expect(throws: SessionCodec.Problem.tooLarge(size: text.utf8.count)) { try SessionCodec.decode(text) }
        #expect(SessionCodec.Problem.tooLarge(size: 70000).description == "message too large: 70000 bytes (limit 65536)")
        // Exactly at the limit is accepted.
        let padding = SessionCodec.maximumSize - SessionCodec.encode(.hello(name: "")).utf8.count
        let fits = SessionCodec.encode(.hello(name: String(repeating: "b", count: padding)))
        #expect(fits.utf8.count == SessionCodec.maximumSize)
        #expect(throws: Never.self) { try SessionCodec.decode(fits) }
    }

    @Test func anUnknownVersionIsRefusedNamingBoth() {
        #expect(throws: SessionCodec.Problem.unsupportedVersion(2)) {
            try SessionCodec.decode(#"{"v":2,"type":"location","location":{"beatId":"a","pageId":"b","lineIndex":0}}"#)
        }
        #expect(SessionCodec.Problem.unsupportedVersion(2).description == "unsupported protocol version 2 (this reader speaks 1)")
    }

    @Test func malformedMessagesSayWhatIsWrong() {
        #expect(throws: SessionCodec.Problem.malformed("not JSON")) { try SessionCodec.decode("hello") }
        #expect(throws: SessionCodec.Problem.malformed("missing \"v\"")) { try SessionCodec.decode(#"{"type":"end","name":"x"}"#) }
        #expect(throws: SessionCodec.Problem.malformed("a location message needs \"location\"")) {
            try SessionCodec.decode(#"{"v":1,"type":"location"}"#)
        }
        #expect(throws: SessionCodec.Problem.malformed("wrong type at \"location.lineIndex\"")) {
            try SessionCodec.decode(#"{"v":1,"type":"location","location":{"beatId":"a","pageId":"b","lineIndex":"x"}}"#)
        }
        #expect(throws: SessionCodec.Problem.unknownType("jump")) { try SessionCodec.decode(#"{"v":1,"type":"jump"}"#) }
    }

    @Test func aCuePathOutsideThePackageIsRefused() {
        #expect(throws: SessionCodec.Problem.self) {
            try SessionCodec.decode(#"{"v":1,"type":"cue","path":"../../etc/passwd","cue":"tap"}"#)
        }
        #expect(throws: SessionCodec.Problem.malformed("unknown cue \"boom\"")) {
            try SessionCodec.decode(#"{"v":1,"type":"cue","path":"a.ogg","cue":"boom"}"#)
        }
    }

    @Test func closeReasonsFitACloseFrame() {
        let problems: [SessionCodec.Problem] = [
            .tooLarge(size: Int.max), .malformed(String(repeating: "x", count: 500)), .unsupportedVersion(Int.max),
            .unknownType(String(repeating: "y", count: 500)), .binary,
        ]
        for problem in problems { #expect(problem.description.utf8.count <= 123) }
    }

    @Test func theJoinURLNamesTheMachineWhenListeningEverywhere() {
        func host(_ bind: String) -> CoReadingHost {
            CoReadingHost(content: .url(URL(string: "http://example.invalid/")!), storyId: "a", storyVersion: nil,
                          configuration: .init(bind: bind, port: 0, ownerName: "bob"), log: { _ in })
        }
        #expect(host("127.0.0.1").joinURL == "http://127.0.0.1:0/" && host("127.0.0.1").isLoopback)
        #expect(host("::1").joinURL == "http://[::1]:0/" && host("::1").isLoopback)
        #expect(host("0.0.0.0").joinURL == "http://\(ProcessInfo.processInfo.hostName):0/" && !host("0.0.0.0").isLoopback)
        #expect(host("0.0.0.0").access.token.count == 32)
    }

    @Test func theStoryURLResolvesAgainstTheJoinURL() {
        let join = URL(string: "http://127.0.0.1:7777/")!
        #expect(SessionStory(id: "a", version: nil, url: "/").packageURL(joinedAt: join)?.absoluteString == "http://127.0.0.1:7777/")
        #expect(SessionStory(id: "a", version: nil, url: "https://cdn.example/tale/").packageURL(joinedAt: join)?.absoluteString
            == "https://cdn.example/tale/")
    }
}
