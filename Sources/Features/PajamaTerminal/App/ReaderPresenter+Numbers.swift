import PajamaModel

/// A choice's number typed digit by digit (docs/reader.md, "Choosing"). A number no longer one can start
/// is taken at once (on a page of 1 to 9 choices, every digit; of 12, `2` to `9`, and `1` `2`); a number a
/// longer one can start (`1` of 12) selects its choice and waits for the next digit, which extends it while
/// it comes within `numberWindow`; Enter takes the choice selected. Nothing is ever taken on a timer.
struct TypedNumber: Sendable, Equatable {
    var value: Int
    var at: ContinuousClock.Instant
}

extension ReaderPresenter {
    /// How long after a digit the next one still extends the number (`1` then `2`: 12).
    static let numberWindow: Duration = .milliseconds(1500)

    /// A digit typed at `now` with `choices` on the page, after the number `typed` (the digits before it, if
    /// any): the choice taken, or selected while the number may go on.
    mutating func typeDigit(_ digit: Int, after typed: TypedNumber?, choices: [Choice], at now: Instant) -> [ReaderEffect] {
        guard case .page(let page) = reader else { return [] }
        guard !choices.isEmpty else {
            // The choices come on a page of their own: the key says where they are rather than doing nothing.
            let ahead = page.beat.pages.last?.choices.isEmpty == false
            notice = ahead ? "the choices come after this page · Space reads on" : "no choices on this page · Space reads on"
            return []
        }
        var number = digit
        if let typed, now - typed.at < Self.numberWindow { number = typed.value * 10 + digit }
        guard (1...choices.count).contains(number) else {
            notice = "no choice \(number) · 1 to \(choices.count)"
            return []
        }
        if number * 10 > choices.count { return take(number - 1) }
        guard mayVote || mayNavigate() else { return [] }
        // A longer number can start so: the choice is selected, Enter takes it, the next digit goes on.
        typedNumber = TypedNumber(value: number, at: now)
        selectedChoice = number - 1
        keepsSelectionInView = true
        scroll = PageRenderer.scroll(showingChoice: selectedChoice, for: model(), width: width, height: height, from: scroll)
        notice = mayVote ? "\(number)… Enter votes for it, or type the next digit" : "\(number)… Enter takes it, or type the next digit"
        return []
    }
}
