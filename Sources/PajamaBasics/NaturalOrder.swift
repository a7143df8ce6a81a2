extension StringProtocol {
    /// Whether this comes before `other` as people sort names (what Foundation's
    /// `localizedStandardCompare` was used for): letters without regard to case, runs of digits by their
    /// value ("page 2" before "page 10"), ties broken by the plain order of the text.
    public func precedesNaturally<Other: StringProtocol>(_ other: Other) -> Bool {
        var a = Array(lowercased()), b = Array(other.lowercased())
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i].isASCII, a[i].isNumber, b[j].isASCII, b[j].isNumber {
                let startA = i, startB = j
                while i < a.count, a[i].isASCII, a[i].isNumber { i += 1 }
                while j < b.count, b[j].isASCII, b[j].isNumber { j += 1 }
                let digitsA = a[startA..<i].drop { $0 == "0" }, digitsB = b[startB..<j].drop { $0 == "0" }
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count }
                if let k = zip(digitsA, digitsB).first(where: { $0 != $1 }) { return k.0 < k.1 }
                continue
            }
            if a[i] != b[j] { return a[i] < b[j] }
            i += 1
            j += 1
        }
        if a.count - i != b.count - j { return a.count - i < b.count - j }
        a = Array(self)
        b = Array(other)
        return a.lexicographicallyPrecedes(b)
    }
}
