import Foundation
import PajamaTestSupport
@testable import PajamaCoReading

/// Certificates for the TLS tests, made in process in a temporary folder (no key of any worth is ever
/// committed): a private certificate authority, and leaf certificates it signs with the names and dates a
/// test asks for (expired, not yet valid, for another host). Made by the host's own `CertificateMaker`.
struct TestCertificates {
    let dir: TemporaryDirectory
    /// The authority's certificate (PEM), as `pajama join --ca` takes it.
    let caPath: String
    private let authority: CertificateMaker.Made

    static let day: TimeInterval = 86400

    /// Now, to the second (certificates keep whole seconds).
    static var now: Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }

    init(authority name: String = "Pajama test authority") throws {
        dir = try TemporaryDirectory(prefix: "pajama-tls")
        let now = Self.now
        authority = try CertificateMaker(commonName: name, notBefore: now.addingTimeInterval(-Self.day),
                                         notAfter: now.addingTimeInterval(30 * Self.day), authority: true).make()
        caPath = try dir.write("ca.pem", authority.certificatePEM).path
    }

    /// A server certificate for `names` (addresses or host names), valid from `notBefore` to `notAfter`,
    /// signed by the authority: its certificate and key files (PEM), as `pajama host --tls-cert --tls-key`
    /// take them.
    func leaf(_ name: String, names: [String] = ["127.0.0.1", "localhost"], notBefore: Date = now.addingTimeInterval(-day),
              notAfter: Date = now.addingTimeInterval(30 * day)) throws -> (certificate: String, key: String) {
        let made = try CertificateMaker(commonName: names.first ?? name, names: names, notBefore: notBefore, notAfter: notAfter,
                                        server: true, issuer: authority).make()
        let certificatePath = try dir.write("\(name).pem", made.certificatePEM).path
        let keyPath = try dir.write("\(name)-key.pem", made.keyPEM).path
        return (certificatePath, keyPath)
    }
}
