import Foundation

/// The reader a store hands Core for each fetched row: the typed reads generated code uses, and the column of an
/// attribute the store keeps outside its rows (`.externalStorage`).
package protocol StoreRowReader: _RowReader {
    /// The value of an externally stored attribute: the data itself, or a reference the store reads the data
    /// through later (`RowStore.readExternal`). Throws when the store finds the reference broken.
    func external(_ column: Int32) throws -> ExternalValue
}

/// What a row holds for an externally stored attribute.
package enum ExternalValue: Equatable, Sendable {
    /// The data, or `nil` for no value: the store keeps it in the row (an in-memory store does).
    case data(Data?)
    /// A reference to the data, kept outside the row; read it when first used.
    case reference(String)
}
