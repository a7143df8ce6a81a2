import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession delegate behind `HTTPStorySource`: receives each response as it arrives, so the size
/// limit is enforced while receiving (from Content-Length before the body, else as bytes come in), and
/// turns every way a transfer can end into one `StorySourceError` or the complete body.
final class HTTPTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safe: `transfers` is only touched with `lock` held; URLSession calls the delegate methods on its
    // own serial queue, and `start`/`cancel` come from any task.
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    private struct Transfer {
        var path: String
        var limit: Int
        var continuation: CheckedContinuation<[UInt8], any Error>
        var body = Data()
        var expectedLength: Int64 = -1
        var encoded = false
        /// A failure decided before the transfer ended (a bad status, too large).
        var failure: StorySourceError?
    }

    /// Registers `task` for `path` and starts it, unless the calling task is already cancelled; the
    /// continuation is resumed exactly once (by whoever removes the transfer first).
    func start(_ task: URLSessionDataTask, path: String, limit: Int, continuation: CheckedContinuation<[UInt8], any Error>) {
        lock.lock()
        transfers[task.taskIdentifier] = Transfer(path: path, limit: limit, continuation: continuation)
        lock.unlock()
        if Task.isCancelled {
            lock.lock()
            let transfer = transfers.removeValue(forKey: task.taskIdentifier)
            lock.unlock()
            transfer?.continuation.resume(throwing: StorySourceError.cancelled(path: path))
            task.cancel()
            return
        }
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let decision: StorySourceError? = update(dataTask) { transfer in
            guard let http = response as? HTTPURLResponse else {
                transfer.failure = .io(path: transfer.path, message: "not an HTTP response")
                return
            }
            transfer.expectedLength = http.expectedContentLength
            let encoding = http.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
            transfer.encoded = encoding != "identity"
            if http.statusCode == 404 || http.statusCode == 410 {
                transfer.failure = .notFound(path: transfer.path)
            } else if !(200..<300).contains(http.statusCode) {
                transfer.failure = .httpStatus(path: transfer.path, status: http.statusCode)
            } else if !transfer.encoded, http.expectedContentLength > Int64(transfer.limit) {
                transfer.failure = .tooLarge(path: transfer.path, limit: transfer.limit)
            }
        }
        completionHandler(decision == nil ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let decision: StorySourceError? = update(dataTask) { transfer in
            transfer.body.append(data)
            if transfer.body.count > transfer.limit {
                transfer.failure = .tooLarge(path: transfer.path, limit: transfer.limit)
                transfer.body = Data()
            }
        }
        if decision != nil { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let transfer = transfers.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let transfer else { return }
        switch Self.outcome(of: transfer, error: error) {
        case .success(let bytes): transfer.continuation.resume(returning: bytes)
        case .failure(let failure): transfer.continuation.resume(throwing: failure)
        }
    }

    /// Applies `change` to the task's transfer; returns the failure decided so far, if any.
    private func update(_ task: URLSessionTask, _ change: (inout Transfer) -> Void) -> StorySourceError? {
        lock.lock()
        defer { lock.unlock() }
        guard var transfer = transfers[task.taskIdentifier] else { return nil }
        if transfer.failure == nil { change(&transfer) }
        transfers[task.taskIdentifier] = transfer
        return transfer.failure
    }

    private static func outcome(of transfer: Transfer, error: (any Error)?) -> Result<[UInt8], StorySourceError> {
        let path = transfer.path
        if let failure = transfer.failure { return .failure(failure) }
        let received = transfer.body.count
        let expected = transfer.expectedLength
        if let error {
            let code = (error as? URLError)?.code
            switch code {
            case .timedOut?: return .failure(.timeout(path: path))
            case .cancelled?: return .failure(.cancelled(path: path))
            default:
                // The connection ended early (libcurl's "partial file", a reset, the server gone).
                if expected >= 0, !transfer.encoded, received < expected {
                    return .failure(.truncated(path: path, expected: Int(expected), received: received))
                }
                if code == .networkConnectionLost {
                    return .failure(.truncated(path: path, expected: Int(expected), received: received))
                }
                return .failure(.io(path: path, message: error.localizedDescription))
            }
        }
        if expected >= 0, !transfer.encoded, Int64(received) != expected {
            return .failure(.truncated(path: path, expected: Int(expected), received: received))
        }
        return .success([UInt8](transfer.body))
    }
}
