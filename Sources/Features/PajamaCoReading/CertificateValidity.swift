import NIOSSL
#if canImport(Glibc)
import Glibc
#endif

/// When a certificate may be used (its notBefore and notAfter, seconds since 1970), and what is wrong with
/// it at a given time, in words with the dates (UTC): the host refuses to serve an expired certificate
/// unless told to, and `pajama join` says why it refuses one instead of BoringSSL's "certificate verify
/// failed" (issue 42, item 6).
struct CertificateValidity: Sendable, Equatable {
    let notBefore: Int
    let notAfter: Int

    init(notBefore: Int, notAfter: Int) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    init(_ certificate: NIOSSLCertificate) {
        self.init(notBefore: Int(certificate.notValidBefore), notAfter: Int(certificate.notValidAfter))
    }

    /// The process's clock, in seconds since 1970.
    static func now() -> Int { Int(time(nil)) }

    /// What is wrong at `now`, as the end of a sentence about the certificate ("expired on 2026-01-01 12:00
    /// UTC", "is not valid until ..."), or nil while it is valid.
    func problem(at now: Int = CertificateValidity.now()) -> String? {
        if now > notAfter {
            return "expired on \(Self.utc(notAfter)) (valid from \(Self.utc(notBefore)); this machine's clock says \(Self.utc(now)))"
        }
        if now < notBefore {
            return "is not valid until \(Self.utc(notBefore)) (this machine's clock says \(Self.utc(now)))"
        }
        return nil
    }

    /// `seconds` since 1970 as "YYYY-MM-DD HH:MM UTC".
    static func utc(_ seconds: Int) -> String {
        var value = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&value, &parts) != nil else { return "\(seconds) s after 1970" }
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }
}
