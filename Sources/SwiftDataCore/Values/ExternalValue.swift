import Foundation

/// What a store's row holds for an attribute kept outside the rows (`.externalStorage`); internal plumbing between
/// Core and a store, not API (see `_RowReader.external(_:)`).
public enum _ExternalValue: Equatable, Sendable {
    /// The data, or `nil` for no value: the store keeps it in the row (an in-memory store does).
    case data(Data?)
    /// A reference to the data, kept outside the row: Core reads it through the store when it is first used.
    case reference(String)
}
