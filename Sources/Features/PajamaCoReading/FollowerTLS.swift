import FoundationEssentials
import Glibc
import PajamaBasics
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import PajamaModel

/// How a follower trusts an `https://` host: by the system's certificate authorities (a host with a real
/// certificate), by a private certificate authority (`--ca FILE`), or by the SHA-256 fingerprint the host
/// printed (`--fingerprint`, a self-signed certificate). A first connection only fetches the certificate,
/// says in words what is wrong with its dates, and checks the fingerprint, or the chain and the host's name
/// as the session's connections will; those then trust that certificate (the fingerprint) or that authority
/// and nothing else, so the token never travels before the host proved it holds the certificate's key.
public enum FollowerTLS {
    /// Why a host is not trusted.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// The TLS configuration for the host at `url` (https): pinned to `fingerprint`, or trusting the
    /// certificate authorities of the PEM file `ca`, when given; else the system's.
    public static func configuration(for url: URL, fingerprint: String?, ca: String? = nil) async throws -> TLSConfiguration {
        let host = url.host ?? "127.0.0.1", port = url.port ?? 443
        let wanted = fingerprint.map { $0.lowercased().filter(\.isHexDigit) }
        if let wanted, wanted.count != 64 { throw Refusal(description: "--fingerprint takes the 64 hex digits the host printed") }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = HostTLS.minimumVersion
        var authority = "a certificate authority this machine trusts (a self-signed host: --fingerprint; a private authority: --ca FILE)"
        if let ca {
            let roots: [NIOSSLCertificate]
            do {
                roots = try NIOSSLCertificate.fromPEMFile(ca)
            } catch {
                throw Refusal(description: "--ca \(ca): not a PEM certificate (\(error))")
            }
            guard !roots.isEmpty else { throw Refusal(description: "--ca \(ca): no certificate in it") }
            configuration.trustRoots = .certificates(roots)
            authority = "the certificate authority in \(ca)"
        }
        let certificate = try await certificate(host: host, port: port)
        // Its dates first, whoever vouches for it: BoringSSL would say only "certificate verify failed".
        if let problem = CertificateValidity(certificate).problem() {
            throw Refusal(description: "the host at \(url.absoluteString) presented a certificate that \(problem); its owner needs a new one")
        }
        if let wanted {
            let seen = HostTLS.fingerprint(try certificate.toDERBytes())
            guard seen == wanted else {
                throw Refusal(description: "the host at \(url.absoluteString) presented a certificate with fingerprint \(seen), not \(wanted): not the session you were given")
            }
            configuration.trustRoots = .certificates([certificate])
            // A self-signed certificate names the host as it knew itself; the pin is what is checked.
            configuration.certificateVerification = .noHostnameVerification
            return configuration
        }
        // The chain and the name, checked as the session's connections check them, on a connection that sends
        // nothing else; a host joined by its address is checked against the certificate's addresses (TLS sends
        // no address as a server name).
        let byAddress = isAddress(host)
        do {
            try await handshake(host: host, port: port, configuration: configuration, serverHostname: byAddress ? nil : host)
        } catch let error as NIOSSLExtraError where error == .failedToValidateHostname {
            throw Refusal(description: "the host at \(url.absoluteString) presented a certificate that does not name \(host)")
        } catch let error as NIOSSLError {
            guard "\(error)".contains("CERTIFICATE_VERIFY_FAILED") else { throw error }
            throw Refusal(description: "the host at \(url.absoluteString) presented a certificate not signed by \(authority)")
        }
        // The session's WebSocket names a host joined by its address otherwise (`FollowerConnection`): its
        // name was checked just now; the chain is checked on every connection.
        if byAddress { configuration.certificateVerification = .noHostnameVerification }
        return configuration
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }

    /// A TLS handshake with the server at `host`:`port` under `configuration` (its trust and versions),
    /// within `timeout`; throws what the handshake threw (NIOSSL's errors: the chain, the name). Nothing is
    /// sent on that connection after the handshake.
    static func handshake(host: String, port: Int, configuration: TLSConfiguration, serverHostname: String?,
                          timeout: Duration = .seconds(10)) async throws {
        let context = try NIOSSLContext(configuration: configuration)
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let done = loop.makePromise(of: Void.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(HostChannel.timeAmount(timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverHostname))
                        try channel.pipeline.syncOperations.addHandler(
                            HandshakeWatch(done, timeout: timeout, late: Refusal(description: "the host at \(host):\(port) did not finish a TLS handshake within \(WrongTokenThrottle.seconds(timeout))")))
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            done.fail(error)  // settled, not left to leak (see `certificate`)
            throw error
        }
        defer { channel.close(promise: nil) }
        try await done.futureResult.get()
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
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
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
        } catch {
            // Nothing listens (the connection refused): the promise is settled, not left to leak (a debug
            // build stops the process on a promise dropped unsettled).
            settle(.failure(error))
            throw error
        }
        channel.closeFuture.whenComplete { _ in
            settle(.failure(Refusal(description: "the host at \(host):\(port) presented no certificate")))
        }
        defer { channel.close(promise: nil) }
        let certificate: NIOSSLCertificate = try await seen.futureResult.get()
        return certificate
    }
}

/// Settles a promise with a TLS handshake's outcome: completed, the first error, the connection closed
/// before, or `timeout` passed. On the channel's event loop.
private final class HandshakeWatch: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    private enum State {
        case waiting(Scheduled<Void>?)
        case settled
    }

    private let done: EventLoopPromise<Void>
    private let timeout: Duration
    private let late: any Error
    private var state = State.waiting(nil)

    init(_ done: EventLoopPromise<Void>, timeout: Duration, late: any Error) {
        self.done = done
        self.timeout = timeout
        self.late = late
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let late = late
        state = .waiting(context.eventLoop.scheduleTask(in: HostChannel.timeAmount(timeout)) { bound.value.settle(.failure(late)) })
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent { settle(.success(())) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        settle(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        settle(.failure(FollowerTLS.Refusal(description: "the host closed the connection during the TLS handshake")))
        context.fireChannelInactive()
    }

    private func settle(_ result: Result<Void, any Error>) {
        guard case .waiting(let deadline) = state else { return }
        state = .settled
        deadline?.cancel()
        done.completeWith(result)
    }
}
