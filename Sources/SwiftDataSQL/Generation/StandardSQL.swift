import Foundation

/// SQL that the standard defines and that dialects share.
enum StandardSQL {
    /// An identifier in double quotes, with each `"` inside doubled.
    static func quote(_ identifier: String) -> String {
        // Most names hold no quote, and Foundation's replacing costs more than the rest of a small fetch's SQL.
        let holdsQuote =
            identifier.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "\"")) }
            ?? identifier.utf8.contains(UInt8(ascii: "\""))
        guard holdsQuote else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
