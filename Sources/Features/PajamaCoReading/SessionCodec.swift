import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaJSON

/// Encodes and decodes `SessionMessage`s: versioned JSON, at most 64 KB a message.
///
/// A message that is too large, not JSON, of an unknown version or type, or missing a field is refused
/// with a `SessionCodec.Problem`, whose description is the WebSocket close reason (short enough for a
/// close frame's 123 bytes).
public enum SessionCodec {
    /// The only protocol version.
    public static let version = 1
    /// The largest message accepted, in bytes.
    public static let maximumSize = 64 * 1024

    /// Why a message was refused.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLarge(size: Int)
        case malformed(String)
        case unsupportedVersion(Int)
        case unknownType(String)
        case binary

        public var description: String {
            switch self {
            case .tooLarge(let size): "message too large: \(size) bytes (limit \(SessionCodec.maximumSize))"
            case .malformed(let reason): String("malformed message: \(reason)".prefix(120))
            case .unsupportedVersion(let v): "unsupported protocol version \(v) (this reader speaks \(SessionCodec.version))"
            case .unknownType(let type): String("unknown message type \"\(type.prefix(40))\"".prefix(120))
            case .binary: "binary messages are not part of the protocol (JSON text only)"
            }
        }
    }

    /// The message as one JSON text.
    public static func encode(_ message: SessionMessage) -> String {
        var wire = Wire(v: version, type: message.type)
        switch message {
        case .hello(let name, let countOnly):
            wire.name = name
            if countOnly { wire.countOnly = true }
        case .welcome(let welcome):
            wire.story = welcome.story
            wire.owner = welcome.owner
            wire.location = welcome.location
            // A welcome with names (to a follower that did not say `countOnly`) has them as ever; a
            // count-only welcome has the count and no names.
            if !welcome.participants.isEmpty || welcome.followers == 0 { wire.participants = welcome.participants }
            if welcome.followers != welcome.participants.count { wire.followers = welcome.followers }
            wire.beat = welcome.beat
            if welcome.viaRelay { wire.relay = true }
            wire.votes = welcome.votes?.counts
        case .location(let location): wire.location = location
        case .beat(let sync): wire.beat = sync
        case .cue(let path, let cue):
            wire.path = path.value
            switch cue {
            case .pageEnter: wire.cue = "pageEnter"
            case .tap: wire.cue = "tap"
            case .choice(let index):
                wire.cue = "choice"
                wire.choice = index
            }
        case .participants(let names): wire.participants = names
        case .followers(let count): wire.followers = count
        case .end(let name): wire.name = name
        case .vote(let location, let choice):
            wire.location = location
            wire.choice = choice
        case .votes(let votes):
            wire.location = votes.location
            wire.votes = votes.counts
        }
        // Encoding plain strings and numbers cannot fail.
        return (try? JSONValueEncoder.sorted.encodeString(wire)) ?? ""
    }

    /// Decodes one message's text, as a result (for loops that refuse and close rather than throw).
    public static func parse(_ text: String) -> Result<SessionMessage, Problem> {
        do throws(Problem) {
            return .success(try decode(text))
        } catch {
            return .failure(error)
        }
    }

    /// Decodes one message's text.
    public static func decode(_ text: String) throws(Problem) -> SessionMessage {
        try decode(Array(text.utf8))
    }

    /// Decodes one message's bytes.
    public static func decode(_ bytes: [UInt8]) throws(Problem) -> SessionMessage {
        if bytes.count > maximumSize { throw .tooLarge(size: bytes.count) }
        // Parsed once; the envelope first, so a newer version is said as such rather than as a field it lacks.
        let decoder = JSONValueDecoder()
        let json: JSON
        let envelope: Envelope
        do {
            json = try JSONParser.parse(bytes)
            envelope = try decoder.decode(Envelope.self, from: json)
        } catch {
            throw .malformed(Self.reason(error))
        }
        guard envelope.v == version else { throw .unsupportedVersion(envelope.v) }
        let wire: Wire
        do {
            wire = try decoder.decode(Wire.self, from: json)
        } catch {
            throw .malformed(Self.reason(error))
        }
        func need<T>(_ value: T?, _ field: String) throws(Problem) -> T {
            guard let value else { throw .malformed("a \(wire.type) message needs \"\(field)\"") }
            return value
        }
        /// A tally: at most `SessionVotes.maximumChoices` counts, none negative.
        func counts(_ value: [Int]?) throws(Problem) -> [Int]? {
            guard let value else { return nil }
            guard value.count <= SessionVotes.maximumChoices else { throw .malformed("a \(wire.type) message has \(value.count) vote counts") }
            guard value.allSatisfy({ $0 >= 0 }) else { throw .malformed("a \(wire.type) message has a negative vote count") }
            return value
        }
        func count(_ value: Int?) throws(Problem) -> Int? {
            guard let value else { return nil }
            guard value >= 0 else { throw .malformed("a \(wire.type) message's \"followers\" is negative") }
            return value
        }
        switch wire.type {
        case "hello": return .hello(name: try need(wire.name, "name"), countOnly: wire.countOnly ?? false)
        case "welcome":
            var welcome = SessionWelcome(
                story: try need(wire.story, "story"), owner: try need(wire.owner, "owner"), location: wire.location,
                participants: wire.participants ?? [], followers: try count(wire.followers), beat: wire.beat)
            welcome.viaRelay = wire.relay ?? false
            welcome.votes = try counts(wire.votes).map { SessionVotes(location: wire.location, counts: $0) }
            return .welcome(welcome)
        case "location": return .location(try need(wire.location, "location"))
        case "beat": return .beat(try need(wire.beat, "beat"))
        case "cue":
            let raw = try need(wire.path, "path")
            let path: AssetPath
            do {
                path = try AssetPath(validating: raw)
            } catch {
                throw .malformed("cue path \(StoryFormatError.printable(String(raw.prefix(40)))): \(error)")
            }
            switch try need(wire.cue, "cue") {
            case "pageEnter": return .cue(path, .pageEnter)
            case "tap": return .cue(path, .tap)
            case "choice": return .cue(path, .choice(try need(wire.choice, "choice")))
            case let other: throw .malformed("unknown cue \"\(other.prefix(20))\"")
            }
        case "participants": return .participants(try need(wire.participants, "participants"))
        case "followers": return .followers(try count(need(wire.followers, "followers")) ?? 0)
        case "end": return .end(name: try need(wire.name, "name"))
        case "vote":
            if let choice = wire.choice, choice < 0 { throw .malformed("a vote's \"choice\" is negative") }
            return .vote(location: try need(wire.location, "location"), choice: wire.choice)
        case "votes": return .votes(SessionVotes(location: wire.location, counts: try need(counts(wire.votes), "votes")))
        default: throw .unknownType(wire.type)
        }
    }

    /// A decoding error in a few words (the field, not the whole coding path dump).
    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            "wrong type at \"\(JSONValueDecoder.path(context.codingPath))\""
        case .dataCorrupted(let context)?:
            context.codingPath.isEmpty ? "not JSON" : "bad value at \"\(JSONValueDecoder.path(context.codingPath))\""
        default: "not JSON"
        }
    }

    /// The fields every message has.
    private struct Envelope: Decodable {
        var v: Int
        var type: String
    }

    /// Every field of every message type (absent ones are left out of the JSON).
    private struct Wire: Codable {
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
        /// The number of followers (`followers`, a count-only `welcome`).
        var followers: Int?
        /// `hello`: the follower wants `followers` counts, not `participants` names.
        var countOnly: Bool?
        var beat: BeatSync?
        /// `welcome`: published through a relay node (a host before 0.4 and a reader before it ignore it).
        var relay: Bool?
        /// `votes`, a `welcome` of a session that takes votes: the votes for each choice of the owner's page.
        var votes: [Int]?
    }
}
