import Dispatch

/// Performs storage work with a context that belongs to it alone.
public protocol ModelExecutor: Executor {
    /// The context that work on this executor uses.
    var modelContext: ModelContext { get }
}

/// A model executor that runs one job at a time, so it can be an actor's executor.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// The executor `@ModelActor` gives an actor: jobs run one at a time on a private serial queue, off the main
/// thread, and changes saved by other contexts of the container are applied to `modelContext` on that queue
/// as soon as they are saved.
///
/// Apple's runs an actor created on the main thread on the main thread; this one never does.
///
/// `@unchecked Sendable` as an executor must be: its context is used only by jobs on its serial queue.
public class DefaultSerialModelExecutor: @unchecked Sendable, SerialModelExecutor {
    /// The context jobs on this executor use.
    public final let modelContext: ModelContext
    private let queue = DispatchQueue(label: "SwiftData.DefaultSerialModelExecutor")

    /// Creates an executor for `modelContext`, which from now on must be used only from the executor's jobs.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
        let queue = self.queue
        modelContext.runChanges { work in queue.async(execute: work) }
    }

    /// Runs `job` on the executor's queue after the jobs enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// The executor in the form actors hold it.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Stops the program when called from outside the executor's queue; lets `assumeIsolated` work inside
    /// callbacks the queue runs.
    public func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
