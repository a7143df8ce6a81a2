/// The reader loop's one event stream: what happened since the loop's last turn (keys aside, which the
/// terminal holds), in order. Posting wakes the loop; each turn takes every event (`ReaderController`).
@MainActor
final class ReaderInbox {
    private var events: [ReaderPresenter.Event] = []
    private let wake: @MainActor () -> Void

    init(wake: @escaping @MainActor () -> Void) { self.wake = wake }

    var isEmpty: Bool { events.isEmpty }

    func post(_ event: ReaderPresenter.Event) {
        events.append(event)
        wake()
    }

    /// The oldest event not taken yet.
    func take() -> ReaderPresenter.Event? { events.isEmpty ? nil : events.removeFirst() }
}
