import Foundation

extension _RowReader {
    /// A preserved attribute's value in a row, by its meaning, as a delete's history keeps it: an externally stored
    /// value as its data (read through `readExternal`), a coded one as the data its coding wrote.
    package func preservedValue(
        of attribute: Schema.Attribute, column: Int32, readExternal: (String) throws -> Data
    ) throws -> StoreValue {
        if attribute.isExternal {
            switch try external(column) {
            case .data(let data): return data.map(StoreValue.data) ?? .null
            case .reference(let reference): return .data(try readExternal(reference))
            }
        }
        if attribute.coding != nil { return isNull(column) ? .null : .data(try data(column)) }
        guard let layout = ValueCodec.layout(of: attribute.valueType)?.layout else { return .null }
        return try value(column, as: layout.valueType)
    }
}
