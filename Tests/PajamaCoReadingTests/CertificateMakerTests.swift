import Foundation
import NIOSSL
import Testing
@testable import PajamaCoReading

/// The certificates the host makes through libcrypto (CCertificate): the names, dates and key it was asked
/// for, readable by NIOSSL (the TLS the host and followers speak); SHA-256 as the standard's vectors.
struct CertificateMakerTests {
    @Test func sha256IsTheStandardsDigest() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func aSelfSignedCertificateHasTheNamesDatesAndKeyAskedFor() throws {
        let notBefore = Date(timeIntervalSince1970: 1_800_000_000)
        let made = try CertificateMaker(commonName: "pajama host", organization: "Pajama co-reading session",
                                        names: ["reading.example", "10.1.2.3", "::1", "reading.example", "no,commas here"],
                                        notBefore: notBefore, notAfter: notBefore.addingTimeInterval(86400)).make()
        let certificate = try NIOSSLCertificate(bytes: made.certificateDER, format: .der)
        #expect(try certificate.toDERBytes() == NIOSSLCertificate(bytes: Array(made.certificatePEM.utf8), format: .pem).toDERBytes())
        #expect(certificate.notValidBefore == 1_800_000_000)
        #expect(certificate.notValidAfter == 1_800_086_400)
        let names = certificate._subjectAlternativeNames().map { name -> String in
            let bytes = name.contents.withUnsafeBufferPointer { Array($0) }
            switch name.nameType {
            case .dnsName: return "DNS:" + String(decoding: bytes, as: UTF8.self)
            case .ipAddress: return "IP:" + bytes.map(String.init).joined(separator: ".")
            default: return "other"
            }
        }
        #expect(names == ["DNS:reading.example", "IP:10.1.2.3", "IP:" + ([UInt8](repeating: 0, count: 15) + [1]).map(String.init).joined(separator: ".")])
        // The key is the certificate's: NIOSSL serves them together.
        let key = try NIOSSLPrivateKey(bytes: Array(made.keyPEM.utf8), format: .pem)
        _ = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key)))
        #expect(CertificateMaker.alternativeNames(["a.example", "127.0.0.1", "bad name", ""]) == "DNS:a.example,IP:127.0.0.1")
    }

    @Test func aCertificateSignedByAnAuthorityNamesItAsIssuer() throws {
        let now = Date()
        let authority = try CertificateMaker(commonName: "Test authority", notBefore: now, notAfter: now.addingTimeInterval(3600), authority: true).make()
        let leaf = try CertificateMaker(commonName: "leaf", names: ["127.0.0.1"], notBefore: now, notAfter: now.addingTimeInterval(3600),
                                        server: true, issuer: authority).make()
        #expect(leaf.certificateDER != authority.certificateDER)
        #expect(throws: CertificateMaker.Problem.self) {
            try CertificateMaker(commonName: "leaf", notBefore: now, notAfter: now,
                                 issuer: .init(certificatePEM: "not a certificate", keyPEM: authority.keyPEM, certificateDER: [])).make()
        }
    }
}
