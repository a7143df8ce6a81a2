import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A story package at a base URL (`http://` or `https://`): any static web server or CDN.
///
/// - A response larger than `maximumResponseSize` (default 16 MB) is refused: at once when its
///   Content-Length says so, else as soon as that many bytes have arrived (`.tooLarge`).
/// - 404 and 410 are `.notFound`; any other non-2xx status is `.httpStatus` (the retry policy treats
///   it as a transient network failure).
/// - A body shorter than its Content-Length (the connection closed early, the server went away) is
///   `.truncated`, never a short success.
/// - `timeout` is the longest the server may stay silent (no byte received) and a third of the longest
///   a whole response may take; the retry policy adds its own per-attempt timeout on top.
/// - Cancelling the calling task cancels the request.
public struct HTTPStorySource: StorySource {
    public let baseURL: URL
    public let timeout: TimeInterval
    public let maximumResponseSize: Int
    private let connection: Connection

    public var location: String { baseURL.absoluteString }
    public var isLocal: Bool { false }

    public init(baseURL: URL, timeout: TimeInterval = 10, maximumResponseSize: Int = 16 << 20) {
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : URL(string: baseURL.absoluteString + "/") ?? baseURL
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        connection = Connection(timeout: timeout)
    }

    /// The URL of a package path (each segment percent-encoded), after checking the path.
    public func url(for path: String) throws(StorySourceError) -> URL {
        do {
            _ = try AssetPath(validating: path)
        } catch {
            throw .invalidPath(path: path, reason: error.description)
        }
        let escaped = path.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
        }.joined(separator: "/")
        guard let url = URL(string: escaped, relativeTo: baseURL) else { throw .invalidPath(path: path, reason: "not a valid URL path") }
        return url
    }

    public func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        let url = try url(for: path)
        if Task.isCancelled { throw .cancelled(path: path) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let task = connection.session.dataTask(with: request)
        let handle = TaskHandle(task)
        let transfers = connection.transfers, limit = maximumResponseSize
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    transfers.start(task, path: path, limit: limit, continuation: continuation)
                }
            } onCancel: {
                handle.cancel()
            }
        } catch let error as StorySourceError {
            throw error
        } catch {
            throw .io(path: path, message: "\(error)")
        }
    }

    /// The session and its delegate; the session is invalidated (breaking its hold on the delegate)
    /// when the last copy of the source goes away.
    private final class Connection: Sendable {
        let session: URLSession
        let transfers = HTTPTransfers()

        init(timeout: TimeInterval) {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.timeoutIntervalForResource = timeout * 3
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
        }

        deinit { session.finishTasksAndInvalidate() }
    }

    /// Lets the cancellation handler (which may run on any thread) cancel the request.
    private struct TaskHandle: @unchecked Sendable {
        // Safe: URLSessionTask.cancel() is thread-safe; nothing else is called through the handle.
        let task: URLSessionDataTask
        init(_ task: URLSessionDataTask) { self.task = task }
        func cancel() { task.cancel() }
    }
}

/// Opens a story argument: a URL for `http://`/`https://`, else a folder.
public enum StorySources {
    public static func open(_ argument: String) -> any StorySource {
        let lower = argument.lowercased()
        if (lower.hasPrefix("http://") || lower.hasPrefix("https://")), let url = URL(string: argument) {
            return HTTPStorySource(baseURL: url)
        }
        return FolderStorySource(folder: argument)
    }
}
