import FoundationEssentials
import Glibc
import PajamaBasics

/// The process's locale, set once the same way for the reader, the library and `pajama doctor`: the
/// environment's (`LANG`, `LC_*`), and when its character set is not UTF-8 (no `LANG` at all, `LANG=C`),
/// a UTF-8 character set for `LC_CTYPE` only (`C.UTF-8`, else the first UTF-8 locale found), so that curses
/// draws `—`, `›` and `↑↓` from the first frame. Pajama's text is UTF-8 whatever the locale says; messages,
/// dates and sorting keep the environment's locale.
public enum TerminalLocale {
    /// What `setUp` found and did.
    public struct State: Sendable, Equatable {
        /// The environment's character set (`ANSI_X3.4-1968` when no locale is set).
        public var environmentCodeset: String
        /// The character set now in effect.
        public var codeset: String
        /// The UTF-8 locale put in for `LC_CTYPE`, when the environment's was not UTF-8.
        public var fallback: String?

        /// Whether text is drawn as UTF-8 (the environment's locale or the fallback).
        public var isUTF8: Bool { TerminalLocale.isUTF8(codeset) }
    }

    /// UTF-8 locales tried, in order, when the environment's is not UTF-8.
    static let fallbacks = ["C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"]

    /// Sets the locale (see the type's documentation); safe to call more than once.
    @discardableResult
    public static func setUp() -> State {
        setlocale(LC_ALL, "")
        let environment = codeset()
        guard !isUTF8(environment) else { return State(environmentCodeset: environment, codeset: environment, fallback: nil) }
        for name in fallbacks where setlocale(LC_CTYPE, name) != nil {
            let now = codeset()
            if isUTF8(now) { return State(environmentCodeset: environment, codeset: now, fallback: name) }
        }
        setlocale(LC_ALL, "")
        return State(environmentCodeset: environment, codeset: environment, fallback: nil)
    }

    /// The character set of `LC_CTYPE` now.
    static func codeset() -> String { String(cString: nl_langinfo(nl_item(CODESET))) }

    static func isUTF8(_ codeset: String) -> Bool { codeset.uppercased().replacing("-", with: "") == "UTF8" }
}
