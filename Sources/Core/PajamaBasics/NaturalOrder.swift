extension StringProtocol {
    /// Whether this comes before `other` as people sort names (Foundation's `localizedStandardCompare`,
    /// not in FoundationEssentials): case folded, and runs of digits compared by their value, so
    /// "chapter 2" < "Chapter 10", "a9" < "a09". Ties fall back to the exact characters, so the order is total.
    public func precedesNaturally(_ other: some StringProtocol) -> Bool {
        var a = lowercased().unicodeScalars.makeIterator(), b = other.lowercased().unicodeScalars.makeIterator()
        var x = a.next(), y = b.next()
        while let p = x, let q = y {
            if p.properties.numericType != nil, q.properties.numericType != nil, let pd = p.digitValue, let qd = q.digitValue {
                var left = [pd], right = [qd]
                x = a.next(); while let s = x, let d = s.digitValue { left.append(d); x = a.next() }
                y = b.next(); while let s = y, let d = s.digitValue { right.append(d); y = b.next() }
                let l = Array(left.drop(while: { $0 == 0 })), r = Array(right.drop(while: { $0 == 0 }))
                if l.count != r.count { return l.count < r.count }
                if l != r { return l.lexicographicallyPrecedes(r) }
                if left.count != right.count { return left.count < right.count }  // "a9" before "a09"
                continue
            }
            if p != q { return p.value < q.value }
            x = a.next(); y = b.next()
        }
        if (x == nil) != (y == nil) { return x == nil }
        return String(self) < String(other)
    }
}

private extension Unicode.Scalar {
    var digitValue: Int? { ("0"..."9").contains(self) ? Int(value - 48) : nil }
}
