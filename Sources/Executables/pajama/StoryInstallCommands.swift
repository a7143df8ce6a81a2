import ArgumentParser
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel
import PajamaStorage
import PajamaReader
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP
import PajamaInstall

/// `pajama install-story FILE|URL`: a story someone sent, validated, then copied into the reader's stories
/// folder (`$XDG_DATA_HOME/pajama/stories`), where the library finds it.
struct InstallStoryCommand: PathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-story",
        abstract: "Validate a story package and add it to your library.",
        discussion: """
            PACKAGE is a story folder (with story.json, one .ink.json, or a Twine story), a .zip of one, an .ink.json \
            file (copied with the pictures and sounds it names), a Twine file (.twee, .tw, a published .html: copied with the pictures and sounds it names), or the \
            http(s) URL of a .zip, an .ink.json or a Twine story (its .html or .twee, or its folder with an index.html, \
            story.html or story.twee: fetched with the pictures and sounds it names). It is validated as `pajama validate` does; a story with errors is \
            not installed (the findings say why). It is copied to $XDG_DATA_HOME/pajama/stories/ID (ID: the story's id). \
            Archives are extracted in process: a path leaving the story's folder, a link, more than 10000 entries or \
            more than 512 MB of files is refused; downloads stop at 256 MB. Exit status: 0 installed, 1 the story has \
            errors (an invalid id among them), 2 it could not be read, downloaded or written, 3 a story with that id is \
            installed already, or came with pajama (installing yours would hide that one in the library: --replace does so).
            """)

    @Argument(help: "The story package: a folder, a .zip, an .ink.json file, a .twee or Twine .html file, or a URL of a .zip, an .ink.json or a Twine story.")
    var package: String

    @Flag(help: "Replace a story of yours with the same id, or hide the bundled story with that id behind yours.")
    var replace = false

    func run(paths: Paths) async throws {
        let installer = StoryInstaller(folder: paths.stories, formats: .all)
        do {
            let installed = try await installer.install(
                package, replace: replace, bundled: Installation.current.stories,
                validate: { folder in await StoryValidator.validate(source: StorySources.open(folder), probe: LiveAssetProbe()) },
                onReport: { report in
                    for finding in report.findings { ReaderApp.printError(StoryFormatError.printable(finding.description, limit: 2000)) }
                })
            print("installed \(StoryFormatError.printable(installed.title)) (\(installed.id)) in \(installed.folder)\(installed.replaced ? ", replacing the previous copy" : "")")
            if let bundled = installed.hidesBundled {
                print("the library shows yours in place of the one that came with pajama (\(bundled)); `pajama uninstall-story \(installed.id)` brings it back")
            }
        } catch {
            ReaderApp.printError("pajama: cannot install: \(error)")
            switch error {
            case .invalid(_, let report): throw ExitCode(report.couldNotRead ? 2 : 1)
            case .alreadyInstalled, .hidesBundled: throw ExitCode(3)
            default: throw ExitCode(2)
            }
        }
    }
}

/// `pajama uninstall-story ID`: removes a story `install-story` put in the reader's folder (reading progress
/// and bookmarks are kept, as for a story read from anywhere).
struct UninstallStoryCommand: PathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall-story",
        abstract: "Remove a story you installed with install-story.",
        discussion: "Your reading progress and bookmarks of it are kept. Exit status: 0 removed, 2 no such story of yours.")

    @Argument(help: "The story's id (as `pajama list` shows it).")
    var id: String

    func run(paths: Paths) async throws {
        let installer = StoryInstaller(folder: paths.stories, formats: .all)
        do {
            let folder = try installer.remove(id: id, bundled: Installation.current.stories)
            print("removed \(id) (\(folder))")
        } catch {
            ReaderApp.printError("pajama: cannot uninstall: \(error)")
            throw ExitCode(2)
        }
    }
}
