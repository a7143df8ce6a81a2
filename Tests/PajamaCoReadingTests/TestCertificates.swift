import Crypto
import Foundation
import PajamaTestSupport
import SwiftASN1
import X509

/// Certificates for the TLS tests, made in process in a temporary folder (no key of any worth is ever
/// committed): a private certificate authority, and leaf certificates it signs with the names and dates a
/// test asks for (expired, not yet valid, for another host).
struct TestCertificates {
    let dir: TemporaryDirectory
    /// The authority's certificate (PEM), as `pajama join --ca` takes it.
    let caPath: String
    private let caKey: P256.Signing.PrivateKey
    private let caName: DistinguishedName

    static let day: TimeInterval = 86400

    /// Now, to the second (certificates keep whole seconds).
    static var now: Date { Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }

    init(authority: String = "Pajama test authority") throws {
        dir = try TemporaryDirectory(prefix: "pajama-tls")
        caKey = P256.Signing.PrivateKey()
        caName = try DistinguishedName { CommonName(authority) }
        let now = Self.now
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(caKey.publicKey),
            notValidBefore: now.addingTimeInterval(-Self.day), notValidAfter: now.addingTimeInterval(30 * Self.day),
            issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(caKey))
        caPath = try dir.write("ca.pem", try certificate.serializeAsPEM().pemString).path
    }

    /// A server certificate for `names` (addresses or host names), valid from `notBefore` to `notAfter`,
    /// signed by the authority: its certificate and key files (PEM), as `pajama host --tls-cert --tls-key`
    /// take them.
    func leaf(_ name: String, names: [String] = ["127.0.0.1", "localhost"], notBefore: Date = now.addingTimeInterval(-day),
              notAfter: Date = now.addingTimeInterval(30 * day)) throws -> (certificate: String, key: String) {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(names.first ?? name) }
        let alternatives: [GeneralName] = names.map { name in
            let parts = name.split(separator: ".").compactMap { UInt8($0) }
            return parts.count == 4 ? .ipAddress(ASN1OctetString(contentBytes: ArraySlice(parts))) : .dnsName(name)
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: caName, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternatives)
            },
            issuerPrivateKey: .init(caKey))
        let certificatePath = try dir.write("\(name).pem", try certificate.serializeAsPEM().pemString).path
        let keyPath = try dir.write("\(name)-key.pem", key.pemRepresentation).path
        return (certificatePath, keyPath)
    }
}
