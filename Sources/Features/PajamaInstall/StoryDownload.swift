import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaHTTP
import PajamaModel
import PajamaStoryFormat

/// `pajama install-story URL` of a story file (docs/install.md, "By URL"): the file the URL names when a
/// format holds it (an ink file, a published Twine `.html`, a `.twee`), or the first of the formats' usual
/// names a folder URL has (as `pajama read` tries them), downloaded with the pictures and sounds it names
/// into a new folder of the staging folder, with the reader's HTTP client and the installer's limits.
///
/// The names come from untrusted files: only package paths are fetched (`StoryFormat.packageFiles`:
/// relative, no `..`, no web address), each written as a new file under folders this code made (never
/// through a link); a file the server does not have (404) is left out for the validator to report, as a
/// missing file of a local story is (a HAL track's other source may be there); any other failure (a 403, a
/// stall, a file over the limit) refuses the install, naming the file's URL.
extension StoryInstaller {
    /// The staged story's folder; nil when the URL names no story file by its name (a .zip:
    /// `download(_:into:)`), or is a folder with none of the formats' usual names holding a story.
    func downloadStory(_ argument: String, into staging: URL) async throws(InstallError) -> URL? {
        guard let url = URL(string: argument), url.host != nil else { throw .download(url: argument, reason: "not a valid URL") }
        let name = url.lastPathComponent
        let isFile = !url.hasDirectoryPath && name.contains(".")
        if isFile, !formats.formats.contains(where: { $0.mayHold(fileName: name) }) { return nil }
        let folder = isFile ? url.deletingLastPathComponent() : url
        let server = HTTPStorySource(baseURL: folder, progressTimeout: downloadTimeout, maximumResponseSize: limits.download)
        func shown(_ path: String) -> String {
            let base = folder.absoluteString
            return (base.hasSuffix("/") ? base : base + "/") + path
        }

        var found: (format: any StoryFormat, file: String, bytes: [UInt8])?
        for candidate in isFile ? [name] : formats.usualNames {
            let bytes: [UInt8]
            do {
                bytes = try await server.read(candidate)
            } catch {
                if case .notFound = error, !isFile { continue }
                throw .download(url: shown(candidate), reason: Self.reason(error))
            }
            if let format = formats.formats.first(where: { $0.mayHold(fileName: candidate) && $0.holds(bytes, fileName: candidate) }) {
                found = (format, candidate, bytes)
                break
            }
            if isFile { throw .notAStory(path: argument, reason: "it holds no story Pajama reads (\(formats.storyFileKinds))") }
            return nil  // the folder's first usual file is no story file (a package's story.json): read it where it is
        }
        guard let (format, file, bytes) = found else { return nil }

        var budget = Budget(limits: limits, shownAs: argument)
        let package = staging.appendingPathComponent(Self.cleanedName(isFile ? folder.lastPathComponent : name))
        try FolderCopy.createFolder(package)
        try Self.writeNew(bytes, at: package.appendingPathComponent(file), budget: &budget)
        let assets = FoundStory(format: format, folder: package.path, files: [file]).packageFiles().assets
        for asset in assets.sorted() {
            let bytes: [UInt8]
            do {
                bytes = try await server.read(asset.value)
            } catch {
                if case .notFound = error { continue }
                throw .download(url: shown(asset.value), reason: Self.reason(error))
            }
            var target = package
            let parts = asset.value.split(separator: "/").map(String.init)
            for part in parts.dropLast() {
                target.appendPathComponent(part)
                try FolderCopy.createFolder(target)
            }
            target.appendPathComponent(parts[parts.count - 1])
            guard !FileManager.default.fileExists(atPath: target.path) else { continue }
            try Self.writeNew(bytes, at: target, budget: &budget)
        }
        return package
    }

    /// Why a download failed, a missing file said as the server said it.
    static func reason(_ error: StorySourceError) -> String {
        if case .notFound = error { return "not found on the server (HTTP 404)" }
        return error.reason
    }

    /// Writes `bytes` as a new file (never through a link, never over a file), counted against the limits.
    static func writeNew(_ bytes: [UInt8], at url: URL, budget: inout Budget) throws(InstallError) {
        try budget.addEntry()
        try budget.add(bytes: Int64(bytes.count))
        let descriptor = try FolderCopy.create(url)
        defer { close(descriptor) }
        try FolderCopy.write(descriptor, bytes[...], path: url.path)
    }
}
