import FoundationEssentials
import Glibc
import Logging
import PajamaBasics
import PajamaModel
import PajamaStorage

/// The story's loading events (see `LoadingEvent`).
public typealias LoadingEventHub = EventHub<LoadingEvent>

/// Publishes events to any number of subscribers, each with its own `AsyncStream` (the loading events
/// of a story; the reader's events, `ReaderViewModel.events()`).
///
/// Publishing never waits: every subscriber has a buffer of the newest `bufferSize` events, and a
/// subscriber that falls behind loses its oldest events rather than slowing the publisher down. A stream
/// ends when its consumer stops iterating (or is cancelled), or for everyone when `finish()` is called.
public final class EventHub<Event: Sendable>: Sendable {
    private struct Subscribers {
        var byId: [Int: AsyncStream<Event>.Continuation] = [:]
        var observers: [@Sendable (Event) -> Void] = []
        var nextId = 0
        var finished = false
    }

    private let subscribers = Locked(Subscribers())
    /// Events kept per subscriber that has not read them yet.
    public let bufferSize: Int

    /// Sees every event as it is published (the loading events' log), on the publisher's thread.
    private let onPublish: (@Sendable (Event) -> Void)?

    public init(bufferSize: Int = 256, onPublish: (@Sendable (Event) -> Void)? = nil) {
        self.bufferSize = max(1, bufferSize)
        self.onPublish = onPublish
    }

    /// A new stream of every event published from now on.
    public func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id: Int? = subscribers.withLock { subscribers in
            guard !subscribers.finished else { return nil }
            let id = subscribers.nextId
            subscribers.nextId += 1
            subscribers.byId[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Calls `observer` with every event published from now on, on the publisher's thread, before the streams
    /// are given it, until `finish()`. Nothing is buffered or dropped: an observer sees every event, in order,
    /// and must not wait.
    public func observe(_ observer: @escaping @Sendable (Event) -> Void) {
        subscribers.withLock { subscribers in
            if !subscribers.finished { subscribers.observers.append(observer) }
        }
    }

    /// The number of streams still open.
    package var subscriberCount: Int { subscribers.withLock { $0.byId.count } }

    /// Sends `event` to every subscriber (after `onPublish`, e.g. the log).
    public func publish(_ event: Event) {
        onPublish?(event)
        let (targets, observers) = subscribers.withLock { (Array($0.byId.values), $0.observers) }
        for observer in observers { observer(event) }
        for continuation in targets { continuation.yield(event) }
    }

    /// Ends every stream; later subscribers get a stream that is already finished.
    public func finish() {
        let targets = subscribers.withLock { subscribers in
            subscribers.finished = true
            subscribers.observers = []
            defer { subscribers.byId = [:] }
            return Array(subscribers.byId.values)
        }
        for continuation in targets { continuation.finish() }
    }

    private func remove(_ id: Int) {
        subscribers.withLock { subscribers in subscribers.byId[id] = nil }
    }
}

extension EventHub where Event == LoadingEvent {
    /// The story's loading events, each logged: a failure (other than a cancelled load) as an error with its
    /// reason, the rest at debug.
    public static func loading(bufferSize: Int = 256) -> LoadingEventHub {
        LoadingEventHub(bufferSize: bufferSize, onPublish: log)
    }

    @Sendable private static func log(_ event: LoadingEvent) {
        switch event {
        case .failed(let subject, let error) where error.kind == .soundOff:
            PajamaLog.loading.debug("not loading \(subject): \(error)")  // the engine said once that sound is off
        case .failed(let subject, let error) where error.kind != .cancelled:
            PajamaLog.loading.error("cannot load \(subject): \(error)", metadata: ["kind": "\(error.kind)", "detail": "\(error.detail)"])
        case .failed(let subject, _):
            PajamaLog.loading.debug("load of \(subject) cancelled")
        case .started(let subject):
            PajamaLog.loading.debug("loading \(subject)")
        case .finished(let subject, let tier, let duration):
            PajamaLog.loading.debug("loaded \(subject)", metadata: ["tier": "\(tier)", "duration": "\(duration)"])
        case .progress, .preloadWindowChanged:
            break
        }
    }
}
