import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Extracts a .zip entry by entry, in process (ZipArchive reads, this writes): every path is checked
/// before anything is written, and what is written is only plain files and folders under `target`.
///
/// Refused, naming the entry: an absolute path, a `..` component, a backslash (a Windows separator that
/// would be a file name here), a symbolic link, the same path twice, and a file whose checksum does not
/// match. The archive's own sizes are checked first (a fast refusal), and the bytes really inflated are
/// counted as they are written, so an archive that lies about its sizes stops at the limit. Hidden
/// entries (`.DS_Store`, `.git/`) and macOS's `__MACOSX/` are left out.
enum ZipExtraction {
    static func extract(_ file: URL, to target: URL, budget: inout Budget) throws(InstallError) {
        let shown = budget.shownAs
        let archive: ZipArchive
        do {
            archive = try ZipArchive(path: file.path)
        } catch {
            throw .notAStory(path: shown, reason: "not a readable .zip archive (\(error))")
        }
        // The whole listing first: nothing is written from an archive that holds one refused entry.
        var planned: [(entry: ZipArchive.Entry, components: [String])] = []
        var seen = Set<String>()
        var declared: UInt64 = 0
        for entry in archive.entries {
            let components = try Self.components(of: entry.path, shownAs: shown)
            if entry.kind == .symbolicLink {
                throw .unsafe(path: shown, entry: entry.path, reason: "a symbolic link (a story holds only files and folders)")
            }
            guard !components.isEmpty else { continue }
            if components.contains(where: { $0.hasPrefix(".") }) || components[0] == "__MACOSX" { continue }
            let key = components.joined(separator: "/")
            guard seen.insert(key).inserted else { throw .unsafe(path: shown, entry: entry.path, reason: "the same path appears twice") }
            try budget.addEntry()
            declared += entry.uncompressedSize
            if declared > UInt64(budget.limits.bytes) {
                throw .tooLarge(path: shown, what: "its files would take more than \(Budget.size(budget.limits.bytes))")
            }
            planned.append((entry, components))
        }
        try FolderCopy.createFolder(target)
        for (entry, components) in planned {
            // Parent folders are made here, from checked names, so no folder on the way can be a link.
            var folder = target
            for name in components.dropLast() {
                folder = folder.appendingPathComponent(name)
                try FolderCopy.createFolder(folder)
            }
            let destination = folder.appendingPathComponent(components[components.count - 1])
            if entry.kind == .directory {
                try FolderCopy.createFolder(destination)
                continue
            }
            let output = try FolderCopy.create(destination)
            defer { close(output) }
            var failure: InstallError?
            do {
                let checksum = try archive.extract(entry) { piece in
                    do throws(InstallError) {
                        try budget.add(bytes: Int64(piece.count))
                        try FolderCopy.write(output, piece, path: destination.path)
                    } catch {
                        failure = error
                        throw error
                    }
                }
                if checksum != entry.checksum {
                    throw InstallError.unsafe(path: shown, entry: entry.path, reason: "damaged (its checksum does not match)")
                }
            } catch let error as InstallError {
                throw failure ?? error
            } catch {
                throw failure ?? .unsafe(path: shown, entry: entry.path, reason: "cannot be extracted (\(error))")
            }
        }
    }

    /// The checked components of an entry's path ("a/b/c.png" -> ["a", "b", "c.png"]); "." and empty
    /// components dropped.
    static func components(of path: String, shownAs shown: String) throws(InstallError) -> [String] {
        if path.hasPrefix("/") { throw .unsafe(path: shown, entry: path, reason: "an absolute path") }
        if path.contains("\\") { throw .unsafe(path: shown, entry: path, reason: "a backslash in the path") }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .unsafe(path: shown, entry: path, reason: "a control character in the path")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        if components.contains("..") { throw .unsafe(path: shown, entry: path, reason: "a path that leaves the story's folder (..)") }
        if components.contains(where: { $0.utf8.count > 255 }) { throw .unsafe(path: shown, entry: path, reason: "a name longer than 255 bytes") }
        return components
    }
}
