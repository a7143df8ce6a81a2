import Foundation
import PajamaModel
import PajamaStorage

/// `pajama-bench --save-progress-forever FOLDER` (hidden): a child for the progress fault test, which
/// SIGKILLs it at random points. Saves story "s"'s progress with the real `ProgressStore` again and
/// again, save n with `pagesRead` n and a history of n % 200 + 1 entries (so a torn or mixed file cannot
/// pass for a whole one), until killed.
enum ProgressSaveLoop {
    static func progress(_ n: Int) -> ReadingProgress {
        let history = (0...(n % 200)).map { StoryLocation(beatId: "beat\($0)", pageId: "page\(n)") }
        return ReadingProgress(location: StoryLocation(beatId: "now", pageId: "page\(n)"), history: history, pagesRead: n)
    }

    static func run(folder: String) -> Never {
        let store = ProgressStore(folder: URL(fileURLWithPath: folder))
        var n = 1
        while true {
            if let problem = store.save(storyId: "s", progress(n)) {
                FileHandle.standardError.write(Data("save \(n): \(problem)\n".utf8))
                exit(1)
            }
            n += 1
        }
    }
}
