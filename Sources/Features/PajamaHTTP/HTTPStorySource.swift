import AsyncHTTPClient
import FoundationEssentials
import Glibc
import PajamaBasics
import NIOSSL
import PajamaModel

/// A story package at a base URL (`http://` or `https://`): any static web server or CDN, read with
/// one client for the process (`defaultClient`: one connection pool, gzip/deflate decompression).
///
/// - A response larger than `maximumResponseSize` (default 16 MB) is refused: at once when its
///   Content-Length says so, else as soon as that many bytes have arrived (`.tooLarge`).
/// - 404 and 410 are `.notFound`; any other non-2xx status is `.httpStatus` (refusals, 401/403/4xx, are
///   final; 5xx, 408 and 429 are retried by the retry policy).
/// - A body shorter than its Content-Length (the connection closed early, the server went away) is
///   `.truncated`, never a short success.
/// - `progressTimeout` is the longest the server may stay silent: no response head, or no byte of the
///   body, for that long is `.timeout`. A slow transfer that keeps receiving is never cut.
/// - A cut transfer is resumed by the next read of the same file with a Range request carrying the
///   version's ETag (else Last-Modified) in If-Range: a 206 continues it, a 200 (the file changed)
///   starts again from zero, so two versions are never stitched together.
/// - Cancelling the calling task cancels the request.
public struct HTTPStorySource: StorySource {
    public let baseURL: URL
    public let progressTimeout: Duration
    public let maximumResponseSize: Int
    /// The `Authorization` header of every request (a co-reading host's `Bearer` token), if any.
    public let authorization: String?
    let client: HTTPClient
    let partials = PartialDownloads()

    public var location: String { baseURL.absoluteString }
    public var isLocal: Bool { false }

    /// `baseURL` is the package's folder; a URL of its story.json is taken as the folder it is in.
    public init(baseURL: URL, progressTimeout: Duration = .seconds(10), maximumResponseSize: Int = 16 << 20,
                client: HTTPClient = HTTPStorySource.defaultClient, authorization: String? = nil) {
        self.baseURL = Self.packageURL(baseURL)
        self.authorization = authorization
        self.progressTimeout = progressTimeout
        self.maximumResponseSize = maximumResponseSize
        self.client = client
    }

    /// The process's client: AsyncHTTPClient's shared configuration (redirects, decompression limited to
    /// 25:1, certificate verification), except that a connection that cannot be made fails the request at
    /// once (refused, no such host, unreachable: `.unreachable`) instead of being tried again until the
    /// progress timeout, so the reader hears of it within a moment. Never shut down (it lives as long as
    /// the process, as `.shared` does).
    public static let defaultClient = makeClient()

    /// A client with the process's one configuration (the default client's), trusting `tls` when given: a
    /// follower of a TLS host pins the host's certificate with a client of its own, shut down when it leaves.
    public static func makeClient(tls: TLSConfiguration? = nil) -> HTTPClient {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        if let tls { configuration.tlsConfiguration = tls }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The package folder's URL, ending in `/`: `…/story.json` becomes `…/`, `…/tale` becomes `…/tale/`.
    static func packageURL(_ url: URL) -> URL {
        var text = url.absoluteString
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<query]) }
        if text.lowercased().hasSuffix("/story.json") { text.removeLast("story.json".count) }
        if !text.hasSuffix("/") { text += "/" }
        return URL(string: text) ?? url
    }

    /// The URL of a package path (each segment percent-encoded), after checking the path.
    public func url(for path: String) throws(StorySourceError) -> URL {
        do {
            _ = try AssetPath(validating: path)
        } catch {
            throw .invalidPath(path: path, reason: error.description)
        }
        let escaped = path.split(separator: "/").map {
            $0.percentEncodedForPath
        }.joined(separator: "/")
        guard let url = URL(string: escaped, relativeTo: baseURL) else { throw .invalidPath(path: path, reason: "not a valid URL path") }
        return url
    }

    public func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        try await read(path, progress: { _ in })
    }

    public func read(_ path: String, progress: @escaping @Sendable (TransferProgress) -> Void) async throws(StorySourceError) -> [UInt8] {
        let url = try url(for: path)
        if Task.isCancelled { throw .cancelled(path: path) }
        let transfer = HTTPTransfer(
            client: client, url: url, path: path, limit: maximumResponseSize, partials: partials, authorization: authorization,
            progress: progress)
        let watch = IdleWatch()
        let timeout = progressTimeout
        let outcome = await withTaskGroup(of: Result<[UInt8], StorySourceError>?.self) { group in
            group.addTask { await transfer.run(watch: watch) }
            group.addTask {
                // The progress timeout: wakes when the silence would reach `timeout`, and looks again.
                while true {
                    do { try await Task.sleep(until: watch.lastActivity.advanced(by: timeout), clock: .continuous) } catch { return nil }
                    if ContinuousClock.now - watch.lastActivity >= timeout { return .failure(.timeout(path: path, idle: timeout)) }
                }
            }
            var outcome: Result<[UInt8], StorySourceError>?
            while let next = await group.next() {
                if let next {
                    outcome = next
                    break
                }
            }
            group.cancelAll()
            return outcome ?? .failure(.cancelled(path: path))
        }
        return try outcome.get()
    }
}
