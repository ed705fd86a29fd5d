import Foundation

/// Connections that only read, so that fetches run at the same time as each other and as a write (WAL mode lets
/// a reader see the last committed state while a writer works). Connections open as needed, up to a limit;
/// beyond it, a fetch waits for one to be free.
///
/// `@unchecked Sendable`: its mutable state (the idle connections, their count, the observer) is used only under
/// `condition`'s lock, and a connection by one fetch at a time.
final class ReaderPool: @unchecked Sendable {
    private let path: String
    private let readOnly: Bool
    private let immutable: Bool
    private let limit: Int
    /// An `NSCondition`, not a `Mutex`: a fetch waits on it for a connection when all are in use.
    private let condition = NSCondition()
    private var idle: [SQLiteDatabase] = []
    private var all: [SQLiteDatabase] = []
    private var observer: ((String) -> Void)?

    init(
        path: String, readOnly: Bool, immutable: Bool = false,
        limit: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    ) {
        self.path = path
        self.readOnly = readOnly
        self.immutable = immutable
        self.limit = limit
    }

    /// Runs `body` with a connection no other caller uses meanwhile.
    func withReader<Result>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        let reader = try take()
        defer { give(reader) }
        return try body(reader)
    }

    /// Reports the SQL of every statement the readers run (`nil` stops).
    func observe(_ observer: ((String) -> Void)?) {
        condition.withLock {
            self.observer = observer
            for reader in all { reader.observer = observer }
        }
    }

    private func take() throws -> SQLiteDatabase {
        condition.lock()
        defer { condition.unlock() }
        while idle.isEmpty && all.count >= limit { condition.wait() }
        if let reader = idle.popLast() { return reader }
        let reader = try SQLiteDatabase(path: path, readOnly: readOnly, create: false, immutable: immutable)
        reader.observer = observer
        all.append(reader)
        return reader
    }

    private func give(_ reader: SQLiteDatabase) {
        condition.withLock {
            idle.append(reader)
            condition.signal()
        }
    }
}
