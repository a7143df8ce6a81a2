#if canImport(Glibc)
import Glibc
#endif

/// A file's size in bytes (links followed), nil when nothing is there. Not `attributesOfItem(atPath:)[.size]`:
/// FoundationEssentials gives that size as a `UInt` where Foundation gave an `NSNumber`, so an `as? Int` of
/// it is always nil in the product (and never in a test process, which has Foundation): the first
/// Foundation cut read every Twine, ink and ChoiceScript file as unreadable so.
public func fileSize(atPath path: String) -> Int? {
    var facts = stat()
    guard stat(path, &facts) == 0 else { return nil }
    return Int(facts.st_size)
}
