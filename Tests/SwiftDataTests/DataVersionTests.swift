import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// How the SQLite store tells its own commits from other connections': a save reads its connection's data version
/// without running a statement, before it writes and after it commits or rolls back, and a check
/// (`hasExternalChanges`) reports exactly the commits of other connections since the last one.
@Suite struct DataVersionTests {
    @Test func aSaveRunsNoDataVersionStatement() throws {
        let location = StoreKind.sqlite.location()  // kept: its directory goes with it
        let container = try location.container(User.self)
        let context = ModelContext(container)
        let user = User(name: "a", email: "a@")
        context.insert(user)
        try context.save()
        let log = StatementLog(container)
        user.name = "b"
        try context.save()
        #expect(log.statements.contains { $0.hasPrefix("UPDATE") })
        #expect(!log.statements.contains("PRAGMA data_version"))
    }

    @Test func anotherConnectionsCommitBeforeASaveIsReportedOnce() throws {
        let connections = try TwoConnections()
        let (store, context, user) = (connections.store, connections.context, connections.user)
        #expect(!store.hasExternalChanges())
        // The other connection commits; this store's next save begins after it, without a check between.
        try connections.commitElsewhere(name: "other", email: "o@")
        user.name = "b"
        try context.save()
        #expect(store.hasExternalChanges(), "the commit the save began after is another connection's")
        #expect(!store.hasExternalChanges(), "and it is reported once")
        user.name = "c"
        try context.save()
        #expect(!store.hasExternalChanges(), "the store's own commits are not another connection's")
    }

    @Test func aCheckBetweenTheOtherCommitAndASaveReportsItOnce() throws {
        let connections = try TwoConnections()
        let (store, context, user) = (connections.store, connections.context, connections.user)
        _ = store.hasExternalChanges()
        try connections.commitElsewhere(name: "other", email: "o@")
        #expect(store.hasExternalChanges())
        user.name = "b"
        try context.save()
        #expect(!store.hasExternalChanges(), "the save began after a commit a check had reported already")
    }

    @Test func aSaveThatRollsBackIsNotAnotherConnectionsCommit() throws {
        let location = StoreKind.sqlite.location()  // kept: its directory goes with it
        let container = try location.container(Library.self, Book.self, Tag.self)
        let store = try #require(container.stores.first as? SQLiteStore)
        let context = ModelContext(container)
        let library = Library(name: "l")
        context.insert(library)
        library.books = [Book(title: "b")]
        try context.save()
        #expect(!store.hasExternalChanges())
        // The `.deny` rule refuses the delete inside the write transaction, which rolls back.
        context.delete(library)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(!store.hasExternalChanges())
        context.rollback()
        #expect(library.books.map(\.title) == ["b"], "the undeleted library has its books again")
        library.name = "m"
        try context.save()
        #expect(!store.hasExternalChanges())
    }
}

/// A SQLite store with one saved `User` (`user`, in `context`), and a second container on the same file: two
/// connections, to tell the store's own commits from another's.
struct TwoConnections {
    /// The store's directory, removed when the last copy of this value goes.
    let location = StoreKind.sqlite.location()
    let container: ModelContainer
    let other: ModelContainer
    let store: SQLiteStore
    let context: ModelContext
    let user = User(name: "a", email: "a@")

    init() throws {
        container = try location.container(User.self)
        other = try location.container(User.self)
        store = try #require(container.stores.first as? SQLiteStore)
        context = ModelContext(container)
        context.insert(user)
        try context.save()
    }

    /// Saves a new user through the other container.
    func commitElsewhere(name: String, email: String) throws {
        let otherContext = ModelContext(other)
        otherContext.insert(User(name: name, email: email))
        try otherContext.save()
    }
}
