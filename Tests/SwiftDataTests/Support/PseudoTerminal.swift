import Foundation

/// A program run on a pseudo-terminal of the test's own, as a user runs it in a terminal window: keys go in with
/// `type`, and `screen(until:)` reads what the program draws into a `TerminalScreen` until the screen shows what the
/// test waits for. The program gets a session of its own with the terminal as its controlling terminal; it is
/// killed when the test lets go of it, if it is still running.
final class PseudoTerminal {
    /// How long `screen(until:)` and `waitForExit` wait before they throw, unless told otherwise: a bound that keeps a
    /// failing test from hanging, not a measure of speed.
    static let defaultTimeout: TimeInterval = 60

    /// The program's process identifier.
    let pid: pid_t
    /// What the program drew so far.
    private(set) var screen: TerminalScreen
    private let controller: Int32
    private var status: Int32?
    private let command: String

    /// Starts `program` with `arguments` on a new terminal `rows` by `columns`, with this process's environment
    /// changed by `environment` (Swift's backtracer off, `TERM` an xterm's).
    init(
        program: String, arguments: [String] = [], environment: [String: String] = [:], rows: Int = 24,
        columns: Int = 80
    ) throws {
        command = ([program] + arguments).joined(separator: " ")
        screen = TerminalScreen(rows: rows, columns: columns)
        controller = try Self.openController()
        do {
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            guard ioctl(controller, UInt(TIOCSWINSZ), &size) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
            let flags = fcntl(controller, F_GETFL)
            guard fcntl(controller, F_SETFL, flags | O_NONBLOCK) == 0 else {
                throw POSIXError(.init(rawValue: errno)!)
            }
            let terminalPath = try Self.terminalPath(controller)
            let variables = ProcessInfo.processInfo.environment
                .merging(["SWIFT_BACKTRACE": "enable=no", "TERM": "xterm-256color"]) { $1 }
                .merging(environment) { $1 }
            pid = try Self.spawn(
                program, arguments: arguments, terminal: terminalPath,
                environment: variables.map { "\($0.key)=\($0.value)" })
        } catch {
            close(controller)
            throw error
        }
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var ended: Int32 = 0
            waitpid(pid, &ended, 0)
        }
        close(controller)
    }

    /// Sends `text` as typed keys: its UTF-8 bytes, `\r` for Enter.
    func type(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        let deadline = Date.now.addingTimeInterval(Self.defaultTimeout)
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if errno == EAGAIN, Date.now < deadline {
                _ = try wait(for: Int16(POLLOUT), until: deadline)
            } else {
                throw PseudoTerminalError(command: command, problem: "could not type: error \(errno)", screen: screen)
            }
        }
    }

    /// Sends a key that is not text.
    func press(_ key: Key) throws { try type(key.bytes) }

    /// Keys that send escape sequences or control codes.
    enum Key {
        case enter, escape, up, down, backspace

        var bytes: String {
            switch self {
            case .enter: "\r"
            case .escape: "\u{1B}"
            case .up: "\u{1B}[A"
            case .down: "\u{1B}[B"
            case .backspace: "\u{7F}"
            }
        }
    }

    /// Reads what the program draws until the screen's text satisfies `condition`, and returns that text; throws,
    /// with the screen as it is, when `timeout` seconds pass first or the program ends first. `expectation` says
    /// in the error what the test waited for.
    @discardableResult func screen(
        until expectation: String, timeout: TimeInterval = defaultTimeout, _ condition: (String) -> Bool
    ) throws -> String {
        let deadline = Date.now.addingTimeInterval(timeout)
        while !condition(screen.text) {
            guard try readAvailable(until: deadline) else {
                throw PseudoTerminalError(
                    command: command,
                    problem: status == nil
                        ? "did not show \(expectation) within \(timeout) s" : "ended before it showed \(expectation)",
                    screen: screen)
            }
        }
        return screen.text
    }

    /// Reads what the program draws until it ends, and returns its exit status (or `128 + signal`); kills it and
    /// throws when it has not ended after `timeout` seconds.
    @discardableResult func waitForExit(timeout: TimeInterval = defaultTimeout) throws -> Int32 {
        let deadline = Date.now.addingTimeInterval(timeout)
        while try readAvailable(until: deadline) {}
        if status == nil {
            // The terminal was closed but the program may not have ended yet: it ends or is killed.
            var ended: Int32 = 0
            if waitpid(pid, &ended, WNOHANG) == 0 {
                kill(pid, SIGKILL)
                waitpid(pid, &ended, 0)
                status = -1
                throw PseudoTerminalError(
                    command: command, problem: "did not end within \(timeout) s and was killed", screen: screen)
            }
            status = (ended & 0x7F) == 0 ? (ended >> 8) & 0xFF : 128 + (ended & 0x7F)
        }
        return status ?? -1
    }

    /// Waits for output until `deadline` and adds it to the screen: `true` when something was read, `false` when the
    /// deadline passed or the program closed the terminal (it ended).
    private func readAvailable(until deadline: Date) throws -> Bool {
        guard status == nil else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(controller, &buffer, buffer.count)
            if count > 0 {
                screen.feed(buffer[..<count])
                return true
            }
            // EIO: no process has the terminal open any more.
            if count == 0 || errno == EIO { return endedOrWaited() }
            guard errno == EAGAIN || errno == EINTR else {
                throw PseudoTerminalError(command: command, problem: "could not read: error \(errno)", screen: screen)
            }
            guard try wait(for: Int16(POLLIN), until: deadline) else { return false }
        }
    }

    /// After the terminal's last user closed it: collects the program's status, waiting for it to end.
    private func endedOrWaited() -> Bool {
        var ended: Int32 = 0
        // The program is ending: its descriptors close as it exits.
        status =
            waitpid(pid, &ended, 0) == pid ? ((ended & 0x7F) == 0 ? (ended >> 8) & 0xFF : 128 + (ended & 0x7F)) : -1
        return false
    }

    /// Waits until the terminal is ready for `events` or `deadline` passes (`false`).
    private func wait(for events: Int16, until deadline: Date) throws -> Bool {
        var descriptor = pollfd(fd: controller, events: events, revents: 0)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 1000)) + 1)
            if ready > 0 { return true }
            if ready < 0, errno != EINTR {
                throw PseudoTerminalError(command: command, problem: "could not poll: error \(errno)", screen: screen)
            }
        }
    }

    /// The controlling side of a new pseudo-terminal, closed on exec so no other child inherits it. The functions
    /// that make one are looked up in the C library by name: Swift's Glibc module does not declare them.
    private static func openController() throws -> Int32 {
        let library = dlopen(nil, RTLD_NOW)
        guard let open = dlsym(library, "posix_openpt"), let unlock = dlsym(library, "unlockpt") else {
            throw POSIXError(.ENOSYS)
        }
        let openTerminal = unsafeBitCast(open, to: (@convention(c) (Int32) -> Int32).self)
        let unlockTerminal = unsafeBitCast(unlock, to: (@convention(c) (Int32) -> Int32).self)
        let controller = openTerminal(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard controller >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
        guard unlockTerminal(controller) == 0 else {
            let error = POSIXError(.init(rawValue: errno)!)
            close(controller)
            throw error
        }
        return controller
    }

    /// The path of the terminal device whose controlling side is `controller`.
    private static func terminalPath(_ controller: Int32) throws -> String {
        guard let name = dlsym(dlopen(nil, RTLD_NOW), "ptsname_r") else { throw POSIXError(.ENOSYS) }
        let terminalName = unsafeBitCast(
            name, to: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
        var path = [CChar](repeating: 0, count: 128)
        let result = terminalName(controller, &path, path.count)
        guard result == 0 else { throw POSIXError(.init(rawValue: result)!) }
        return String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts `program` in a session of its own, with the terminal at `terminal` as its standard input, output and
    /// error and (opened first in the new session) its controlling terminal.
    private static func spawn(_ program: String, arguments: [String], terminal: String, environment: [String])
        throws -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc's 0x80; the Glibc module does not declare it), and the default signal handling
        // and an empty signal mask, whatever the test process has.
        var defaults = sigset_t()
        sigfillset(&defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(
            &attributes, Int16(0x80 | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(.init(rawValue: result) ?? .ENOENT) }
        return pid
    }
}

/// Something a program on a `PseudoTerminal` did not do, with the screen it left.
struct PseudoTerminalError: Error, CustomStringConvertible {
    let command: String
    let problem: String
    let screen: TerminalScreen

    var description: String { "\(command) \(problem); the screen:\n\(screen.text)" }
}
