import FoundationEssentials
import Glibc
import PajamaBasics

/// Where the files that ship with Pajama are (its bundled stories and themes), found from the path of the
/// running executable: an installed `PREFIX/bin/pajama` has them in `PREFIX/share/pajama`, a build in a
/// source checkout (`.build/debug/pajama`) in the checkout's `Stories` and `Themes`.
///
/// Nothing here reads the environment: the prefix is never configured, so a copy installed under
/// `/usr`, `/usr/local` or `~/.local` (and a package staged under `DESTDIR` then moved) finds its own
/// files, and two installed copies never mix theirs.
public struct Installation: Sendable, Equatable {
    /// How the executable was found.
    public enum Kind: Sendable, Equatable {
        /// `PREFIX/bin/pajama` with `PREFIX/share/pajama` beside it.
        case installed(prefix: String)
        /// An executable under a folder holding `Package.swift` (a build in a source checkout).
        case sourceCheckout(root: String)
        /// Neither: the executable was copied somewhere alone; only the reader's own folders are used.
        case alone
    }

    /// The running executable's path, symbolic links resolved.
    public var executable: String
    public var kind: Kind
    /// The bundled stories (`share/pajama/Stories`, or the checkout's `Stories`), when that folder exists.
    public var stories: String?
    /// The bundled themes (`share/pajama/Themes`, or the checkout's `Themes`), when that folder exists.
    public var themes: String?

    public init(executable: String, kind: Kind, stories: String?, themes: String?) {
        self.executable = executable
        self.kind = kind
        self.stories = stories
        self.themes = themes
    }

    /// The installation of this process, found once.
    public static let current = find(executable: runningExecutable())

    /// `/proc/self/exe` (the kernel's word for the file this process runs, whatever `argv[0]` says), else
    /// the first argument resolved against the current folder.
    public static func runningExecutable() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "pajama").resolvingSymlinksInPath().path
    }

    /// The installation `executable` belongs to (its path need not exist: tests pass folders they made).
    public static func find(executable: String, fileManager: FileManager = .default) -> Installation {
        let executable = URL(fileURLWithPath: executable).standardizedFileURL
        func folder(_ url: URL) -> String? {
            var isDirectory = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory ? url.path : nil
        }
        let bin = executable.deletingLastPathComponent()
        if bin.lastPathComponent == "bin" {
            let prefix = bin.deletingLastPathComponent()
            let share = prefix.appendingPathComponent("share/pajama")
            if folder(share) != nil {
                return Installation(
                    executable: executable.path, kind: .installed(prefix: prefix.path),
                    stories: folder(share.appendingPathComponent("Stories")), themes: folder(share.appendingPathComponent("Themes")))
            }
        }
        // .build/x86_64-unknown-linux-gnu/debug/pajama, .build-tsan/..., or a scratch path: the nearest folder
        // above holding Package.swift, at most five levels up.
        var candidate = bin
        for _ in 0..<5 {
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path) {
                return Installation(
                    executable: executable.path, kind: .sourceCheckout(root: candidate.path),
                    stories: folder(candidate.appendingPathComponent("Stories")), themes: folder(candidate.appendingPathComponent("Themes")))
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { break }
            candidate = parent
        }
        return Installation(executable: executable.path, kind: .alone, stories: nil, themes: nil)
    }

    /// Says where the bundled files come from, for `pajama doctor`: "installed under /usr", ...
    public var origin: String {
        switch kind {
        case .installed(let prefix): "installed with pajama under \(prefix)"
        case .sourceCheckout(let root): "the source checkout \(root)"
        case .alone: "none (\(executable) has no share/pajama beside it)"
        }
    }
}
