import AsyncHTTPClient
import FoundationEssentials
import Glibc
import PajamaBasics
import Logging
import PajamaModel
import PajamaStorage

/// When a transfer last received something (its start, the response head, a part of the body).
final class IdleWatch: Sendable {
    private let last = Locked(ContinuousClock.now)
    var lastActivity: ContinuousClock.Instant { last.withLock { $0 } }
    func touch() { last.withLock { $0 = .now } }
}

/// One GET of one file: resumes a kept part with Range/If-Range, checks the status and the size limit,
/// receives the body (reporting progress, touching the watch), and keeps what arrived when it is cut.
struct HTTPTransfer: Sendable {
    let client: HTTPClient
    let url: URL
    let path: String
    let limit: Int
    let partials: PartialDownloads
    let authorization: String?
    let progress: @Sendable (TransferProgress) -> Void

    func run(watch: IdleWatch) async -> Result<[UInt8], StorySourceError> {
        let resume = partials.take(path)
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "pajama/\(PajamaVersion.current)")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let resume {
            request.headers.add(name: "Range", value: "bytes=\(resume.bytes.count)-")
            request.headers.add(name: "If-Range", value: resume.validator)
            request.headers.add(name: "Accept-Encoding", value: "identity")
        } else {
            request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: .distantFuture)
        } catch {
            if let resume { partials.keep(resume, for: path) }  // nothing was said about the file: try again later
            if Task.isCancelled { return .failure(.cancelled(path: path)) }
            if let reason = ConnectionFailure.reason(error, url: url) { return .failure(.unreachable(path: path, reason: reason)) }
            return .failure(.io(path: path, message: Self.describe(error)))
        }
        watch.touch()
        let status = Int(response.status.code)
        if !(200..<300).contains(status) {
            PajamaLog.http.warning("HTTP \(status) refused for \(path)", metadata: ["url": "\(url.absoluteString)", "status": "\(status)"])
        }
        if status == 404 || status == 410 { return .failure(.notFound(path: path)) }
        guard (200..<300).contains(status) else {
            if status == 416 { return .failure(.io(path: path, message: "the server could not resume the download (HTTP 416)")) }
            return .failure(.httpStatus(path: path, status: status))
        }
        let headers = response.headers
        let encoded = (headers.first(name: "Content-Encoding")?.lowercased() ?? "identity") != "identity"
        var expected = encoded ? nil : headers.first(name: "Content-Length").flatMap { Int($0) }
        var body: [UInt8] = []
        if status == 206 {
            guard let resume, !encoded, let range = ContentRange(headers.first(name: "Content-Range")), range.start == resume.bytes.count
            else {
                return .failure(.io(path: path, message: "the server answered a part that does not continue the download"))
            }
            body = resume.bytes
            expected = range.total
        }
        if let expected, expected > limit { return .failure(.tooLarge(path: path, limit: limit)) }
        // What identifies this version of the file (a weak ETag cannot be used in If-Range).
        let eTag = headers.first(name: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        let validator = encoded ? nil : (eTag ?? headers.first(name: "Last-Modified"))
        func keepPart() {
            guard let validator, let expected, body.count < expected else { return }
            partials.keep(.init(bytes: body, validator: validator, total: expected), for: path)
        }
        progress(TransferProgress(received: body.count, expected: expected))
        do {
            for try await chunk in response.body {
                watch.touch()
                body.append(contentsOf: chunk.readableBytesView)
                if body.count > limit { return .failure(.tooLarge(path: path, limit: limit)) }
                progress(TransferProgress(received: body.count, expected: expected))
            }
        } catch {
            keepPart()
            if Task.isCancelled { return .failure(.cancelled(path: path)) }
            if let expected, body.count < expected { return .failure(.truncated(path: path, expected: expected, received: body.count)) }
            return .failure(.io(path: path, message: Self.describe(error)))
        }
        if let expected, body.count != expected {
            keepPart()
            return .failure(.truncated(path: path, expected: expected, received: body.count))
        }
        return .success(body)
    }

    /// A client error in words.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            if error == .redirectCycleDetected { return "the server redirects in a loop" }
            if error == .redirectLimitReached { return "too many redirects" }
            return "\(error)"
        }
        // NIOHTTPCompression's error when a body inflates more than the shared client's 25:1 ratio.
        if String(describing: type(of: error)) == "DecompressionError", "\(error)".contains("limit") {
            return "refused: the compressed body decompresses to more than 25 times its size"
        }
        return "\(type(of: error)): \(error)"
    }
}

/// `Content-Range: bytes START-END/TOTAL`.
struct ContentRange {
    var start: Int
    var total: Int

    init?(_ header: String?) {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let spec = header.dropFirst("bytes ".count)
        guard let dash = spec.firstIndex(of: "-"), let slash = spec.firstIndex(of: "/"),
              let start = Int(spec[..<dash]), let total = Int(spec[spec.index(after: slash)...]) else { return nil }
        self.start = start
        self.total = total
    }
}
