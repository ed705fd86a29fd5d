import Foundation

/// A transaction of the history of this package's stores: one save of one context to one store.
///
/// Its `token` and `transactionIdentifier` are the transaction's number in its store, which every save of any
/// context or process increases, in commit order. `bundleIdentifier` is the main bundle's identifier, or, as
/// programs on Linux have none, the name of the program that saved; `processIdentifier` its process identifier.
public struct DefaultHistoryTransaction: HistoryTransaction {
    /// The type of the transaction's token.
    public typealias TokenType = DefaultHistoryToken
    /// The type of the transaction's identifier: its number in its store.
    public typealias TransactionIdentifier = Int64

    /// The `author` of the context that saved, if it had one.
    public let author: String?
    /// The bundle identifier of the program that saved, or its name when it has none.
    public let bundleIdentifier: String
    /// The inserts, updates and deletes of the transaction, in the order the save wrote them.
    public let changes: [HistoryChange]
    /// The process identifier of the program that saved.
    public let processIdentifier: String
    /// The identifier of the store the transaction changed.
    public let storeIdentifier: String
    /// When the save committed.
    public let timestamp: Date
    /// The transaction's position in its store's history.
    public let token: DefaultHistoryToken
    /// The transaction's number in its store.
    public let transactionIdentifier: Int64

    /// The transaction's number in its store.
    public var id: Int64 { transactionIdentifier }

    package init(
        storeIdentifier: String, number: Int64, timestamp: Date, author: String?, bundleIdentifier: String,
        processIdentifier: String, changes: [HistoryChange]
    ) {
        self.storeIdentifier = storeIdentifier
        self.transactionIdentifier = number
        self.token = DefaultHistoryToken(storeIdentifier: storeIdentifier, number: number)
        self.timestamp = timestamp
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.changes = changes
    }

    /// Transactions are equal when they are the same transaction of the same store.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.transactionIdentifier == rhs.transactionIdentifier && lhs.storeIdentifier == rhs.storeIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storeIdentifier)
        hasher.combine(transactionIdentifier)
    }
}
