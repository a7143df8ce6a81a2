import AsyncHTTPClient
import Foundation
import NIOSSL
import PajamaHTTP
import PajamaTestSupport
import Testing
@testable import PajamaCoReading

/// TLS hygiene (issue 42, item 6): the host speaks TLS 1.2 at least; it refuses to serve an expired
/// certificate unless told to; `join` says in words what is wrong with a certificate's dates; `join --ca`
/// trusts a private certificate authority, checking the chain and the host's name. Certificates made in
/// process (`TestCertificates`); a real host on 127.0.0.1.
@Suite(.serialized) struct HostTLSHygieneTests {
    static let token = HostTLSTests.token

    static func host(_ folder: HostedFolder, tls: HostTLS, log: @escaping @Sendable (String) -> Void = { _ in }) -> CoReadingHost {
        CoReadingHost(content: .folder(folder.dir.url), storyId: "shared", storyVersion: "2",
                      configuration: .init(port: 0, ownerName: "bob", tls: tls), token: token, log: log)
    }

    /// The error `work` throws, as text ("" when it throws none).
    static func refusal(_ work: () async throws -> Void) async -> String {
        do {
            try await work()
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func aClientLimitedToTLS11IsRefusedAndTLS12IsSpoken() async throws {
        let folder = try HostedFolder()
        let host = try await HostTLSTests.tlsHost(folder)
        var old = TLSConfiguration.makeClientConfiguration()
        old.certificateVerification = .none
        old.minimumTLSVersion = .tlsv1
        old.maximumTLSVersion = .tlsv11
        let refused = await Self.refusal {
            try await FollowerTLS.handshake(host: "127.0.0.1", port: host.port, configuration: old, serverHostname: nil)
        }
        #expect(refused.contains("UNSUPPORTED_PROTOCOL") || refused.contains("PROTOCOL_VERSION"), "\(refused)")
        var current = old
        current.maximumTLSVersion = .tlsv12
        try await FollowerTLS.handshake(host: "127.0.0.1", port: host.port, configuration: current, serverHostname: nil)
        await host.end()
    }

    @Test func anExpiredCertificateStopsTheHostUnlessAllowedAndJoinSaysWhen() async throws {
        let folder = try HostedFolder()
        let certificates = try TestCertificates()
        let ended = TestCertificates.now.addingTimeInterval(-TestCertificates.day)
        let expired = try certificates.leaf("expired", notBefore: ended.addingTimeInterval(-30 * TestCertificates.day), notAfter: ended)
        let when = CertificateValidity.utc(Int(ended.timeIntervalSince1970))

        let refused = await Self.refusal { _ = try await Self.host(folder, tls: .files(certificate: expired.certificate, key: expired.key)).start() }
        #expect(refused.hasPrefix("--tls-cert \(expired.certificate): the certificate expired on \(when)"), "\(refused)")
        #expect(refused.hasSuffix("renew it, or give --allow-expired to serve it anyway"), "\(refused)")

        let log = Lines()
        let host = Self.host(folder, tls: .files(certificate: expired.certificate, key: expired.key, allowExpired: true), log: { log.append($0) })
        _ = try await host.start()
        let warning = try #require(host.certificateWarning)
        #expect(warning.contains("the certificate expired on \(when)") && warning.contains("serving it anyway (--allow-expired)"), "\(warning)")
        #expect(log.all == [warning])

        // Pinned by its fingerprint or checked against its authority, join says what is wrong, with the date.
        let url = URL(string: host.joinURL)!
        for (fingerprint, ca) in [(host.fingerprint, nil), (nil, certificates.caPath)] {
            let said = await Self.refusal { _ = try await FollowerTLS.configuration(for: url, fingerprint: fingerprint, ca: ca) }
            #expect(said.hasPrefix("the host at \(url.absoluteString) presented a certificate that expired on \(when)"), "\(said)")
            #expect(said.hasSuffix("its owner needs a new one"), "\(said)")
        }
        await host.end()
    }

    @Test func aCertificateNotYetValidIsRefusedByTheHostAndSaidByJoin() async throws {
        let folder = try HostedFolder()
        let certificates = try TestCertificates()
        let begins = TestCertificates.now.addingTimeInterval(2 * TestCertificates.day)
        let future = try certificates.leaf("future", notBefore: begins, notAfter: begins.addingTimeInterval(30 * TestCertificates.day))
        let when = CertificateValidity.utc(Int(begins.timeIntervalSince1970))

        let refused = await Self.refusal { _ = try await Self.host(folder, tls: .files(certificate: future.certificate, key: future.key)).start() }
        #expect(refused.hasPrefix("--tls-cert \(future.certificate): the certificate is not valid until \(when)"), "\(refused)")

        let host = Self.host(folder, tls: .files(certificate: future.certificate, key: future.key, allowExpired: true))
        _ = try await host.start()
        let url = URL(string: host.joinURL)!
        let said = await Self.refusal { _ = try await FollowerTLS.configuration(for: url, fingerprint: nil, ca: certificates.caPath) }
        #expect(said.hasPrefix("the host at \(url.absoluteString) presented a certificate that is not valid until \(when)"), "\(said)")
        await host.end()
    }

    @Test func joinWithAPrivateAuthorityChecksTheChainAndTheName() async throws {
        let folder = try HostedFolder()
        let certificates = try TestCertificates()
        let leaf = try certificates.leaf("host")
        let host = Self.host(folder, tls: .files(certificate: leaf.certificate, key: leaf.key))
        _ = try await host.start()
        #expect(host.certificateWarning == nil)
        let url = URL(string: host.joinURL)!

        let tls = try await FollowerTLS.configuration(for: url, fingerprint: nil, ca: certificates.caPath)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
        var events = FollowerConnection.connect(to: url, token: Self.token, name: "ann", tls: tls, client: client).makeAsyncIterator()
        let first = await events.next()
        if case .welcome(let welcome, let storyURL)? = first {
            #expect(welcome.owner == "bob")
            let source = HTTPStorySource(baseURL: storyURL, client: client, authorization: "Bearer \(Self.token)")
            #expect(String(decoding: try await source.read("beats/start.json"), as: UTF8.self).contains("\"p2\""))
        } else {
            Issue.record("no welcome: \(String(describing: first))")
        }
        try await client.shutdown()

        // The system's authorities, or another authority, do not vouch for it: said before the token is sent.
        let untrusted = await Self.refusal { _ = try await FollowerTLS.configuration(for: url, fingerprint: nil) }
        #expect(untrusted.hasPrefix("the host at \(url.absoluteString) presented a certificate not signed by a certificate authority this machine trusts"),
                "\(untrusted)")
        let other = try TestCertificates(authority: "Another authority")
        let wrong = await Self.refusal { _ = try await FollowerTLS.configuration(for: url, fingerprint: nil, ca: other.caPath) }
        #expect(wrong == "the host at \(url.absoluteString) presented a certificate not signed by the certificate authority in \(other.caPath)",
                "\(wrong)")
        let notPEM = try other.dir.write("not.pem", "no certificate here").path
        let unreadable = await Self.refusal { _ = try await FollowerTLS.configuration(for: url, fingerprint: nil, ca: notPEM) }
        #expect(unreadable.hasPrefix("--ca \(notPEM): "), "\(unreadable)")
        await host.end()

        // Signed by the authority, but for another host.
        let elsewhere = try certificates.leaf("elsewhere", names: ["files.example"])
        let misnamed = Self.host(folder, tls: .files(certificate: elsewhere.certificate, key: elsewhere.key))
        _ = try await misnamed.start()
        let misnamedURL = URL(string: misnamed.joinURL)!
        let name = await Self.refusal { _ = try await FollowerTLS.configuration(for: misnamedURL, fingerprint: nil, ca: certificates.caPath) }
        #expect(name == "the host at \(misnamedURL.absoluteString) presented a certificate that does not name 127.0.0.1", "\(name)")
        await misnamed.end()
    }
}
