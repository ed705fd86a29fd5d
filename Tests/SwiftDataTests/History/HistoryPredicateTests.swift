import Foundation
import SwiftData
import Testing

/// Predicates on transactions select what `Predicate.evaluate` selects, in SQL where the store can say them and
/// in memory where it cannot. On SQLite the tests read the SQL that ran; the PostgreSQL store renders the same
/// conditions (`PostgresHistoryTests.conditionsRenderAsSQL`), and here selects the same transactions.
@Suite struct HistoryPredicateTests {
    /// A store with six transactions by three authors, and its log of statements (SQLite's).
    struct Fixture {
        let location: StoreLocation
        let container: ModelContainer
        let all: [DefaultHistoryTransaction]
        let log: StatementLog

        init(_ kind: StoreKind) throws {
            location = kind.location()
            container = try location.container(HistoryNote.self)
            let context = ModelContext(container)
            for (index, author) in ["app", "widget", nil, "app", "widget", "app"].enumerated() {
                context.author = author
                for number in 0...index % 3 { context.insert(HistoryNote(text: "\(index)-\(number)")) }
                try context.save()
            }
            all = try history(container)
            log = StatementLog(container)
        }

        /// The transactions `predicate` selects, and the history query's SQL.
        func fetch(_ predicate: Predicate<DefaultHistoryTransaction>, limit: UInt64 = 0) throws
            -> (transactions: [DefaultHistoryTransaction], sql: String)
        {
            log.reset()
            var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: predicate)
            descriptor.fetchLimit = limit
            let transactions = try ModelContext(container).fetchHistory(descriptor)
            return (transactions, log.statements.last { $0.contains("FROM _swiftdata_history") } ?? "")
        }

        /// Checks that the fetch selects what evaluating the predicate on every transaction selects, and the
        /// condition its SQL has (`nil`: none).
        func check(
            _ predicate: Predicate<DefaultHistoryTransaction>, inSQL expected: String?,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let (transactions, sql) = try fetch(predicate)
            let evaluated = try all.filter(predicate.evaluate)
            #expect(
                transactions.map(\.transactionIdentifier) == evaluated.map(\.transactionIdentifier),
                sourceLocation: sourceLocation)
            guard location.kind == .sqlite else { return }
            // Every fetch skips the rows that hold the place of deleted transactions.
            let condition = "WHERE length(changes) > 0" + (expected.map { " AND \($0)" } ?? "") + " ORDER BY"
            #expect(sql.contains(condition), "\(sql)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: StoreKind.all) func tokensAuthorsAndTimestampsRunInSQL(store: StoreKind) throws {
        let fixture = try Fixture(store)
        #expect(fixture.all.count == 6)
        let token = fixture.all[2].token
        let later = fixture.all[3].timestamp
        let number = fixture.all[4].transactionIdentifier
        let storeID = fixture.all[0].storeIdentifier
        try fixture.check(#Predicate { $0.token > token }, inSQL: "number > ?")
        try fixture.check(#Predicate { $0.token >= token }, inSQL: "number >= ?")
        try fixture.check(#Predicate { $0.token < token }, inSQL: "number < ?")
        try fixture.check(#Predicate { $0.token <= token }, inSQL: "number <= ?")
        try fixture.check(#Predicate { $0.token == token }, inSQL: "number = ?")
        try fixture.check(#Predicate { $0.token != token }, inSQL: "NOT number = ?")
        try fixture.check(#Predicate { token < $0.token }, inSQL: "number > ?")
        try fixture.check(
            #Predicate { ($0.token > token) && ($0.author == "widget") }, inSQL: "(number > ? AND author IS ?)")
        try fixture.check(#Predicate { $0.author == nil }, inSQL: "author IS ?")
        try fixture.check(#Predicate { $0.author != "app" }, inSQL: "author IS NOT ?")
        try fixture.check(#Predicate { !($0.author == "app") }, inSQL: "NOT author IS ?")
        try fixture.check(#Predicate { $0.timestamp >= later }, inSQL: "timestamp >= ?")
        try fixture.check(
            #Predicate { $0.transactionIdentifier <= number || $0.author == "widget" },
            inSQL: "(number <= ? OR author IS ?)")
        try fixture.check(#Predicate { $0.id > number }, inSQL: "number > ?")
        try fixture.check(#Predicate { $0.storeIdentifier == storeID && $0.token > token }, inSQL: "number > ?")
        let elsewhere = try fixture.fetch(#Predicate { $0.storeIdentifier != storeID })
        #expect(elsewhere.transactions.isEmpty, "a store the predicate excludes has no transactions")
        #expect(store == .postgres || elsewhere.sql.isEmpty, "a store the predicate excludes is not asked")
        try fixture.check(#Predicate { $0.bundleIdentifier == "nothing" }, inSQL: "bundle IS ?")
        try fixture.check(#Predicate { _ in true }, inSQL: nil)
    }

    @Test(arguments: StoreKind.all) func whatSQLCannotSayRunsInMemory(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let fixture = try Fixture(store)
            let token = fixture.all[1].token
            try fixture.check(#Predicate { $0.changes.count > 1 }, inSQL: nil)
            try fixture.check(#Predicate { $0.token > token && $0.changes.count == 2 }, inSQL: "number > ?")
            try fixture.check(#Predicate { $0.changes.count == 3 || $0.author == "app" }, inSQL: nil)
            try fixture.check(#Predicate { ($0.author ?? "").starts(with: "wid") }, inSQL: nil)
            try fixture.check(
                #Predicate { $0.author == "app" && ($0.author ?? "").count == 3 && $0.token >= token },
                inSQL: "(author IS ? AND number >= ?)")
        }
        #expect(
            log == [
                "SwiftData warning: part of a history predicate is evaluated in memory: it reads more than the token, transaction identifier, timestamp, author, store, bundle and process identifiers"
            ], "once, however many predicates leave parts to memory: \(log)")
    }

    @Test(arguments: StoreKind.all) func aTokenOfAnotherStoreSelectsNothingOfThisOne(store: StoreKind) throws {
        let fixture = try Fixture(store)
        let other = try JSONDecoder().decode(
            DefaultHistoryToken.self, from: Data(#"{"tokenValue":{"elsewhere":1}}"#.utf8))
        #expect(try fixture.fetch(#Predicate { $0.token > other }).transactions.isEmpty)
        #expect(try fixture.fetch(#Predicate { $0.token < other }).transactions.isEmpty)
        #expect(try fixture.fetch(#Predicate { $0.token != other }).transactions.count == 6)
        #expect(fixture.all.filter { $0.token > other || $0.token <= other || $0.token == other }.isEmpty)
    }

    @Test(arguments: StoreKind.all) func limitsAndSorts(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let fixture = try Fixture(store)
            let token = fixture.all[0].token
            let limited = try fixture.fetch(#Predicate { $0.token > token }, limit: 2)
            #expect(
                limited.transactions.map(\.transactionIdentifier) == fixture.all[1...2].map(\.transactionIdentifier))
            #expect(store == .postgres || limited.sql.hasSuffix("LIMIT ?"))
            let inMemory = try fixture.fetch(#Predicate { $0.changes.count == 1 }, limit: 1)
            #expect(inMemory.transactions.map(\.transactionIdentifier) == [fixture.all[0].transactionIdentifier])
            var newest = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [
                SortDescriptor(\.timestamp, order: .reverse)
            ]
            )
            newest.fetchLimit = 2
            #expect(
                try ModelContext(fixture.container).fetchHistory(newest).map(\.transactionIdentifier)
                    == fixture.all.suffix(2).reversed().map(\.transactionIdentifier))
            let byToken = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [
                SortDescriptor(\.token, order: .reverse)
            ])
            #expect(
                try ModelContext(fixture.container).fetchHistory(byToken).map(\.transactionIdentifier)
                    == fixture.all.reversed().map(\.transactionIdentifier))
        }
        #expect(
            log == [
                "SwiftData warning: part of a history predicate is evaluated in memory: it reads more than the token, transaction identifier, timestamp, author, store, bundle and process identifiers"
            ], "\(log)")
    }

    @Test func aDescriptorOfAnotherTransactionTypeIsRefused() throws {
        struct OtherToken: Comparable, Hashable, Identifiable, Sendable {
            var id: Int
            static func < (lhs: Self, rhs: Self) -> Bool { lhs.id < rhs.id }
        }
        struct OtherTransaction: HistoryTransaction {
            var author: String? { nil }
            var changes: [HistoryChange] { [] }
            var storeIdentifier: String { "" }
            var timestamp: Date { Date() }
            var token: OtherToken { OtherToken(id: 0) }
            var transactionIdentifier: Int { 0 }
            var id: Int { 0 }
        }
        let context = ModelContext(try makeMemoryContainer(HistoryNote.self))
        #expect(throws: SwiftDataError.invalidTransactionFetchRequest) {
            try context.fetchHistory(HistoryDescriptor<OtherTransaction>())
        }
    }
}
