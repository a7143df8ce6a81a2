import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// Quiets an address that tries wrong tokens: after `limits.wrongTokenBurst` wrong (or missing) tokens
/// within `limits.wrongTokenWindow`, its wrong tokens are refused with HTTP 429 and `Retry-After`, without a
/// log line each, for a pause that doubles with each burst (up to `limits.longestPause`); each burst is
/// logged once. The right token is never refused for it: followers behind one address (a NAT, a shared
/// machine) must not be locked out by whoever else is there, and no per-address limit slows a guesser who
/// has many addresses; the token's 128 random bits are what stop guessing (docs/security.md, "Wrong
/// tokens"; issue 42, item 8). At most `capacity` addresses are remembered (the oldest forgotten first), so
/// a crowd of addresses cannot grow it without bound.
final class WrongTokenThrottle: Sendable {
    /// What the host does with a request from an address.
    enum Verdict: Equatable {
        case check
        /// Refuse at once; the pause ends in this long.
        case paused(Duration)
    }

    private struct Record {
        var burstStart: ContinuousClock.Instant
        var wrongInBurst = 0
        var pausedUntil: ContinuousClock.Instant?
        var pause: Duration?
        var refusedWhilePaused = 0
        var lastSeen: ContinuousClock.Instant
    }

    private let limits: HostLimits
    private let capacity: Int
    private let records = Locked<[String: Record]>([:])

    init(limits: HostLimits, capacity: Int = 4096) {
        self.limits = limits
        self.capacity = capacity
    }

    /// Whether a request from `address` is looked at (before its token is); `counting`: a refusal now
    /// counts toward the next pause's log line.
    func verdict(for address: String, counting: Bool = true, now: ContinuousClock.Instant = .now) -> Verdict {
        records.withLock { records in
            guard var record = records[address], let until = record.pausedUntil, now < until else { return .check }
            if counting { record.refusedWhilePaused += 1 }
            record.lastSeen = now
            records[address] = record
            return .paused(until - now)
        }
    }

    /// A wrong (or missing) token from `address`; returns the line to log when this starts a pause.
    func wrong(from address: String, now: ContinuousClock.Instant = .now) -> String? {
        records.withLock { records in
            var record = records[address] ?? Record(burstStart: now, lastSeen: now)
            if now - record.burstStart > limits.wrongTokenWindow {
                record.burstStart = now
                record.wrongInBurst = 0
            }
            // A long quiet time forgives earlier bursts.
            if let until = record.pausedUntil, now - until > limits.longestPause * 2 {
                record.pause = nil
            }
            record.wrongInBurst += 1
            record.lastSeen = now
            var line: String?
            if record.wrongInBurst >= limits.wrongTokenBurst {
                let pause = record.pause.map { min($0 * 2, limits.longestPause) } ?? limits.firstPause
                let earlier = record.refusedWhilePaused
                line = "slowing down \(address): \(record.wrongInBurst) wrong tokens in \(Self.seconds(now - record.burstStart)); "
                    + "its wrong tokens are refused for \(Self.seconds(pause)) (HTTP 429; the right token is let in)"
                    + (earlier > 0 ? "; \(earlier) requests were refused during its last pause" : "")
                record.pause = pause
                record.pausedUntil = now + pause
                record.refusedWhilePaused = 0
                record.wrongInBurst = 0
                record.burstStart = now + pause
            }
            records[address] = record
            if records.count > capacity, let oldest = records.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
                records.removeValue(forKey: oldest)
            }
            return line
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return ms < 1000 ? "\(Int(ms.rounded())) ms" : cFormat("%.1f s", ms / 1000)
    }
}
