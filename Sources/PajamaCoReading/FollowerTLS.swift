import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PajamaCore

/// How a follower trusts an `https://` host: by the system's certificate authorities (a host with a real
/// certificate), or by the SHA-256 fingerprint the host printed (`--fingerprint`, a self-signed
/// certificate). A fingerprint is checked on a first connection that only fetches the certificate; the
/// session's connections then trust that one certificate and nothing else, so the token never travels
/// before the host proved it holds the certificate's key.
public enum FollowerTLS {
    /// Why a host is not trusted.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The TLS configuration for the host at `url` (https): pinned to `fingerprint` when given.
    public static func configuration(for url: URL, fingerprint: String?) async throws -> TLSConfiguration {
        guard let fingerprint else { return .makeClientConfiguration() }
        let wanted = fingerprint.lowercased().filter(\.isHexDigit)
        guard wanted.count == 64 else { throw Refusal(description: "--fingerprint takes the 64 hex digits the host printed") }
        let certificate = try await certificate(host: url.host ?? "127.0.0.1", port: url.port ?? 443)
        let seen = HostTLS.fingerprint(try certificate.toDERBytes())
        guard seen == wanted else {
            throw Refusal(description: "the host at \(url.absoluteString) presented a certificate with fingerprint \(seen), not \(wanted): not the session you were given")
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([certificate])
        // A self-signed certificate names the host as it knew itself; the pin is what is checked.
        configuration.certificateVerification = .noHostnameVerification
        return configuration
    }

    /// Whether the server at `host`:`port` answers a TLS handshake with a certificate within `timeout`
    /// (a `join http://` that got no answer asks, to say "try https://").
    static func speaksTLS(host: String, port: Int, timeout: Duration) async -> Bool {
        (try? await certificate(host: host, port: port, timeout: timeout)) != nil
    }

    /// The leaf certificate the server at `host`:`port` presents, within `timeout`. The handshake is ended by
    /// refusing it as soon as it is seen, so nothing else is sent on that connection.
    static func certificate(host: String, port: Int, timeout: Duration = .seconds(10)) async throws -> NIOSSLCertificate {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        let context = try NIOSSLContext(configuration: configuration)
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let seen = loop.makePromise(of: NIOSSLCertificate.self)
        let once = Locked(false)
        let settle: @Sendable (Result<NIOSSLCertificate, any Error>) -> Void = { result in
            guard once.withLock({ done in defer { done = true }; return !done }) else { return }
            seen.completeWith(result)
        }
        let deadline = loop.scheduleTask(in: HostChannel.timeAmount(timeout)) {
            settle(.failure(Refusal(description: "the host at \(host):\(port) presented no certificate within \(WrongTokenThrottle.seconds(timeout))")))
        }
        defer { deadline.cancel() }
        let channel = try await ClientBootstrap(group: loop)
            .connectTimeout(HostChannel.timeAmount(timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let verify: NIOSSLCustomVerificationCallback = { certificates, promise in
                        if let leaf = certificates.first { settle(.success(leaf)) }
                        promise.succeed(NIOSSLVerificationResult.failed)
                    }
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: nil, customVerificationCallback: verify)
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            .connect(host: host, port: port).get()
        channel.closeFuture.whenComplete { _ in
            settle(.failure(Refusal(description: "the host at \(host):\(port) presented no certificate")))
        }
        defer { channel.close(promise: nil) }
        let certificate: NIOSSLCertificate = try await seen.futureResult.get()
        return certificate
    }
}
