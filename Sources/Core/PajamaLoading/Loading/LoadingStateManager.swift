import PajamaModel

/// The seeds' LoadingStateManager (`executeWithRetry`): every load the reader waits for (story.json, a
/// beat, a page's critical pictures and sounds) runs through `executeWithRetry`, under one `RetryPolicy`
/// (backoff with jitter, a progress timeout, a deadline) that watches how far the load has come through its
/// `LoadActivity` (bytes received), so a slow load that progresses is never cut.
///
/// The loading states themselves are the story's `LoadingEvent`s (started, progress, finished with its
/// tier, failed), published on its `LoadingEventHub` by the loads; `LoadingProgress` folds them into the
/// Loading screen's line ("Loading picture… 340 KB of 1.5 MB"). docs/loading.md maps each seed concept
/// to its file.
public struct LoadingStateManager: Sendable {
    public let retry: RetryPolicy

    public init(retry: RetryPolicy = RetryPolicy()) {
        self.retry = retry
    }

    /// Runs `operation` (the load of `key`, named `subject` in errors) with retries; `activity` is where
    /// the load reports the bytes it received.
    public func executeWithRetry<Key: Hashable & Sendable, T: Sendable>(
        subject: String, key: Key, activity: LoadActivity<Key>,
        _ operation: @escaping @Sendable () async throws(AssetLoadError) -> T
    ) async throws(AssetLoadError) -> T {
        try await retry.run(subject: subject, activity: { activity.count(key) }, operation)
    }
}
