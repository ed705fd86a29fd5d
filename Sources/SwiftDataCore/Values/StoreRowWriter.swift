import Foundation

/// The writer a store's transaction binds a row's values with: the typed binds generated code uses, and the data
/// of an attribute the store may keep outside its rows (`.externalStorage`).
package protocol StoreRowWriter: _RowWriter {
    /// Binds the data of an externally stored attribute: the store keeps it apart from the row (a file) and binds
    /// its reference, or binds the data itself.
    func bindExternal(_ data: Data, _ parameter: Int32) throws
}
