import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Time zones without ICU: FoundationEssentials knows no zone by name (`TimeZone(identifier: "UTC")` is
/// nil there) and takes `TimeZone.current` as GMT.
public enum LocalTime {
    /// Coordinated universal time.
    public static let utc = TimeZone(secondsFromGMT: 0)!

    /// The machine's zone (TZ, /etc/localtime) at `date`, as C's localtime_r sees it: its offset from GMT,
    /// summer time included.
    public static func zone(at date: Date = Date()) -> TimeZone {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return utc }
        return TimeZone(secondsFromGMT: Int(parts.tm_gmtoff)) ?? utc
    }

    /// English month abbreviations, January first (dates are shown in English whatever the locale, as
    /// the rest of the reader's words are).
    public static let monthAbbreviations = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
