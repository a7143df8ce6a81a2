import FoundationEssentials
import PajamaBasics
import NIOSSL

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
            let now = Date()
            let made = try CertificateMaker(
                commonName: "pajama host", organization: "Pajama co-reading session", names: names + ["localhost", "127.0.0.1", "::1"],
                notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(30 * 86400)).make()
            let der = made.certificateDER
            let configuration = Self.server(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: der, format: .der))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(made.keyPEM.utf8), format: .pem)))
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
        hexDigits(sha256(der))
    }
}
