import Foundation

/// A position in a store's history: a bookmark between the transactions a program has processed and those that
/// came after. Tokens are `Codable`, so a program can keep the last one it processed (in a file, say) and fetch
/// what came after it the next time it runs.
public protocol HistoryToken: Comparable, Codable, Hashable, Identifiable, Sendable {
    /// The type of the token's value.
    associatedtype TokenType: Codable, Hashable, Sendable
    /// The token's value, as the store describes a position.
    var tokenValue: TokenType? { get }
    /// The identifier of the store whose history the token is a position in (see
    /// `ModelContainer.configurationName(forStoreIdentifier:)`).
    var storeIdentifier: String { get }
}
