import CCertificate
import FoundationEssentials
import Glibc
import PajamaBasics

/// Makes an ECDSA P-256 key and an X.509 v3 certificate for it, signed with SHA-256, through the system's
/// OpenSSL libcrypto (the CCertificate shim): the host's self-signed certificate, and the TLS tests'
/// private authority and the certificates it signs.
struct CertificateMaker {
    /// Who the certificate is for.
    var commonName: String
    var organization: String?
    /// The host names and addresses the certificate is good for (subjectAltName): an address where it
    /// parses as IPv4 or IPv6, else a DNS name; names with characters no host name has are left out.
    var names: [String] = []
    var notBefore: Date
    var notAfter: Date
    /// A certificate authority (CA:TRUE, keyCertSign) rather than an end entity (CA:FALSE).
    var authority = false
    /// An end entity a TLS server presents (digitalSignature, extendedKeyUsage serverAuth).
    var server = false
    /// The authority that signs it (its certificate and key, PEM); nil: self-signed.
    var issuer: Made?

    /// A key and its certificate.
    struct Made: Sendable {
        let certificatePEM: String
        let keyPEM: String
        let certificateDER: [UInt8]
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    func make() throws -> Made {
        // C copies of the texts for the request, freed when it is made.
        let texts = [commonName, organization, Self.alternativeNames(names), issuer?.certificatePEM, issuer?.keyPEM].map { text -> UnsafeMutablePointer<CChar>? in text.flatMap { strdup($0) } }
        defer { for text in texts { free(text) } }
        var request = pajama_certificate_request(
            common_name: UnsafePointer(texts[0]), organization: UnsafePointer(texts[1]), alternative_names: UnsafePointer(texts[2]),
            not_before: Int64(notBefore.timeIntervalSince1970.rounded(.down)), not_after: Int64(notAfter.timeIntervalSince1970.rounded(.down)),
            authority: authority ? 1 : 0, server: server ? 1 : 0, issuer_certificate_pem: UnsafePointer(texts[3]), issuer_key_pem: UnsafePointer(texts[4]))
        var made = pajama_certificate()
        guard pajama_certificate_make(&request, &made) == 0 else {
            let message = withUnsafeBytes(of: made.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw Problem(description: "a certificate could not be made (\(message))")
        }
        defer { pajama_certificate_free(&made) }
        return Made(certificatePEM: String(cString: made.certificate_pem), keyPEM: String(cString: made.key_pem),
                    certificateDER: Array(UnsafeBufferPointer(start: made.certificate_der, count: made.certificate_der_length)))
    }

    /// `names` in OpenSSL's subjectAltName syntax ("IP:127.0.0.1,DNS:localhost"), each once, in order.
    static func alternativeNames(_ names: [String]) -> String {
        var seen = Set<String>()
        var entries: [String] = []
        for name in names where !name.isEmpty && seen.insert(name).inserted {
            if isAddress(name) {
                entries.append("IP:" + name)
            } else if name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-._*".unicodeScalars.contains($0) }) {
                entries.append("DNS:" + name)
            }
        }
        return entries.joined(separator: ",")
    }

    private static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}

/// `bytes` as lower-case hex digits, two a byte (fingerprints, relay channel names).
func hexDigits(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { cFormat("%02x", $0) }.joined()
}

/// SHA-256 of `bytes` (libcrypto's).
func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: 32)
    bytes.withUnsafeBytes { input in
        digest.withUnsafeMutableBufferPointer { output in pajama_sha256(input.baseAddress, input.count, output.baseAddress) }
    }
    return digest
}
