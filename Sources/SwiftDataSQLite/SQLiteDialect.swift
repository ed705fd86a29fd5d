import SwiftDataSQL

/// SQLite's spelling of identifiers, parameters, collations and functions.
struct SQLiteDialect: SQLDialect {
    func quote(_ identifier: String) -> String {
        // Most names hold no quote, and Foundation's replacing costs more than the rest of a small fetch's SQL.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func placeholder(_ index: Int) -> String { "?" }

    func collation(for comparison: ValueComparison) -> String? {
        switch comparison {
        case .string: SQLiteCollations.string
        case .decimal: SQLiteCollations.decimal
        case .lexical: SQLiteCollations.lexical
        case .localizedStandard: SQLiteCollations.localizedStandard
        case .localized: SQLiteCollations.localized
        }
    }

    func name(of function: SQLFunction) -> String? {
        #if canImport(Darwin)
            if [.localizedStandardContains, .caseInsensitiveCompare, .localizedCompare].contains(function) {
                return nil
            }
        #endif
        return SQLiteFunctions.name(of: function)
    }
}
