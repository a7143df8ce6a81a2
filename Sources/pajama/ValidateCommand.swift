import ArgumentParser
import Foundation
import PajamaCore
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP

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
            let object: [String: Any] = [
                "story": report.storyId ?? NSNull(), "errors": report.errorCount, "warnings": report.warningCount,
                "exit": Int(report.exitCode),
                "findings": report.findings.map { f -> [String: Any] in
                    ["severity": f.severity.rawValue, "file": f.file, "beat": f.beatId ?? NSNull(), "page": f.pageId ?? NSNull(),
                     "path": f.path, "message": f.message]
                },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
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
