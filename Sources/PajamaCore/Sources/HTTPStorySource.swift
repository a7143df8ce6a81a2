import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A story package at a base URL (`http://` or `https://`): any static web server or CDN.
public struct HTTPStorySource: StorySource {
    public let baseURL: URL
    public let timeout: TimeInterval
    public let maximumResponseSize: Int
    private let session: URLSession

    public var location: String { baseURL.absoluteString }
    public var isLocal: Bool { false }

    public init(baseURL: URL, timeout: TimeInterval = 10, maximumResponseSize: Int = 16 << 20) {
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : URL(string: baseURL.absoluteString + "/") ?? baseURL
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 3
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    public func read(_ path: String) async throws(StorySourceError) -> [UInt8] {
        do {
            _ = try AssetPath(validating: path)
        } catch {
            throw .invalidPath(path: path, reason: error.description)
        }
        let escaped = path.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
        }.joined(separator: "/")
        guard let url = URL(string: escaped, relativeTo: baseURL) else { throw .invalidPath(path: path, reason: "not a valid URL path") }
        if Task.isCancelled { throw .cancelled(path: path) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: URLRequest(url: url, timeoutInterval: timeout))
        } catch let error as URLError {
            switch error.code {
            case .timedOut: throw .timeout(path: path)
            case .cancelled: throw .cancelled(path: path)
            case .networkConnectionLost: throw .truncated(path: path, expected: -1, received: -1)
            default: throw .io(path: path, message: error.localizedDescription)
            }
        } catch {
            if Task.isCancelled { throw .cancelled(path: path) }
            throw .io(path: path, message: "\(error)")
        }
        guard let http = response as? HTTPURLResponse else { throw .io(path: path, message: "not an HTTP response") }
        if http.statusCode == 404 || http.statusCode == 410 { throw .notFound(path: path) }
        guard (200..<300).contains(http.statusCode) else { throw .httpStatus(path: path, status: http.statusCode) }
        if data.count > maximumResponseSize { throw .tooLarge(path: path, limit: maximumResponseSize) }
        if let lengthText = http.value(forHTTPHeaderField: "Content-Length"), let length = Int(lengthText), length != data.count {
            throw .truncated(path: path, expected: length, received: data.count)
        }
        return [UInt8](data)
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
