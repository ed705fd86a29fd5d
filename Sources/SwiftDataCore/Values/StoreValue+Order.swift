import Foundation

extension StoreValue {
    /// Whether this value orders before `other` as the SQL stores order an attribute's values: `nil` first, then
    /// numbers, dates and decimals by value, strings as Swift's `<`, `false` before `true`, and bytes (data, UUIDs)
    /// lexicographically. Values of different types order by type.
    package func precedes(_ other: StoreValue) -> Bool {
        switch (self, other) {
        case (.null, .null): false
        case (.null, _): true
        case (_, .null): false
        case (.bool(let a), .bool(let b)): !a && b
        case (.int64(let a), .int64(let b)): a < b
        case (.uint64(let a), .uint64(let b)): a < b
        case (.double(let a), .double(let b)): a < b
        case (.decimal(let a), .decimal(let b)): a < b
        case (.string(let a), .string(let b)), (.json(let a), .json(let b)): a < b
        case (.date(let a), .date(let b)): a < b
        case (.data(let a), .data(let b)): a.lexicographicallyPrecedes(b)
        case (.uuid(let a), .uuid(let b)):
            withUnsafeBytes(of: a.uuid) { a in
                withUnsafeBytes(of: b.uuid) { a.lexicographicallyPrecedes($0) }
            }
        case (.url(let a), .url(let b)): a.absoluteString < b.absoluteString
        default: (type?.rawValue ?? "") < (other.type?.rawValue ?? "")
        }
    }
}
