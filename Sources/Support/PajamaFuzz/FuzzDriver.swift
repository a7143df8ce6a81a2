import Foundation
import PajamaStorage

/// The `main` of the fuzz executable (`pajama-fuzz TARGET ...`). The first argument picks the target; built
/// with `-DFUZZING` (and `-sanitize=fuzzer,address`) it hands the target's `testOneInput` to libFuzzer's
/// `LLVMFuzzerRunDriver` with the rest of the command line (corpus folders, `-max_total_time`, ...); without
/// it, the same executable replays the files and folders named after the target (a crash found by the
/// fuzzer, a corpus) through the same function, so the normal build keeps the targets compiling.
///
/// Either way the inputs run on a thread of their own while the main thread serves the main actor: the
/// progress target drives the real `ReaderViewModel`, which lives there.
public enum FuzzDriver {
    /// One input: `data` and `size` as libFuzzer passes them; returns 0.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// The executable's input function, once `main` runs.
    nonisolated(unsafe) static var testOneInput: TestOneInput?

    public static func main(targets: [String: TestOneInput]) -> Never {
        var given = CommandLine.arguments
        let names = targets.keys.sorted().joined(separator: " ")
        guard given.count > 1, let testOneInput = targets[given[1]] else {
            let unknown = given.count > 1 ? "no target \"\(given[1])\"; " : ""
            FileHandle.standardError.write(Data("\(unknown)usage: \(given.first ?? "pajama-fuzz") TARGET [ARGUMENTS...]; the targets: \(names)\n".utf8))
            exit(2)
        }
        // libFuzzer (and the replay) see the program's name followed by their own arguments.
        given.remove(at: 1)
        let arguments = given
        Self.testOneInput = testOneInput
        // The reader's own log handler, at its default level, into the scratch folder (not the terminal).
        PajamaLog.bootstrap(file: ScratchFolder.url.appendingPathComponent("pajama.log"), level: PajamaLog.defaultLevel)
        let runner = Thread {
            #if FUZZING
            exit(runDriver(arguments, testOneInput))
            #else
            exit(replay(Array(arguments.dropFirst()), testOneInput))
            #endif
        }
        runner.stackSize = 64 << 20  // deep JSON under ASan needs more than a secondary thread's default
        runner.start()
        dispatchMain()
    }

    /// The bytes libFuzzer passes, as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    #if FUZZING
    private static func runDriver(_ arguments: [String], _ testOneInput: TestOneInput) -> Int32 {
        var argc = Int32(arguments.count)
        let cStrings = arguments.map { strdup($0) } + [nil]
        var argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: cStrings.count)
        argv.initialize(from: cStrings, count: cStrings.count)
        let start = argv
        defer {
            cStrings.forEach { free($0) }
            start.deallocate()
        }
        return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    }
    #endif

    /// Runs every file named, and every file in every folder named; prints one line per input.
    static func replay(_ paths: [String], _ testOneInput: TestOneInput) -> Int32 {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(CommandLine.arguments.first ?? "pajama-fuzz") TARGET FILE-OR-FOLDER...\n".utf8))
            return 2
        }
        var count = 0
        for path in paths {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(file): cannot be read\n".utf8))
                    return 1
                }
                let bytes = [UInt8](data)
                _ = bytes.withUnsafeBufferPointer { testOneInput($0.baseAddress, $0.count) }
                count += 1
            }
        }
        print("replayed \(count) input(s) without a finding")
        return 0
    }

    private static func files(at path: String) -> [String] {
        guard FileManager.default.isDirectory(path) else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }.filter { !FileManager.default.isDirectory($0) }
    }
}

#if FUZZING
/// libFuzzer's archive also holds a `main` of its own, which calls this; the link keeps the executable's
/// `main` (SwiftPM's `--defsym main=...` wins under lld), but the symbol must still exist: it runs the
/// executable's input function like the driver does.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let testOneInput = FuzzDriver.testOneInput else {
        // Only reachable if libFuzzer's own main ran instead of the target's: say so and stop the run.
        FileHandle.standardError.write(Data("fuzz target: no input function (FuzzDriver.main was not called)\n".utf8))
        exit(2)
    }
    return testOneInput(data, size)
}

/// libFuzzer's entry point for a program that has its own `main` (linked from the toolchain's libFuzzer).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ testOneInput: FuzzDriver.TestOneInput) -> Int32
#endif

extension FileManager {
    fileprivate func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
