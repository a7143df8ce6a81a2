extension StoryTestReport {
    /// The checks a JUnit report holds, one test case each: every kind of problem, and that an ending is
    /// reached.
    static let checks: [(name: String, kind: Problem.Kind?)] = [
        ("reaches an ending", nil),
        ("no dead ends", .deadEnd),
        ("no runtime errors", .runtimeError),
        ("every beat reached can be read", .unreadable),
        ("no missing pictures or sounds", .missingAsset),
        ("no loop without an ending", .noEnding),
    ]

    /// JUnit XML, as CI servers read it: one test suite for the story, one test case per check, a failure
    /// for each problem found (with its replay line).
    public var junit: String {
        var cases: [String] = []
        var failures = 0
        for check in Self.checks {
            var failed: [String] = []
            if let kind = check.kind {
                for problem in problems where problem.kind == kind {
                    let place = "beat \"\(problem.beatId)\"" + (problem.pageId.map { ", page \"\($0)\"" } ?? "")
                    failed.append("<failure message=\"\(Self.escaped("\(place): \(problem.message)"))\">\(Self.escaped(problem.replay))</failure>")
                }
            } else if endings.isEmpty {
                failed.append("<failure message=\"no run reached an ending\"></failure>")
            }
            if !failed.isEmpty { failures += 1 }
            cases.append("    <testcase classname=\"\(Self.escaped(story))\" name=\"\(Self.escaped(check.name))\">"
                         + (failed.isEmpty ? "" : "\n      " + failed.joined(separator: "\n      ") + "\n    ") + "</testcase>")
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="pajama test \(Self.escaped(story))" tests="\(Self.checks.count)" failures="\(failures)" errors="0">
            \(cases.joined(separator: "\n"))
              </testsuite>
            </testsuites>

            """
    }

    /// Text safe in an XML attribute or element.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": out += " "  // not allowed in XML 1.0
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
