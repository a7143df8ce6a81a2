import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaStorage

/// Where the library looks: the argument, else `$PAJAMA_STORIES`, else `./Stories`, else the installed
/// stories and the reader's own (`LibraryFolders`).
public enum StoryFolder {
    public static func resolve(_ argument: String?, paths: Paths) -> LibraryFolders {
        LibraryFolders.resolve(
            argument: argument, environment: ProcessInfo.processInfo.environment,
            currentFolder: FileManager.default.currentDirectoryPath, installation: .current, paths: paths)
    }
}
