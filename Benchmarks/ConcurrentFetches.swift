import Foundation
import Synchronization

/// A fetch repeated on a thread of its own while the calling thread writes, each one timed: how long a reader
/// waits while a writer works (workload 10).
///
/// The thread makes its fetch (a context, or a connection, of its own) and runs it once before the timed part, so
/// that opening a connection and first use are setup. `during(_:)` then lets it fetch again and again until the
/// write returns, and waits for the fetch under way: every fetch that started during the write is timed.
final class ConcurrentFetches: Sendable {
    private struct State {
        var writing = true
        var latencies: [Double] = []
        var failure: String?
        /// What the fetches read, kept so that reading it cannot be optimized away.
        var digest = 0
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let start = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread and waits until its first fetch is done. `makeFetch` runs on that thread and returns the
    /// fetch, which returns a digest of what it read.
    init(_ makeFetch: @escaping @Sendable () throws -> () throws -> Int) throws {
        let thread = Thread { [self] in
            do {
                let fetch = try makeFetch()
                _ = try fetch()
                ready.signal()
                start.wait()
                repeat {
                    let begin = ChildProcess.now(CLOCK_MONOTONIC)
                    let digest = try fetch()
                    let end = ChildProcess.now(CLOCK_MONOTONIC)
                    state.withLock {
                        $0.latencies.append(end - begin)
                        $0.digest &+= digest
                    }
                } while state.withLock { $0.writing }
            } catch {
                state.withLock { $0.failure = "\(error)" }
                ready.signal()
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
        if let failure = state.withLock({ $0.failure }) { throw ChildError("the fetching thread failed: \(failure)") }
    }

    /// Runs `write` on the calling thread while the other thread fetches; returns when both are done.
    func during(_ write: () throws -> Void) throws {
        start.signal()
        defer {
            state.withLock { $0.writing = false }
            finished.wait()
        }
        try write()
    }

    /// The time of each fetch `during(_:)` saw start, in seconds; throws what the fetching thread threw.
    func latencies() throws -> [Double] {
        let state = state.withLock { $0 }
        if let failure = state.failure { throw ChildError("the fetching thread failed: \(failure)") }
        return state.latencies
    }
}
