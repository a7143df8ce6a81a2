import PajamaLoading
import PajamaModel

/// A move the reader makes.
public enum PageMove: Sendable, Equatable {
    /// A tap: reveal the next line, or go on to the next page or beat.
    case advance
    /// Back to the previous location in the history.
    case back
    /// Take a choice (0-based) on a choice page.
    case choose(Int)
    /// Answer the question page (`Question`) with the typed text; an answer it does not take does nothing.
    case answer(String)
    /// `>`: leave the page and go on through the pages seen before, to the first one not seen yet, a choice
    /// page or the end (ReaderViewModel+Skipping.swift).
    case skipSeen
}

/// The page being shown.
public struct PageState: Sendable, Equatable {
    public var beat: Beat
    public var page: Page
    public var location: StoryLocation
    public var pageIndex: Int
    /// Lines shown on a text page; 1 on title and choice pages.
    public var revealedLines: Int
    public var canGoBack: Bool
    /// True on the last page of a beat that ends the story.
    public var isEnding: Bool
    /// How far along the reading is, as the page is entered (for the status line).
    public var standing = ReadingStanding()

    /// The memberwise initializer, for the package's tests (a page made by hand).
    package init(
        beat: Beat, page: Page, location: StoryLocation, pageIndex: Int, revealedLines: Int, canGoBack: Bool, isEnding: Bool,
        standing: ReadingStanding = ReadingStanding()
    ) {
        self.beat = beat
        self.page = page
        self.location = location
        self.pageIndex = pageIndex
        self.revealedLines = revealedLines
        self.canGoBack = canGoBack
        self.isEnding = isEnding
        self.standing = standing
    }
}

/// How far along a reading is: pages read, beats seen, and whether the page shown had been seen before.
public struct ReadingStanding: Sendable, Equatable {
    /// Pages entered in this reading (as the end screen counts them).
    public var pagesRead: Int
    /// Distinct beats with a page seen (across sessions and restarts, as far as `SeenPages` remembers).
    public var beatsSeen: Int
    /// How many beats story.json lists; nil when it does not list them.
    public var beatsListed: Int?
    /// Whether the page had been seen before this visit (in this session or an earlier one).
    public var seenBefore: Bool

    public init(pagesRead: Int = 0, beatsSeen: Int = 0, beatsListed: Int? = nil, seenBefore: Bool = false) {
        self.pagesRead = pagesRead
        self.beatsSeen = beatsSeen
        self.beatsListed = beatsListed
        self.seenBefore = seenBefore
    }
}

/// A load that failed, with what the reader can do about it.
public struct ReaderFailure: Sendable, Equatable {
    public var error: AssetLoadError
    public var location: StoryLocation
    /// True when what failed is an asset (the page can be shown without it); false for a beat.
    public var canSkip: Bool
    /// True when back leads somewhere: the page the failed move left, or an earlier one in the history.
    public var canGoBack: Bool

    /// The memberwise initializer, for the package's tests (a failure made by hand).
    package init(error: AssetLoadError, location: StoryLocation, canSkip: Bool, canGoBack: Bool) {
        self.error = error
        self.location = location
        self.canSkip = canSkip
        self.canGoBack = canGoBack
    }
}

/// What the reader shows.
public enum ReaderState: Sendable, Equatable {
    case starting
    /// Waiting for a beat or the critical assets of the page at this location; `waitingFor` names what
    /// (the beat, or the page's assets), for the Loading screen's text.
    case loading(StoryLocation, waitingFor: [LoadSubject])
    case page(PageState)
    case failed(ReaderFailure)
    /// The reader went past the last page of an ending: the end screen, with the ending's page.
    case finished(PageState, EndSummary)
}

/// What the end screen tells about the reading that reached an ending.
public struct EndSummary: Sendable, Equatable {
    /// Pages entered in this reading (since the story was started or restarted, across sessions).
    public var pagesRead: Int
    /// Choices taken in this reading.
    public var choicesMade: Int
    /// Distinct ending beats reached so far, this one included (remembered per story, across restarts).
    public var endingsFound: Int
    /// How many ending beats the story has, once counted; nil while counting, or when story.json does
    /// not list its beats (or one of them could not be read).
    public var endingsTotal: Int?

    public init(pagesRead: Int, choicesMade: Int, endingsFound: Int, endingsTotal: Int? = nil) {
        self.pagesRead = pagesRead
        self.choicesMade = choicesMade
        self.endingsFound = endingsFound
        self.endingsTotal = endingsTotal
    }
}

/// A choice the reader took: on which page, which one (0-based) and its text; or the answer typed on a
/// question page (`answer`, with index 0 and the answer as its text).
public struct TakenChoice: Sendable, Equatable {
    public var from: StoryLocation
    public var index: Int
    public var text: String
    /// The typed answer, when the move answered a question page (nil: a choice).
    public var answer: String?

    public init(from: StoryLocation, index: Int, text: String, answer: String? = nil) {
        self.from = from
        self.index = index
        self.text = text
        self.answer = answer
    }
}

/// Why a sound played.
public enum SoundCue: Sendable, Equatable {
    case pageEnter, tap, choice(Int)
}

/// What the navigator (`ReaderViewModel`) reports happened, for the UI, read aloud, transcripts, the sound tests
/// and co-reading: its output. Not the reader loop's input, which is `ReaderPresenter.Event` (STYLE.md's "ReaderEvent").
public enum NavigatorEvent: Sendable, Equatable {
    case stateChanged(ReaderState)
    case pageEntered(StoryLocation)
    /// A choice was taken and the page it leads to is entered (published just before the state change that
    /// shows that page, so a transcript writes the choice before the page); a choice whose target failed to
    /// load is not taken.
    case choiceTaken(TakenChoice)
    /// The reader triggered a tap or choice sound, whether or not it plays here (muted, `--no-sound`, no
    /// server, not loaded yet): what co-reading sends to the followers, who play it on their own servers.
    case soundCued(AssetPath, SoundCue)
    case soundPlayed(AssetPath, SoundCue)
    case soundSkipped(AssetPath, SoundCue)
    /// Something the reader should be told once (a reset progress file, a moved location).
    case notice(String)
}
