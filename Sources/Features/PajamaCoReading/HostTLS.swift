import Crypto
import FoundationEssentials
import Glibc
import PajamaBasics
import NIOSSL
import SwiftASN1
import X509

/// The host's TLS: a certificate and key from files (PEM), or a certificate made for this session
/// (`selfSigned`: an ECDSA P-256 key and a certificate valid for 30 days, for the host's names, made in
/// process). Followers check a self-signed certificate by its SHA-256 fingerprint (`pajama join
/// --fingerprint`), which the host prints with the join line. Either way the host speaks TLS 1.2 or later.
public enum HostTLS: Sendable, Equatable {
    /// `allowExpired`: serve a certificate outside its dates (expired, or not yet valid) with a warning,
    /// instead of refusing to start.
    case files(certificate: String, key: String, allowExpired: Bool = false)
    case selfSigned

    /// The oldest TLS the host speaks: TLS 1.0 and 1.1 are deprecated (RFC 8996).
    static let minimumVersion = TLSVersion.tlsv12

    /// What the server needs, and what it presents.
    struct Identity: Sendable {
        let configuration: TLSConfiguration
        let presented: Presented
    }

    /// The certificate the host presents: its fingerprint, and what is wrong with it when it was served
    /// anyway (`allowExpired`).
    public struct Presented: Sendable, Equatable {
        /// SHA-256 of the leaf certificate's DER bytes, as 64 lower-case hex digits.
        public let fingerprint: String
        /// A sentence for the owner, or nil.
        public let warning: String?
    }

    /// Why TLS could not be set up.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Loads or makes the certificate; `names`: the host's names and addresses (for a self-signed one).
    func identity(names: [String]) throws -> Identity {
        switch self {
        case .files(let certificatePath, let keyPath, let allowExpired):
            let chain: [NIOSSLCertificate]
            let key: NIOSSLPrivateKey
            do {
                chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
            } catch {
                throw Problem(description: "--tls-cert \(certificatePath): not a PEM certificate (\(error))")
            }
            do {
                key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
            } catch {
                throw Problem(description: "--tls-key \(keyPath): not a PEM private key (\(error))")
            }
            guard let leaf = chain.first else { throw Problem(description: "--tls-cert \(certificatePath): no certificate in it") }
            var warning: String?
            if let problem = CertificateValidity(leaf).problem() {
                guard allowExpired else {
                    throw Problem(description: "--tls-cert \(certificatePath): the certificate \(problem); renew it, or give --allow-expired to serve it anyway")
                }
                warning = "--tls-cert \(certificatePath): the certificate \(problem); serving it anyway (--allow-expired), "
                    + "but `pajama join` refuses it"
            }
            let der = try leaf.toDERBytes()
            return Identity(configuration: Self.server(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)),
                            presented: Presented(fingerprint: Self.fingerprint(der), warning: warning))
        case .selfSigned:
            let key = P256.Signing.PrivateKey()
            let subject = try DistinguishedName {
                CommonName("pajama host")
                OrganizationName("Pajama co-reading session")
            }
            var alternatives: [GeneralName] = []
            for name in Set(names + ["localhost", "127.0.0.1", "::1"]) {
                if let address = IPv4Address(name) { alternatives.append(.ipAddress(ASN1OctetString(contentBytes: address.bytes[...]))) }
                else if let address = IPv6Address(name) { alternatives.append(.ipAddress(ASN1OctetString(contentBytes: address.bytes[...]))) }
                else if !name.isEmpty { alternatives.append(.dnsName(name)) }
            }
            let now = Date()
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(30 * 86400),
                issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    SubjectAlternativeNames(alternatives)
                },
                issuerPrivateKey: .init(key))
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            let der = serializer.serializedBytes
            let configuration = Self.server(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: der, format: .der))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)))
            return Identity(configuration: configuration, presented: Presented(fingerprint: Self.fingerprint(der), warning: nil))
        }
    }

    /// A server configuration of `certificateChain` and `privateKey`, TLS 1.2 at least (NIOSSL's default
    /// accepts TLS 1.0).
    private static func server(certificateChain: [NIOSSLCertificateSource], privateKey: NIOSSLPrivateKeySource) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: certificateChain, privateKey: privateKey)
        configuration.minimumTLSVersion = minimumVersion
        return configuration
    }

    /// SHA-256 of `der`, as 64 lower-case hex digits.
    static func fingerprint(_ der: [UInt8]) -> String {
        SHA256.hash(data: der).map { cFormat("%02x", $0) }.joined()
    }
}

/// An IPv4 address's four bytes, parsed from its dotted text.
private struct IPv4Address {
    let bytes: [UInt8]
    init?(_ text: String) {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        bytes = withUnsafeBytes(of: &address) { Array($0) }
    }
}

/// An IPv6 address's sixteen bytes, parsed from its text.
private struct IPv6Address {
    let bytes: [UInt8]
    init?(_ text: String) {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        bytes = withUnsafeBytes(of: &address) { Array($0) }
    }
}
