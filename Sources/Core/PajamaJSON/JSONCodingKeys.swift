/// The coding keys the encoder and the decoder share: an array element's index, and `super`.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue!)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) {}
    init?(intValue: Int) { nil }
}
