import AsyncHTTPClient
import FoundationEssentials
import Glibc
import PajamaBasics
import NIOCore
import NIOPosix

/// Why a connection to the server could not be made, in words with the address: "connection refused by
/// 127.0.0.1:9", "no such host: tales.invalid", "network unreachable (10.9.9.9:80)". Such a failure is
/// known at once (the shared client does not retry connecting: `HTTPStorySource.defaultClient`), so the
/// reader and `validate` say it within a moment instead of after the progress timeout.
enum ConnectionFailure {
    /// The reason, or nil when `error` is not a failure to connect (it failed later, or otherwise).
    static func reason(_ error: any Error, url: URL) -> String? {
        let host = url.host ?? "?"
        let address = "\(host):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return "no such host: \(host)"
            }
            let reasons = error.connectionErrors.compactMap { failure in
                errnoReason(failure.error).map { "\($0) \(failure.target.printable)" }
            }
            return reasons.first ?? (error.connectionErrors.isEmpty ? nil : "could not connect to \(address)")
        }
        if error is SocketAddressError || error is SocketAddressError.UnknownHost { return "no such host: \(host)" }
        if let error = error as? HTTPClientError, error == .connectTimeout { return "could not connect to \(address): no answer" }
        return errnoReason(error).map { "\($0) \(address)" }
    }

    /// "connection refused by", "network unreachable for"... for the errors of a connect() call.
    private static func errnoReason(_ error: any Error) -> String? {
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case ECONNREFUSED: return "connection refused by"
        case ENETUNREACH: return "network unreachable for"
        case EHOSTUNREACH: return "host unreachable:"
        case ETIMEDOUT: return "no answer from"
        case EADDRNOTAVAIL: return "address not available:"
        default: return nil
        }
    }
}

extension SocketAddress {
    /// "127.0.0.1:9", "[::1]:9".
    fileprivate var printable: String {
        switch self {
        case .v4: "\(ipAddress ?? "?"):\(port ?? 0)"
        case .v6: "[\(ipAddress ?? "?")]:\(port ?? 0)"
        default: "\(self)"
        }
    }
}
