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
import PajamaJSON

/// `pajama validate <folder|URL>`: checks a story package against the format.
struct ValidateCommand: PathsCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a story package; exit 0 clean (warnings allowed), 1 errors, 2 could not read the story.")

    @Argument(help: "The story folder, its base URL, an ink or Twine story file, or the id of a story `pajama list` shows.")
    var story: String

    @Flag(help: "Print the findings as JSON.")
    var json = false

    func run(paths: Paths) async throws {
        guard let story = StoryArgument.open(story, paths: paths) else { throw ExitCode(2) }
        let report = await StoryValidator.validate(source: await StorySources.open(story), probe: LiveAssetProbe())
        if json {
            func text(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
            let object = JSON.object([
                ("story", text(report.storyId)), ("errors", .int(report.errorCount)), ("warnings", .int(report.warningCount)),
                ("exit", .int(Int(report.exitCode))),
                ("findings", .array(report.findings.map { f in
                    .object([("severity", .string(f.severity.rawValue)), ("file", .string(f.file)), ("beat", text(f.beatId)),
                             ("page", text(f.pageId)), ("path", .string(f.path)), ("message", .string(f.message))])
                })),
            ])
            print(JSONWriter.write(object, format: JSONWriter.Format(sortedKeys: true, prettyPrinted: true)))
        } else {
            for finding in report.findings { print(StoryFormatError.printable(finding.description, limit: 2000)) }
            let name = StoryFormatError.printable(report.storyId ?? story)
            if report.couldNotRead {
                print("\(name): could not read the story")
            } else {
                print("\(name): \(report.errorCount) error\(report.errorCount == 1 ? "" : "s"), \(report.warningCount) warning\(report.warningCount == 1 ? "" : "s")")
            }
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
