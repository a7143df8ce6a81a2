/// What a key asks the reader to do.
public enum ReaderAction: Sendable, Equatable {
    /// `digit`: a digit typed, 0-9: a choice's number, or a part of one (ReaderPresenter+Numbers.swift).
    case advance, back, digit(Int), selectPrevious, selectNext, takeSelected
    case restart, mute, volumeUp, volumeDown, nextTheme, help, quit, readAloud, repeatLine
    /// `c`: the captions of sounds on / off.
    case captions
    /// The backlog of pages read (`b`), the bookmarks (`o`), the story's status page (`i`: its stats).
    case backlog, bookmarks, status
    /// `>` on through the pages seen before; `a` auto-forward on / off, `[` `]` its pace; `w` timed text
    /// on / off (off: each page whole, no auto-forward).
    case skipSeen, autoForward, slower, faster, timedText
    /// A page step (PgUp / PgDn) or one line (↑ / ↓ on pages without choices) through a long page.
    case scrollUp, scrollDown, scrollLineUp, scrollLineDown
    case retry, skip, confirm(Bool), redraw
    /// The owner of a session that takes votes takes the choice with the most votes.
    case takeLeadingVote
}

/// Maps keys to actions (see docs/reader.md for the table).
public enum KeyMap {
    /// The action for `key`, given whether the page shows choices (Enter takes the selection there, and
    /// ↑ ↓ move it; elsewhere ↑ ↓ scroll the text a line).
    public static func action(for key: Key, onChoicePage: Bool) -> ReaderAction? {
        switch key {
        case .enter: return onChoicePage ? .takeSelected : .advance
        case .right: return .advance
        case .left, .backspace: return .back
        case .up: return onChoicePage ? .selectPrevious : .scrollLineUp
        case .down: return onChoicePage ? .selectNext : .scrollLineDown
        case .pageUp: return .scrollUp
        case .pageDown: return .scrollDown
        case .escape: return .quit
        case .resize, .picturesChanged: return .redraw
        case .click: return nil
        case .character(let c):
            switch c {
            case " ", "l": return .advance
            case "h": return .back
            case "0"..."9": return .digit(Int(String(c))!)
            case "r": return .restart
            case "b": return .backlog
            case "o": return .bookmarks
            case "i": return .status
            case "m": return .mute
            case "v": return .readAloud
            case "V": return .repeatLine
            case "c": return .captions
            case ">": return .skipSeen
            case "a": return .autoForward
            case "w": return .timedText
            case "[": return .slower
            case "]": return .faster
            case "+", "=": return .volumeUp
            case "-": return .volumeDown
            case "t": return .nextTheme
            case "?": return .help
            case "q": return .quit
            case "g": return .takeLeadingVote
            case "s": return .skip
            case "y": return .confirm(true)
            case "n": return .confirm(false)
            case "k": return onChoicePage ? .selectPrevious : .scrollLineUp
            case "j": return onChoicePage ? .selectNext : .scrollLineDown
            default: return nil
            }
        }
    }
}
