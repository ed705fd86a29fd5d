import SwiftDataCore

/// Runs `body` with the framework's warnings and errors captured instead of printed on standard error, and returns
/// its result with what it logged (`SwiftData warning: ...` lines). A test that expects a warning captures it this
/// way and asserts on it, so a passing `swift test` prints none. The capture is the test's own, however many tests
/// run at once: it holds what this task, and the tasks it starts, logged.
func capturingLog<T>(_ body: () throws -> T) rethrows -> (result: T, log: [String]) {
    let capture = LogCapture()
    let result = try Log.$capture.withValue(capture) { try body() }
    return (result, capture.lines)
}

/// `capturingLog` for asynchronous work.
func capturingLog<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows
    -> (result: T, log: [String])
{
    let capture = LogCapture()
    let result = try await Log.$capture.withValue(capture) { try await body() }
    return (result, capture.lines)
}
