import Foundation

/// Where the library looks: the argument, else `$PAJAMA_STORIES`, else `./Stories`.
enum StoryFolder {
    static func resolve(_ argument: String?) -> String {
        if let argument { return argument }
        if let env = ProcessInfo.processInfo.environment["PAJAMA_STORIES"], !env.isEmpty { return env }
        return "Stories"
    }
}
