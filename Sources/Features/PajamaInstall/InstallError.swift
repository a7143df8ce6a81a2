import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// Why a story was not installed or removed; every case names the file (or URL, or id) and the reason.
public enum InstallError: Error, Sendable, CustomStringConvertible {
    /// Nothing at `path`.
    case notFound(path: String)
    /// `path` is there but is not a story package (no story.json, no single `.ink.json`, not a .zip).
    case notAStory(path: String, reason: String)
    /// An entry of an archive, or a file of a folder, that would not stay inside the story's folder, or
    /// that is not a plain file or folder.
    case unsafe(path: String, entry: String, reason: String)
    /// The package is larger than the limits allow (`what` says which limit).
    case tooLarge(path: String, what: String)
    /// The validator found errors (or could not read the story): nothing was installed.
    case invalid(path: String, report: ValidationReport)
    /// A story with this id is already installed at `folder`.
    case alreadyInstalled(id: String, folder: String)
    /// A story with this id came with pajama (in `folder`): installing this one would hide it in the library.
    case hidesBundled(id: String, folder: String)
    /// A download that failed.
    case download(url: String, reason: String)
    /// A file that could not be read or written.
    case io(path: String, reason: String)
    /// `uninstall-story ID`: no story of the reader's own has that id.
    case noSuchStory(id: String, folder: String, installed: [String])
    /// `uninstall-story ID` of a story bundled with pajama.
    case bundled(id: String, folder: String)

    public var description: String {
        switch self {
        case .notFound(let path):
            "\(StoryFormatError.printable(path)): there is no such file or folder"
        case .notAStory(let path, let reason):
            "\(StoryFormatError.printable(path)): not a story package: \(reason)"
        case .unsafe(let path, let entry, let reason):
            "\(StoryFormatError.printable(path)): refused \(StoryFormatError.printable(entry)): \(reason)"
        case .tooLarge(let path, let what):
            "\(StoryFormatError.printable(path)): too large: \(what)"
        case .invalid(let path, let report):
            if report.couldNotRead {
                "\(StoryFormatError.printable(path)): the story could not be read (\(report.errorCount) error\(report.errorCount == 1 ? "" : "s"))"
            } else {
                "\(StoryFormatError.printable(path)): the story has \(report.errorCount) error\(report.errorCount == 1 ? "" : "s")"
            }
        case .alreadyInstalled(let id, let folder):
            "a story with the id \(id) is installed already, in \(folder) (--replace replaces it)"
        case .hidesBundled(let id, let folder):
            "a story with the id \(id) came with pajama (\(folder)); yours would hide it in the library "
                + "(--replace installs yours in its place; uninstall-story brings the bundled one back)"
        case .download(let url, let reason):
            "\(StoryFormatError.printable(url)): cannot download: \(reason)"
        case .io(let path, let reason):
            "\(StoryFormatError.printable(path)): \(reason)"
        case .noSuchStory(let id, let folder, let installed):
            "no story with the id \(StoryFormatError.printable(id)) in \(folder)"
                + (installed.isEmpty ? " (you have installed none)" : " (yours: \(installed.joined(separator: ", ")))")
        case .bundled(let id, let folder):
            "\(StoryFormatError.printable(id)) came with pajama (in \(folder)), it is not one of yours: only stories installed with install-story can be uninstalled"
        }
    }
}
