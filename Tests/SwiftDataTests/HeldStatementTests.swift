import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// The statements every save runs (the row's `UPDATE`, the history `INSERT`) and every check for other connections'
/// commits runs (`PRAGMA data_version`) are held by the SQLite store instead of being found by their text: they still
/// run, once per save or check, with that save's values.
@Suite struct HeldStatementTests {
    @Test func savesRunTheirHeldStatementsWithTheirOwnValues() throws {
        let connections = try TwoConnections()
        let (container, other, store, context, user) =
            (connections.container, connections.other, connections.store, connections.context, connections.user)
        _ = store.hasExternalChanges()
        let log = StatementLog(container)
        for round in 0..<3 {
            user.name = "name \(round)"
            try context.save()
            #expect(!store.hasExternalChanges(), "the store's own commit is not another connection's")
            try connections.commitElsewhere(name: "other \(round)", email: "o\(round)@")
            #expect(store.hasExternalChanges(), "another connection's commit between two saves is seen")
        }
        #expect(log.statements.filter { $0.hasPrefix("UPDATE") }.count == 3)
        #expect(log.statements.filter { $0.hasPrefix("INSERT INTO \(SQLiteStore.historyTable)") }.count == 3)
        // The checks' own, two a round; a save reads the version without a statement.
        #expect(log.statements.filter { $0 == "PRAGMA data_version" }.count == 6)
        let fresh = ModelContext(other)
        let names = try fresh.fetch(FetchDescriptor<User>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["name 2", "other 0", "other 1", "other 2"])
        // One history transaction per save, each with its own change.
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 7)
        let updates = history.flatMap(\.changes).compactMap { change -> PersistentIdentifier? in
            if case .update(let update) = change { return update.changedPersistentIdentifier }
            return nil
        }
        #expect(updates == Array(repeating: user.persistentModelID, count: 3))
    }
}
