import Foundation
import PajamaModel
import Testing
@testable import PajamaCoReading

/// The wire stays what older readers speak now that PajamaJSON encodes it (issue 36): an older peer, which
/// decoded with Foundation's `JSONDecoder`, reads every message this one writes, and this one reads what an
/// older peer wrote (Foundation's `JSONEncoder`, slashes escaped). Also times both codecs side by side.
@Suite struct SessionCodecWireTests {
    /// The message fields as the older peers declared them (SessionCodec.Wire before issue 36).
    struct OldWire: Codable, Equatable {
        var v: Int
        var type: String
        var name: String?
        var story: SessionStory?
        var owner: String?
        var location: StoryLocation?
        var path: String?
        var cue: String?
        var choice: Int?
        var participants: [String]?
        var followers: Int?
        var countOnly: Bool?
        var beat: BeatSync?
    }

    struct OldEnvelope: Decodable {
        var v: Int
        var type: String
    }

    static let beat = BeatSync(beatId: "t-00ab", origin: BeatOrigin(seed: 7, steps: [0, 2, 1], state: #"{"random":"18446744073709551615","x":[1.5]}"#, version: "1"),
                               stateHash: "9f2c")
    static let messages: [SessionMessage] = SessionCodecTests.messages + [
        .hello(name: "dee", countOnly: true),
        .welcome(SessionWelcome(story: SessionStory(id: "mill", version: nil, url: "https://example.org/a/b/", format: "twine", files: ["a.twee", "b/c.twee"]),
                                owner: "bob", location: StoryLocation(beatId: "t-00ab", pageId: "p2"), participants: [], followers: 40, beat: beat)),
        .beat(beat),
        .followers(12),
        .cue(try! AssetPath(validating: "assets/door.ogg"), .pageEnter),
    ]

    @Test func anOlderPeerDecodesEveryMessageAndThisOneDecodesTheOlderPeers() throws {
        let old = JSONEncoder()
        old.outputFormatting = [.sortedKeys]
        for message in Self.messages {
            let text = SessionCodec.encode(message)
            let wire = try JSONDecoder().decode(OldWire.self, from: Data(text.utf8))
            #expect(wire.type == message.type && wire.v == 1)
            let olderText = String(decoding: try old.encode(wire), as: UTF8.self)
            #expect(try SessionCodec.decode(olderText) == message, "\(olderText)")
            #expect(try JSONDecoder().decode(OldWire.self, from: Data(olderText.utf8)) == wire)
        }
        let slashes = #"{"cue":"tap","path":"assets\/tap.ogg","type":"cue","v":1}"#
        #expect(try SessionCodec.decode(slashes) == .cue(try AssetPath(validating: "assets/tap.ogg"), .tap))
    }

    @Test func theNewCodecIsTimedBesideFoundations() throws {
        let welcome = Self.messages[1]
        let location = SessionMessage.location(StoryLocation(beatId: "forest", pageId: "wolf", lineIndex: 1))
        let old = JSONEncoder()
        old.outputFormatting = [.sortedKeys]
        func median(_ body: () throws -> Void) rethrows -> Double {
            var samples: [Double] = []
            for _ in 0..<15 {
                let start = ContinuousClock.now
                for _ in 0..<200 { try body() }
                let elapsed = ContinuousClock.now - start
                samples.append(Double(elapsed.components.attoseconds) / 1e12 / 200 + Double(elapsed.components.seconds) * 1e6 / 200)
            }
            return samples.sorted()[samples.count / 2]
        }
        var report: [String] = []
        for (name, message) in [("welcome", welcome), ("location", location)] {
            let text = SessionCodec.encode(message)
            let oldData = Data(text.utf8)
            let newEncode = median { _ = SessionCodec.encode(message) }
            let newDecode = try median { _ = try SessionCodec.decode(text) }
            let wire = try JSONDecoder().decode(OldWire.self, from: oldData)
            let oldEncode = try median { _ = String(decoding: try old.encode(wire), as: UTF8.self) }
            // The older codec parsed twice: the envelope, then the wire.
            let oldDecode = try median {
                _ = try JSONDecoder().decode(OldEnvelope.self, from: oldData)
                _ = try JSONDecoder().decode(OldWire.self, from: oldData)
            }
            #expect(try SessionCodec.decode(text) == message)
            report.append("\(name) (\(text.utf8.count) bytes): encode \(String(format: "%.2f", newEncode)) µs (Foundation \(String(format: "%.2f", oldEncode))), decode \(String(format: "%.2f", newDecode)) µs (Foundation \(String(format: "%.2f", oldDecode)))")
        }
        print("SessionCodec medians:\n  " + report.joined(separator: "\n  "))
    }
}
