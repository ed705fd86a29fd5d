import CSQLite
import Foundation
import Synchronization

/// The file stores open for writing in this process, held weakly, so that at exit each is checkpointed: its
/// committed pages copied from the `-wal` file into the store file, and the `-wal` file emptied. Without it, a
/// program that exits with a container still alive (a global, the main context of an app) leaves its data only in
/// the `-wal` file, and a copy of the store file alone holds none of it. A store that goes away before the exit
/// (the last container released) needs nothing of this: closing its last connection checkpoints it.
enum SQLiteOpenStores {
    /// A store held without keeping it alive.
    private final class Entry: Sendable {
        // `weak` in a `Sendable` class: the store is `Sendable`, and a weak reference is read atomically.
        nonisolated(unsafe) weak var store: SQLiteStore?
        init(_ store: SQLiteStore) { self.store = store }
    }

    private static let stores = Mutex<[ObjectIdentifier: Entry]>([:])

    /// Registers the exit handler, once per process.
    private static let exitHandler: Void = {
        atexit { SQLiteOpenStores.checkpointAll() }
    }()

    /// Notes `store`, to be checkpointed at exit if it is still open then.
    static func add(_ store: SQLiteStore) {
        _ = exitHandler
        stores.withLock { stores in
            stores = stores.filter { $0.value.store != nil }
            stores[ObjectIdentifier(store)] = Entry(store)
        }
    }

    /// Forgets `store` (it is going away, and its connections close).
    static func remove(_ store: SQLiteStore) {
        _ = stores.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }
    }

    /// Checkpoints every store still open.
    static func checkpointAll() {
        let open = stores.withLock { $0.values.compactMap(\.store) }
        for store in open { store.checkpoint() }
    }
}
