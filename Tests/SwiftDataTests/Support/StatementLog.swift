import Foundation
import SwiftData

@testable import SwiftDataSQLite

/// Records the SQL statements a container's stores run, so tests can check what ran in SQL and how often.
final class StatementLog: @unchecked Sendable {
    // @unchecked Sendable: `recorded` is only touched under `lock`; `stores` is immutable.
    private let lock = NSLock()
    private var recorded: [String] = []
    private let stores: [SQLiteStore]

    init(_ container: ModelContainer) {
        stores = container.stores.compactMap { $0 as? SQLiteStore }
        for store in stores { store.observeStatements { [weak self] sql in self?.append(sql) } }
    }

    deinit { stores.forEach { $0.observeStatements(nil) } }

    private func append(_ sql: String) { lock.withLock { recorded.append(sql) } }

    /// The statements run so far.
    var statements: [String] { lock.withLock { recorded } }

    /// The `SELECT` statements run so far.
    var selects: [String] { statements.filter { $0.hasPrefix("SELECT") } }

    func reset() { lock.withLock { recorded = [] } }
}
