import FoundationEssentials
import Glibc
import PajamaBasics

/// The host's token: who may read the story and join the session.
public struct HostAccess: Sendable {
    /// The shortest token a host accepts (a random one has 32 hex digits).
    public static let minimumTokenLength = 16

    public let token: String

    public init(token: String) {
        self.token = token
    }

    /// Why `token` cannot be a host's token, or nil when it can.
    public static func problem(with token: String) -> String? {
        if token.contains(where: { $0.isWhitespace || $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) {
            return "a token has no spaces or control characters"
        }
        if token.count < minimumTokenLength {
            return "a token of \(token.count) characters is too easy to guess: give at least \(minimumTokenLength) (or none, and the host makes a random one)"
        }
        return nil
    }

    /// A random token of 128 bits, as 32 hex digits.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether a request carries the token: `Authorization: Bearer T` or `?token=T` in `target` (the path
    /// and query of the request line).
    public func admits(authorization: String?, target: String) -> Bool {
        if let authorization, authorization.hasPrefix("Bearer "), Self.same(String(authorization.dropFirst("Bearer ".count)), token) {
            return true
        }
        if let given = Self.queryValue("token", in: target) { return Self.same(given, token) }
        return false
    }

    /// Whether a request tried a token at all (a wrong one, rather than none).
    static func triedAToken(authorization: String?, target: String) -> Bool {
        authorization != nil || queryValue("token", in: target) != nil
    }

    /// The value of `name` in the query of `target` (percent-decoded).
    static func queryValue(_ name: String, in target: String) -> String? {
        guard target.contains("?"), let components = URLComponents(string: target) else { return nil }
        return components.queryItems?.first { $0.name == name }?.value
    }

    /// Compares in time that does not depend on where the first difference is.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
