/// An ordered run of content with named children: knots, stitches, gathers, choice bodies.
final class Container: InkObject {
    var name: String?
    private(set) var content: [InkObject] = []
    private(set) var namedContent: [String: InkObject] = [:]
    var visitsShouldBeCounted = false
    var turnIndexShouldBeCounted = false
    var countingAtStartOnly = false

    var countFlags: Int {
        get {
            (visitsShouldBeCounted ? 1 : 0) | (turnIndexShouldBeCounted ? 2 : 0) | (countingAtStartOnly ? 4 : 0)
        }
        set {
            visitsShouldBeCounted = newValue & 1 != 0
            turnIndexShouldBeCounted = newValue & 2 != 0
            countingAtStartOnly = newValue & 4 != 0
        }
    }

    /// Named children that are not also in `content`, in the order they were added.
    private(set) var namedOnlyOrder: [String] = []

    func addContent(_ object: InkObject) {
        content.append(object)
        object.parent = self
        if let c = object as? Container, let n = c.name { namedContent[n] = c }
    }

    func addToNamedContentOnly(_ name: String, _ object: InkObject) {
        object.parent = self
        namedContent[name] = object
        namedOnlyOrder.append(name)
    }

    func contentWithPathComponent(_ component: Path.Component) -> InkObject? {
        switch component {
        case let .index(i):
            return i >= 0 && i < content.count ? content[i] : nil
        case let .name(n):
            if n == "^" { return parent }
            return namedContent[n]
        }
    }

    func contentAtPath(_ path: Path, partialPathStart: Int = 0, partialPathLength: Int = -1) -> SearchResult {
        let length = partialPathLength == -1 ? path.length : partialPathLength
        var approximate = false
        var currentContainer: Container? = self
        var currentObject: InkObject = self
        var i = partialPathStart
        while i < length {
            let component = path.components[i]
            guard let container = currentContainer else { approximate = true; break }
            guard let found = container.contentWithPathComponent(component) else { approximate = true; break }
            let next = found as? Container
            if i < length - 1 && next == nil { approximate = true; break }
            currentObject = found
            currentContainer = next
            i += 1
        }
        return SearchResult(object: currentObject, approximate: approximate)
    }
}

/// A position in the story: a container and an index in it (-1: the container itself).
/// The reference is strong: a weak one cost a side-table copy at every step (a third of a step's time). Nothing
/// in the container tree holds a Pointer (a divert caches its target without owning it), so no cycle forms.
struct Pointer: Equatable {
    var container: Container?
    var index: Int

    static var null: Pointer { Pointer(container: nil, index: -1) }

    static func startOf(_ container: Container) -> Pointer { Pointer(container: container, index: 0) }

    var isNull: Bool { container == nil }

    func resolve() -> InkObject? {
        guard let container else { return nil }
        if index < 0 { return container }
        if container.content.isEmpty { return container }
        if index >= container.content.count { return nil }
        return container.content[index]
    }

    var path: Path? {
        guard let container else { return nil }
        if index >= 0 { return container.path.appending(.index(index)) }
        return container.path
    }

    /// `path` in ink's dotted form.
    var pathString: String? {
        guard let container else { return nil }
        let base = container.pathString
        if index >= 0 { return base.isEmpty ? String(index) : base + "." + String(index) }
        return base
    }

    static func == (lhs: Pointer, rhs: Pointer) -> Bool { lhs.container === rhs.container && lhs.index == rhs.index }
}
