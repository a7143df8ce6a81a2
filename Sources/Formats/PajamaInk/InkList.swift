/// One item of an ink LIST: its origin list's name and its own name.
public struct InkListItem: Hashable, Sendable, CustomStringConvertible {
    public let originName: String?
    public let itemName: String

    public init(originName: String?, itemName: String) {
        self.originName = originName
        self.itemName = itemName
    }

    /// From `Origin.item`.
    init(fullName: String) {
        let parts = fullName.unicodeScalars.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            originName = String(String.UnicodeScalarView(parts[0]))
            itemName = String(String.UnicodeScalarView(parts[1]))
        } else {
            originName = nil
            itemName = fullName
        }
    }

    public var fullName: String { (originName ?? "?") + "." + itemName }
    public var description: String { fullName }
}

/// A LIST declaration: its name and the value of each item.
final class ListDefinition {
    let name: String
    let itemNameToValue: [String: Int]
    /// Items in declaration order (as the compiled JSON lists them).
    let orderedItems: [(InkListItem, Int)]

    init(name: String, items: [(String, Int)]) {
        self.name = name
        var map: [String: Int] = [:]
        for (n, v) in items { map[n] = v }
        itemNameToValue = map
        orderedItems = items.map { (InkListItem(originName: name, itemName: $0.0), $0.1) }
    }

    func item(withValue value: Int) -> InkListItem? {
        orderedItems.first { $0.1 == value }?.0
    }

    func value(for item: InkListItem) -> Int? {
        item.originName == name ? itemNameToValue[item.itemName] : nil
    }
}

/// Every LIST of a story, and the single-item list value each unambiguous item name stands for.
final class ListDefinitionsOrigin {
    private(set) var lists: [String: ListDefinition] = [:]
    let orderedLists: [ListDefinition]
    private var singleItemLists: [String: ListValue] = [:]

    init(_ definitions: [ListDefinition]) {
        orderedLists = definitions
        for definition in definitions {
            lists[definition.name] = definition
            for (item, value) in definition.orderedItems {
                let listValue = ListValue(InkList(single: item, value: value))
                singleItemLists[item.itemName] = listValue
                singleItemLists[item.fullName] = listValue
            }
        }
    }

    func definition(named name: String) -> ListDefinition? { lists[name] }

    func findSingleItemList(named name: String) -> ListValue? { singleItemLists[name] }
}

/// The value of an ink LIST variable: a set of items, each with its integer value.
public final class InkList: CustomStringConvertible {
    public private(set) var items: [InkListItem: Int] = [:]
    private var initialOriginNames: [String]?
    var origins: [ListDefinition] = []

    init() {}

    init(copying other: InkList) {
        items = other.items
        initialOriginNames = other.initialOriginNames
        origins = other.origins
    }

    init(single item: InkListItem, value: Int) {
        items[item] = value
    }

    init(originNamed name: String, definitions: ListDefinitionsOrigin?) throws(StoryError) {
        initialOriginNames = [name]
        guard let def = definitions?.definition(named: name) else {
            throw StoryError("InkList origin could not be found in story when constructing new list: \(name)")
        }
        origins = [def]
    }

    var count: Int { items.count }

    func add(_ item: InkListItem, _ value: Int) { items[item] = value }
    func remove(_ item: InkListItem) { items[item] = nil }
    func contains(_ item: InkListItem) -> Bool { items[item] != nil }

    /// Origin names: derived from the items when there are any, else the names it was created with.
    var originNames: [String]? {
        if !items.isEmpty { return orderedItems.compactMap { $0.0.originName } }
        return initialOriginNames
    }

    func setInitialOriginNames(_ names: [String]?) { initialOriginNames = names }

    /// Items by value, then by origin name (ink's display and iteration order).
    var orderedItems: [(InkListItem, Int)] {
        items.sorted { a, b in
            if a.value == b.value { return (a.key.originName ?? "") < (b.key.originName ?? "") }
            return a.value < b.value
        }.map { ($0.key, $0.value) }
    }

    var maxItem: (InkListItem, Int)? {
        var best: (InkListItem, Int)?
        for entry in orderedItems where best == nil || entry.1 > best!.1 { best = entry }
        return best
    }

    var minItem: (InkListItem, Int)? {
        var best: (InkListItem, Int)?
        for entry in orderedItems where best == nil || entry.1 < best!.1 { best = entry }
        return best
    }

    var originOfMaxItem: ListDefinition? {
        guard let maxName = maxItem?.0.originName else { return nil }
        return origins.first { $0.name == maxName }
    }

    var inverse: InkList {
        let list = InkList()
        for origin in origins {
            for (item, value) in origin.orderedItems where items[item] == nil { list.add(item, value) }
        }
        return list
    }

    var all: InkList {
        let list = InkList()
        for origin in origins {
            for (item, value) in origin.orderedItems { list.add(item, value) }
        }
        return list
    }

    func union(_ other: InkList) -> InkList {
        let result = InkList(copying: self)
        for (item, value) in other.items { result.items[item] = value }
        return result
    }

    func intersect(_ other: InkList) -> InkList {
        let result = InkList()
        for (item, value) in items where other.items[item] != nil { result.add(item, value) }
        return result
    }

    func without(_ other: InkList) -> InkList {
        let result = InkList(copying: self)
        for item in other.items.keys { result.remove(item) }
        return result
    }

    func contains(_ other: InkList) -> Bool {
        if other.items.isEmpty || items.isEmpty { return false }
        return other.items.keys.allSatisfy { items[$0] != nil }
    }

    func greaterThan(_ other: InkList) -> Bool {
        if items.isEmpty { return false }
        if other.items.isEmpty { return true }
        return minItem!.1 > other.maxItem!.1
    }

    func greaterThanOrEquals(_ other: InkList) -> Bool {
        if items.isEmpty { return false }
        if other.items.isEmpty { return true }
        return minItem!.1 >= other.minItem!.1 && maxItem!.1 >= other.maxItem!.1
    }

    func lessThan(_ other: InkList) -> Bool {
        if other.items.isEmpty { return false }
        if items.isEmpty { return true }
        return maxItem!.1 < other.minItem!.1
    }

    func lessThanOrEquals(_ other: InkList) -> Bool {
        if other.items.isEmpty { return false }
        if items.isEmpty { return true }
        return maxItem!.1 <= other.maxItem!.1 && minItem!.1 <= other.minItem!.1
    }

    func equals(_ other: InkList) -> Bool {
        other.items.count == items.count && items.keys.allSatisfy { other.items[$0] != nil }
    }

    func maxAsList() -> InkList { maxItem.map { InkList(single: $0.0, value: $0.1) } ?? InkList() }
    func minAsList() -> InkList { minItem.map { InkList(single: $0.0, value: $0.1) } ?? InkList() }

    func subRange(min minBound: InkValue, max maxBound: InkValue) -> InkList {
        if items.isEmpty { return InkList() }
        var minValue = 0
        var maxValue = Int(Int32.max)
        switch minBound {
        case let .int(i): minValue = i
        case let .list(l) where l.count > 0: minValue = l.minItem!.1
        default: break
        }
        switch maxBound {
        case let .int(i): maxValue = i
        case let .list(l) where l.count > 0: maxValue = l.maxItem!.1
        default: break
        }
        let sub = InkList()
        sub.setInitialOriginNames(originNames)
        for (item, value) in orderedItems where value >= minValue && value <= maxValue { sub.add(item, value) }
        return sub
    }

    public var description: String { orderedItems.map(\.0.itemName).joined(separator: ", ") }
}
