import PajamaModel

/// Where a load that needed I/O was answered from.
public enum LoadTier: String, Sendable, Hashable, CustomStringConvertible {
    /// The on-disk cache of a remote story.
    case disk
    /// The story source itself: the network for a URL, the folder for a local story.
    case source

    public var description: String { rawValue }
}

/// What a loading event is about.
public enum LoadSubject: Sendable, Hashable, CustomStringConvertible {
    case beat(String)
    case image(AssetPath)
    case sound(AssetPath)

    public var description: String {
        switch self {
        case .beat(let id): "beat \(id)"
        case .image(let path): "image \(path.value)"
        case .sound(let path): "sound \(path.value)"
        }
    }
}

/// What the loading engine is doing, for the UI (a spinner, a status line, `--stats`) and tests.
///
/// Events describe real loads: a request answered from memory publishes nothing, and concurrent
/// requests for the same beat or asset share one load and so one `started`/`finished` pair. A retried
/// load publishes one pair per attempt that reached a tier.
public enum LoadingEvent: Sendable, Equatable {
    /// A load left memory (the disk cache or the source will be asked).
    case started(LoadSubject)
    /// Bytes of a load arrived (sent as they come, at most every 2% of the file or 16 KB, and at the end).
    case progress(LoadSubject, TransferProgress)
    /// A load finished; `tier` answered it and it took `duration`, decoding included.
    case finished(LoadSubject, tier: LoadTier, duration: Duration)
    /// A load failed with the error the reader would see.
    case failed(LoadSubject, AssetLoadError)
    /// The preloader's window moved: the beats now kept loaded around the reader, nearest first.
    case preloadWindowChanged([String])

    /// The beat or asset the event is about (nil for a window change).
    public var subject: LoadSubject? {
        switch self {
        case .started(let s), .progress(let s, _), .finished(let s, _, _), .failed(let s, _): s
        case .preloadWindowChanged: nil
        }
    }
}
