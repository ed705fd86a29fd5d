import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process of the tests, started with `posix_spawn`: the part of `Foundation.Process`'s interface that the
/// tests use, under the same names.
///
/// Foundation's `Process.run()` on Linux (swift-corelibs-foundation up to the Swift 6.3 toolchains) lists
/// `/proc/self/fd` to find the descriptors its child must close, copying a fixed 256 bytes of each entry's name; an
/// entry that ends the C library's directory buffer next to an unmapped page makes that copy crash the whole test
/// process, now and then, in a suite that starts many children. This launcher reads no directory: the child closes
/// every descriptor above its standard input, output and error itself (`posix_spawn_file_actions_addclosefrom_np`,
/// glibc 2.34 and later), so it inherits nothing else of the test process, such as the pipes of a child that another
/// test starts at the same moment.
///
/// A thread of the child's own waits for its end with `waitid`, so `isRunning` turns false as soon as the child has
/// ended, whatever else still holds the pipes it wrote to.
package final class ChildProcess {
    /// How a child ended.
    package enum TerminationReason: Sendable, Equatable {
        /// It exited; `terminationStatus` is its exit status.
        case exit
        /// A signal ended it; `terminationStatus` is the signal's number.
        case uncaughtSignal
    }

    /// The program to run, by path (no `PATH` lookup: run `/usr/bin/env` to have one).
    package var executableURL: URL?
    /// The program's arguments, after its path (which is its `argv[0]`).
    package var arguments: [String]?
    /// The program's environment; this process's when `nil`.
    package var environment: [String: String]?
    /// The directory the program starts in; this process's when `nil`.
    package var currentDirectoryURL: URL?
    /// The program's standard input: a `Pipe` (it reads the pipe's read end), a `FileHandle`
    /// (`FileHandle.nullDevice` for `/dev/null`), or `nil` to share this process's.
    package var standardInput: Any?
    /// The program's standard output: a `Pipe` (it writes to the pipe's write end), a `FileHandle`, or `nil` to share
    /// this process's.
    package var standardOutput: Any?
    /// The program's standard error, as `standardOutput`.
    package var standardError: Any?

    private let end = End()
    private var started = false

    /// A child not started yet.
    package init() {}

    /// The child's process identifier once it started; 0 before.
    package private(set) var processIdentifier: Int32 = 0

    /// Whether the child started and has not ended.
    package var isRunning: Bool { started && end.outcome == nil }

    /// How the child ended: its exit status, or the number of the signal that ended it. Only once it has ended.
    package var terminationStatus: Int32 {
        guard let outcome = end.outcome else { preconditionFailure("the child process has not ended yet") }
        return outcome.status
    }

    /// Whether the child exited or a signal ended it. Only once it has ended.
    package var terminationReason: TerminationReason {
        guard let outcome = end.outcome else { preconditionFailure("the child process has not ended yet") }
        return outcome.reason
    }

    /// Starts the child. Throws `ChildProcessError` when it cannot start (no executable, a program that cannot be
    /// run, a standard stream that is neither a `Pipe` nor a `FileHandle`, a second start).
    ///
    /// The ends of pipes that the child was given (the read end of its input's pipe, the write ends of its output's
    /// and error's) are closed in this process once it has started, as `Foundation.Process` does, so that the
    /// reader of an output pipe sees its end when the child and what it started have ended.
    package func run() throws {
        guard !started else { throw ChildProcessError("the child process was started already") }
        guard let executableURL else { throw ChildProcessError("no executableURL was set") }
        let path = executableURL.path
        let command = ([path] + (arguments ?? [])).joined(separator: " ")

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Each stream's source, duplicated above 2 and close-on-exec: a source that is itself 0, 1 or 2 cannot be
        // overwritten by an earlier `dup2` in the child, and no other child started meanwhile inherits the copy.
        var copies: [Int32] = []
        defer { copies.forEach { _ = close($0) } }
        var givenToChild: [FileHandle] = []
        for (target, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
            let handle: FileHandle
            switch stream {
            case nil:
                continue
            case let pipe as Pipe:
                handle = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                givenToChild.append(handle)
            case let fileHandle as FileHandle:
                handle = fileHandle
            default:
                throw ChildProcessError("\(command): standard stream \(target) is neither a Pipe nor a FileHandle")
            }
            // `FileHandle.nullDevice` has no descriptor of its own.
            guard handle.fileDescriptor >= 0 else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                continue
            }
            let copy = fcntl(handle.fileDescriptor, F_DUPFD_CLOEXEC, 3)
            guard copy >= 0 else {
                throw ChildProcessError("\(command): standard stream \(target) is not open (\(Self.describe(errno)))")
            }
            copies.append(copy)
            posix_spawn_file_actions_adddup2(&actions, copy, target)
        }
        guard let closeFrom = Self.addCloseFrom else {
            throw ChildProcessError(
                "\(command): the C library lacks posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)")
        }
        let closing = closeFrom(&actions, 3)
        guard closing == 0 else { throw ChildProcessError("\(command): \(Self.describe(closing))") }
        if let directory = currentDirectoryURL?.path {
            guard let changeDirectory = Self.addChangeDirectory else {
                throw ChildProcessError(
                    "\(command): the C library lacks posix_spawn_file_actions_addchdir_np (glibc 2.29 or later)")
            }
            let changing = changeDirectory(&actions, directory)
            guard changing == 0 else { throw ChildProcessError("\(command): \(Self.describe(changing))") }
        }

        // The child starts with no signal blocked and every signal at its default action, as a shell starts one.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + (arguments ?? [])).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned: Int32
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        } else {
            spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        guard spawned == 0 else {
            throw ChildProcessError("\(command) could not be started: \(Self.describe(spawned))")
        }
        started = true
        processIdentifier = pid
        for handle in givenToChild { try? handle.close() }
        end.collect(pid)
    }

    /// Waits for the child to end; returns at once if it was never started.
    package func waitUntilExit() {
        guard started else { return }
        _ = end.wait(until: nil)
    }

    /// Waits for the child to end, `timeout` seconds at most; whether it ended (or was never started).
    package func waitUntilExit(timeout: TimeInterval) -> Bool {
        guard started else { return true }
        return end.wait(until: Date(timeIntervalSinceNow: timeout))
    }

    /// Sends `SIGTERM` to the child, if it is running.
    package func terminate() { end.signal(SIGTERM) }

    /// Sends `SIGINT` to the child, if it is running.
    package func interrupt() { end.signal(SIGINT) }

    private static func describe(_ error: Int32) -> String {
        "\(String(cString: strerror(error))) (errno \(error))"
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time: Swift's `Glibc` module leaves out
    /// the `_np` declarations of `<spawn.h>`.
    private static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    /// glibc's `posix_spawn_file_actions_addchdir_np`, looked up as `addCloseFrom`.
    private static let addChangeDirectory: AddChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let process = dlopen(nil, RTLD_NOW), let address = dlsym(process, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}

/// Why a child process could not be started.
package struct ChildProcessError: Error, CustomStringConvertible {
    /// What went wrong, naming the command.
    package let description: String

    init(_ description: String) { self.description = description }
}

/// The end of a started child: collected by a thread of its own, and waited for by any number of threads.
private final class End: @unchecked Sendable {  // `pid` and `outcome` are guarded by `condition`
    private let condition = NSCondition()
    private var pid: pid_t = 0
    private var ended: (reason: ChildProcess.TerminationReason, status: Int32)?

    var outcome: (reason: ChildProcess.TerminationReason, status: Int32)? { condition.withLock { ended } }

    /// Starts the thread that collects the child `pid` when it ends. It waits without collecting it first
    /// (`WNOWAIT`), then collects it under the lock: while the lock is held and no end is recorded, the process
    /// identifier is still the child's, and a signal sent to it cannot reach another process.
    func collect(_ pid: pid_t) {
        condition.withLock { self.pid = pid }
        Thread.detachNewThread {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            self.condition.withLock {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                // The wait status: the exit status in bits 8 to 15 when the low 7 bits are 0, else the signal there.
                let signal = status & 0x7f
                self.ended = signal == 0 ? (.exit, (status >> 8) & 0xff) : (.uncaughtSignal, signal)
                self.condition.broadcast()
            }
        }
    }

    /// Waits until the child ended or `deadline` (if any) passed; whether it ended.
    func wait(until deadline: Date?) -> Bool {
        condition.withLock {
            while ended == nil {
                // No far-off deadline for none: `NSCondition.wait(until: .distantFuture)` traps on Linux.
                guard let deadline else {
                    condition.wait()
                    continue
                }
                if !condition.wait(until: deadline) { return ended != nil }
            }
            return true
        }
    }

    /// Sends `signal` to the child if it has not ended.
    func signal(_ signal: Int32) {
        condition.withLock {
            if pid != 0, ended == nil { _ = kill(pid, signal) }
        }
    }
}
