import SwiftDataCore
import Testing

/// A test captures the framework's messages of its own task, whatever other tests log at the same time.
@Suite struct LogCaptureTests {
    @Test func eachTaskCapturesItsOwnMessages() async {
        let logs = await withTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    capturingLog {
                        for line in 0..<50 { Log.warning("task \(task) line \(line)") }
                    }.log
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(logs.count == 8)
        for log in logs {
            let task = log.first.flatMap { $0.split(separator: " ").dropFirst(3).first } ?? "?"
            #expect(log == (0..<50).map { "SwiftData warning: task \(task) line \($0)" })
        }
    }

    @Test func tasksStartedInsideReportToTheCapture() async {
        let (_, log) = await capturingLog {
            await Task { Log.error("from a task") }.value
        }
        #expect(log == ["SwiftData error: from a task"])
    }

    @Test func aWarningOnceIsReportedOncePerCapture() {
        let message = "once per capture \(#function)"
        for _ in 0..<2 {
            let (_, log) = capturingLog {
                Log.warningOnce(message)
                Log.warningOnce(message)
            }
            #expect(log == ["SwiftData warning: \(message)"])
        }
    }
}
