import ArgumentParser
import PajamaBasics
import PajamaLoading
import PajamaModel
import PajamaReading
import PajamaStorage
import PajamaReader
import PajamaFormats
import PajamaStoryFormat
import PajamaHTTP

/// `pajama play <folder|URL> --choices 2,1,... --answers NAME,7`: reads a story without a terminal or sound,
/// taking the given choices in order and typing the given answers on its question pages (docs/reader.md,
/// "Typed answers"), and prints the transcript. For authors' own checks (CI): exit 0 at an ending,
/// 1 when a choice number is out of range, the choices or answers run out or an answer is not one the
/// question takes, 2 when the story cannot be read, 3 when
/// the story stopped without an ending (an ink runtime error or an external function it needs from a game,
/// a SugarCube script that ran too long, a Twine passage that is not there).
struct PlayCommand: PathsCommand, LoggingCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Read a story headless with the given choices and print its transcript.",
        discussion: """
            Exit status: 0 at an ending, 1 if a choice number is out of range, the choices or the answers run \
            out, or an answer is not one its question takes (the message says where and why), 2 if the story cannot be read (a missing beat or asset: the message says \
            which and why), 3 if the story stopped without an ending (an ink runtime error or an external \
            function it needs from a game, a SugarCube script that ran longer than 1 s: the message says \
            which). A page's picture that cannot be shown \
            (the reader shows "picture unavailable") is reported on standard error with the reason \
            `pajama validate` gives; the reading goes on.
            """)

    @Argument(help: "The story folder, its base URL (http:// or https://), an ink or Twine story file (or its URL), or the id of a story `pajama list` shows.")
    var story: String

    @Option(help: "The choices to take, in order, 1-based and comma-separated (e.g. 2,1,3).")
    var choices: String = ""

    @Option(help: "The answers to type on the story's question pages (ChoiceScript's *input_text and *input_number, SugarCube's <<textbox>> and <<numberbox>>), in order and comma-separated (e.g. Ada,7; a comma in an answer is \\,; an empty one is blank).")
    var answers: String?

    @Flag(help: "Once the --answers run out, type the answer `pajama test` would (ChoiceScript: what its randomtest types) instead of stopping.")
    var testAnswers = false

    @Option(help: "Where the transcript goes: a file it is appended to, or - for standard output (the default).")
    var transcript: String = "-"

    @Option(help: "The story's random seed (ink's RANDOM and shuffles, a Twine story's randomness, ChoiceScript's *rand as its randomtest seed=S draws it): the same seed and choices give the same transcript.")
    var seed: Int = 0

    @OptionGroup var logging: LoggingOptions

    /// The parsed `--choices`.
    var choiceNumbers: [Int] {
        choices.split(separator: ",", omittingEmptySubsequences: false).compactMap { Int($0.trimmingSpaces) }
    }

    /// The parsed `--answers`: split at commas, `\,` a comma of an answer.
    var answerTexts: [String] {
        guard let answers else { return [] }
        var parts: [String] = [""]
        var escaped = false
        for character in answers {
            if escaped {
                parts[parts.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                parts.append("")
            } else {
                parts[parts.count - 1].append(character)
            }
        }
        if escaped { parts[parts.count - 1].append("\\") }
        return parts
    }

    func validate() throws {
        guard !choices.isEmpty else { return }
        let parts = choices.split(separator: ",", omittingEmptySubsequences: false)
        for (position, part) in parts.enumerated() {
            guard let number = Int(part.trimmingSpaces), number >= 1 else {
                throw ValidationError("--choices: \"\(StoryFormatError.printable(String(part)))\" (choice \(position + 1)) is not a choice number (1, 2, ...)")
            }
        }
    }

    func run(paths: Paths) async throws {
        guard let story = StoryArgument.open(story, paths: paths) else { throw ExitCode(2) }
        let code = await PlayRun.run(story, choices: choiceNumbers, answers: answerTexts, testAnswers: testAnswers, transcript: transcript, seed: seed, paths: paths)
        if code != 0 { throw ExitCode(code) }
    }
}

/// What `pajama play` does, once its arguments are checked.
@MainActor
enum PlayRun {
    static func run(_ argument: String, choices: [Int], answers: [String] = [], testAnswers: Bool = false, transcript path: String, seed: Int = 0, paths: Paths) async -> Int32 {
        let file: TranscriptFile
        do {
            file = try TranscriptFile(path: path)
        } catch {
            ReaderApp.printError("pajama: \(error)")
            return 2
        }
        let content: any StoryContent
        do {
            content = try await ReaderApp.openHeadless(await StorySources.open(argument, seed: seed), paths: paths)
        } catch {
            ReaderApp.printError("pajama: cannot open \(StoryFormatError.printable(argument)): \(error)")
            return 2
        }
        let viewModel = ReaderViewModel(content: content, sound: nil, progress: nil)
        let recorder = TranscriptRecorder(file: file)
        recorder.follow(viewModel)
        let pictures = PlayPictureCheck(content: content)
        pictures.follow(viewModel)
        let outcome = await ScriptedReading.run(viewModel, choices: choices, answers: answers, automaticAnswers: testAnswers)
        await viewModel.close()
        for problem in await pictures.finish() { ReaderApp.printError("pajama: \(problem)") }
        let problem = recorder.finish()
        if let problem {
            ReaderApp.printError("pajama: \(problem)")
            return 2
        }
        return report(outcome)
    }

    /// Says how the reading ended (on standard error, so the transcript on standard output stays clean).
    static func report(_ outcome: ScriptedReading.Outcome) -> Int32 {
        switch outcome {
        case .ending(_, let unused):
            if unused > 0 {
                ReaderApp.printError("pajama: the story ended with \(unused) choice\(unused == 1 ? "" : "s") not used")
            }
            return 0
        case .choiceOutOfRange(let number, let position, let offered, let location):
            ReaderApp.printError("pajama: choice \(position) is \(number), but \(where: location) offers \(offered) choice\(offered == 1 ? "" : "s")")
            return 1
        case .choicesRanOut(let given, let offered, let location):
            ReaderApp.printError("pajama: the choices ran out after \(given): \(where: location) offers \(offered) choice\(offered == 1 ? "" : "s")")
            return 1
        case .answersRanOut(let given, let location):
            ReaderApp.printError("pajama: the answers ran out after \(given): \(where: location) asks for a typed answer (--answers)")
            return 1
        case .answerRefused(let answer, let position, let reason, let location):
            ReaderApp.printError("pajama: answer \(position) is \"\(StoryFormatError.printable(answer))\", which \(where: location) does not take: \(reason)")
            return 1
        case .stopped(let location, let reason):
            ReaderApp.printError("pajama: the story stopped at \(where: location): \(reason)")
            return 3
        case .failed(let failure):
            ReaderApp.printError("pajama: \(where: failure.location) cannot be read: \(failure.error)")
            return 2
        case .noEnding(let moves, let location):
            ReaderApp.printError("pajama: no ending or choice after \(moves) moves\(location.map { " (at \(where: $0))" } ?? "")")
            return 2
        }
    }
}

extension String.StringInterpolation {
    /// A location as the messages of `pajama play` name it: `beat "b", page "p"`.
    mutating func appendInterpolation(where location: StoryLocation) {
        appendLiteral("beat \"\(StoryFormatError.printable(location.beatId))\", page \"\(StoryFormatError.printable(location.pageId))\"")
    }
}
