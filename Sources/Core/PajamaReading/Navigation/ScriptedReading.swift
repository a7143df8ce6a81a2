import PajamaModel

/// Reads a story without a reader: follows the pages (every line, every page), takes the given choices in
/// order, and stops at an ending, at a choice it cannot take, or at a page that cannot be shown. What
/// `pajama play` runs; the view model's events carry what was read (see `Transcript`).
@MainActor
public enum ScriptedReading {
    public enum Outcome: Sendable, Equatable {
        /// The story ended at `location`; `unusedChoices` were given but not needed.
        case ending(StoryLocation, unusedChoices: Int)
        /// The story stopped at `location` without an ending: an ink runtime error, or an external function
        /// the story needs from a game (`reason` says which, as the last page does).
        case stopped(StoryLocation, reason: String)
        /// Choice `number` (1-based, the `position`th given) is not one of the `offered` choices at `location`.
        case choiceOutOfRange(number: Int, position: Int, offered: Int, at: StoryLocation)
        /// A choice page at `location` was reached after all `given` choices were taken.
        case choicesRanOut(given: Int, offered: Int, at: StoryLocation)
        /// A question page at `location` was reached after all `given` answers were used.
        case answersRanOut(given: Int, at: StoryLocation)
        /// Answer `answer` (the `position`th given, 1-based) is not one the question at `location` takes: `reason`.
        case answerRefused(answer: String, position: Int, reason: String, at: StoryLocation)
        /// A page could not be shown (a missing beat, an asset that failed).
        case failed(ReaderFailure)
        /// `moves` moves went by without an ending or a choice page (a story that loops by itself).
        case noEnding(moves: Int, at: StoryLocation?)
    }

    /// Reads from the story's start (`viewModel` should keep no progress) with `choices` (1-based) and
    /// `answers` (typed on question pages, in order). At most `moveLimit` moves (each revealed line, page,
    /// choice and answer is one).
    /// `automaticAnswers`: once `answers` run out, each question is given its `automaticAnswer` (what `pajama
    /// test` types) instead of stopping.
    public static func run(_ viewModel: ReaderViewModel, choices: [Int], answers: [String] = [], automaticAnswers: Bool = false,
                           moveLimit: Int = 100_000) async -> Outcome {
        await viewModel.start(restart: true)
        var taken = 0
        var answered = 0
        for move in 0..<moveLimit {
            switch viewModel.state {
            case .finished(let page, _):
                if let reason = page.beat.origin?.stopped { return .stopped(page.location, reason: reason) }
                return .ending(page.location, unusedChoices: choices.count - taken)
            case .failed(let failure):
                return .failed(failure)
            case .page(let page):
                if case .choice(_, let offered) = page.page.kind {
                    guard taken < choices.count else {
                        return .choicesRanOut(given: choices.count, offered: offered.count, at: page.location)
                    }
                    let number = choices[taken]
                    guard (1...offered.count).contains(number) else {
                        return .choiceOutOfRange(number: number, position: taken + 1, offered: offered.count, at: page.location)
                    }
                    taken += 1
                    await viewModel.changePage(.choose(number - 1))
                } else if case .question(let question) = page.page.kind {
                    guard answered < answers.count || automaticAnswers else { return .answersRanOut(given: answers.count, at: page.location) }
                    let answer = answered < answers.count ? answers[answered] : question.automaticAnswer
                    if let reason = question.problem(with: answer) {
                        return .answerRefused(answer: answer, position: answered + 1, reason: reason, at: page.location)
                    }
                    answered += 1
                    await viewModel.changePage(.answer(answer))
                } else {
                    await viewModel.changePage(.advance)
                }
            case .starting, .loading:
                // Every move is awaited to its end, so the reader is never left waiting here (a beat without
                // pages, the one way to stay, is refused when decoded); if it ever is, stop rather than spin.
                return .noEnding(moves: move, at: viewModel.location)
            }
        }
        return .noEnding(moves: moveLimit, at: viewModel.location)
    }
}
