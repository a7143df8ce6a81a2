/// The text a moment showed, kept in the state (`HarloweState.shown`) as a value: a link's hook that changes a
/// named hook of it (`(replace: ?sack)`) shows that text again with the change in place, as a browser's page
/// would look after the click.
public struct HarloweShownText: Sendable, Equatable, Codable {
    public indirect enum Item: Sendable, Equatable, Codable {
        case text(String)
        case hook(HarloweShownText)
        case link(String)
        case open(String), close(String)
        case notice(String)
        case align(String)
    }

    public var name: String?
    public var hidden: Bool
    public var collapses: Bool
    public var items: [Item]

    init(_ hook: HarloweOutputHook) {
        name = hook.name
        hidden = hook.hidden
        collapses = hook.collapses
        items = hook.items.map { item in
            switch item {
            case .text(let text): .text(text)
            case .hook(let inner): .hook(HarloweShownText(inner))
            case .link(let label): .link(label)
            case .open(let tag): .open(tag)
            case .close(let tag): .close(tag)
            case .notice(let text): .notice(text)
            case .align(let tag): .align(tag)
            }
        }
    }

    /// The tree again, to change and show.
    func output() -> HarloweOutputHook {
        let hook = HarloweOutputHook(name: name)
        hook.hidden = hidden
        hook.collapses = collapses
        hook.items = items.map { item in
            switch item {
            case .text(let text): .text(text)
            case .hook(let inner): .hook(inner.output())
            case .link(let label): .link(label)
            case .open(let tag): .open(tag)
            case .close(let tag): .close(tag)
            case .notice(let text): .notice(text)
            case .align(let tag): .align(tag)
            }
        }
        return hook
    }
}

extension HarloweOutputHook {
    /// Puts `replacement` where the first link written with `label` is (a link taken is no longer one; what it
    /// revealed shows in its place). True when there was one.
    func replaceLink(_ label: String, with replacement: [Item]) -> Bool {
        for (index, item) in items.enumerated() {
            switch item {
            case .link(let written) where written == label:
                items.replaceSubrange(index...index, with: replacement)
                return true
            case .hook(let inner):
                if inner.replaceLink(label, with: replacement) { return true }
            default: continue
            }
        }
        return false
    }
}
