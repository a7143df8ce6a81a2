import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaJSON

/// A follower's copy of the host's story, fetched in the background while it follows, so that reading on
/// alone after the owner quits reaches every beat (docs/coreading.md, "Reading on alone"). It asks the host
/// for its files (`PackageListing`) and puts each one the disk cache lacks there, one at a time (beats first,
/// then pictures and sounds), as the reader's own loads would: the reader then finds them on disk when the
/// host is gone. A package of at most `limit` bytes is fetched whole; a larger one as far as `limit` goes,
/// beats first. A file that cannot be fetched is left for the reader's own load.
///
/// The download is this object's task: `cancel()` (or dropping the object) ends it.
public final class PackageDownload: Sendable {
    /// How far the download got.
    public struct Report: Sendable, Equatable {
        /// The package's files (beats and assets) and its size in bytes.
        public var files: Int
        public var bytes: Int
        /// Of those, the ones in the disk cache now.
        public var here: Int

        /// Whether every file of the package is here.
        public var whole: Bool { here == files }
    }

    /// The largest package fetched whole: a quarter of the disk cache's default size (256 MB), so a story
    /// fetched for reading on alone never pushes itself (or much else) out of the cache; a minute on a
    /// link of 1 MB/s.
    public static let defaultLimit = 64 << 20

    private let task: Task<Report?, Never>

    /// `source`: the host's package (the same HTTP source, token and trust as the reader's); `disk`: the
    /// reader's disk cache; `skipping`: paths not to fetch (an ink story's file, already read whole).
    public init(source: any StorySource, disk: DiskCache, storyId: String, version: String?, limit: Int = defaultLimit,
                skipping: Set<String> = []) {
        task = Task(priority: .utility) {
            await Self.run(source: source, disk: disk, storyId: storyId, version: version, limit: limit, skipping: skipping)
        }
    }

    deinit { task.cancel() }

    /// Awaits the end of the download: nil when the host gave no listing (it serves no files: the story is
    /// on a web server, which stays when the owner quits).
    public var report: Report? {
        get async { await task.value }
    }

    public func cancel() { task.cancel() }

    private static func run(source: any StorySource, disk: DiskCache, storyId: String, version: String?, limit: Int,
                            skipping: Set<String>) async -> Report? {
        guard let bytes = await read(PackageListing.path, from: source),
              let listing = try? JSONValueDecoder().decode(PackageListing.self, from: bytes) else { return nil }
        let files = listing.files.filter { $0.path != "story.json" && !skipping.contains($0.path) }
        var report = Report(files: files.count, bytes: files.reduce(0) { $0 + $1.size }, here: 0)
        var budget = limit
        for file in files {
            if Task.isCancelled { break }
            if await disk.get(storyId: storyId, version: version, path: file.path) != nil {
                report.here += 1
                budget -= file.size
                continue
            }
            guard file.size <= budget else { continue }
            guard let data = await read(file.path, from: source) else { continue }
            await disk.store(storyId: storyId, version: version, path: file.path, bytes: data)
            report.here += 1
            budget -= data.count
        }
        return report
    }

    /// The file at `path`, tried three times (a busy host, a link that stalls), a second and two apart; nil
    /// if it cannot be had (not found, or cancelled).
    private static func read(_ path: String, from source: any StorySource) async -> [UInt8]? {
        for attempt in 1...3 {
            do {
                return try await source.read(path)
            } catch {
                if case .notFound = error { return nil }
                guard attempt < 3, (try? await Task.sleep(for: .seconds(attempt))) != nil else { return nil }
            }
        }
        return nil
    }
}
