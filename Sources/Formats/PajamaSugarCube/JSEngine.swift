import CJavaScriptCore
import FoundationEssentials
import Glibc
import PajamaBasics

/// One JavaScriptCore context: the sandbox a SugarCube story's JavaScript runs in (docs/sugarcube.md,
/// "JavaScript"). It holds only JavaScript's own objects and the SugarCube API of `SugarCubePrelude`: no
/// file, network, process or terminal. Every evaluation is stopped after `timeLimit` seconds (JSC's
/// execution time limit, a watchdog on the group).
///
/// Not thread-safe: owned by one runtime.
final class JSEngine {
    /// The longest one evaluation runs before it is stopped.
    static let timeLimit = 1.0

    /// How often (in CPU seconds) the watchdog looks at the clock.
    static let tick = 0.05

    /// The deadline of the evaluation running, read by the time limit's callback (on the same thread).
    private final class Watchdog {
        var deadline = ContinuousClock.now
        var fired = false
    }

    /// Sets the limit's tick; each tick before the deadline sets it again (a callback that returns false is
    /// otherwise not called again), the first after it stops the script.
    private static func arm(_ group: JSContextGroupRef, _ watchdog: Watchdog) {
        JSContextGroupSetExecutionTimeLimit(group, tick, { context, opaque in
            guard let opaque, let context else { return true }
            let watchdog = Unmanaged<Watchdog>.fromOpaque(opaque).takeUnretainedValue()
            if ContinuousClock.now >= watchdog.deadline {
                watchdog.fired = true
                return true
            }
            JSEngine.arm(JSContextGetGroup(context), watchdog)
            return false
        }, Unmanaged.passUnretained(watchdog).toOpaque())
    }

    private let watchdog = Watchdog()
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef

    init() {
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
    }

    deinit {
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// Runs `script` (named `source` in its errors) and returns its value as a string (`String(value)`;
    /// "undefined" for none).
    @discardableResult
    func evaluate(_ script: String, source: String = "script") throws(JSError) -> String {
        let value = try run(script, source: source)
        return string(value)
    }

    /// Only whether `script` parses (the message of its syntax error otherwise).
    func syntaxError(in script: String) -> String? {
        let text = JSStringCreateWithUTF8CString(script)
        defer { JSStringRelease(text) }
        var exception: JSValueRef?
        if JSCheckScriptSyntax(context, text, nil, 1, &exception) { return nil }
        return exception.map(string) ?? "a syntax error"
    }

    private func run(_ script: String, source: String) throws(JSError) -> JSValueRef? {
        let text = JSStringCreateWithUTF8CString(script)
        let url = JSStringCreateWithUTF8CString(source)
        defer {
            JSStringRelease(text)
            JSStringRelease(url)
        }
        var exception: JSValueRef?
        // JSC's limit counts the thread's CPU time, which a busy machine gives slowly: it is a short tick here,
        // and the callback stops the script once the wall clock passes the deadline.
        watchdog.deadline = ContinuousClock.now + .milliseconds(Int(Self.timeLimit * 1000))
        watchdog.fired = false
        Self.arm(group, watchdog)
        let value = JSEvaluateScript(context, text, nil, url, 1, &exception)
        JSContextGroupClearExecutionTimeLimit(group)
        if let exception {
            let timedOut = watchdog.fired
            throw JSError(message: timedOut ? "ran longer than \(Int(Self.timeLimit)) s and was stopped" : string(exception), timedOut: timedOut)
        }
        return value
    }

    private func string(_ value: JSValueRef?) -> String {
        guard let value, let copy = JSValueToStringCopy(context, value, nil) else { return "undefined" }
        defer { JSStringRelease(copy) }
        let size = JSStringGetMaximumUTF8CStringSize(copy)
        var buffer = [CChar](repeating: 0, count: size)
        let written = JSStringGetUTF8CString(copy, &buffer, size)
        return String(decoding: buffer.prefix(max(0, written - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A script that failed: its error's message (`TypeError: ...`), or that it ran too long.
struct JSError: Error, Equatable {
    var message: String
    var timedOut: Bool
}
