import SwiftDataSQL

/// SQLite's spelling of identifiers, parameters and collations.
struct SQLiteDialect: SQLDialect {
    func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func placeholder(_ index: Int) -> String { "?" }

    func collation(for comparison: ValueComparison) -> String? {
        switch comparison {
        case .decimal: SQLiteCollations.decimal
        case .lexical: SQLiteCollations.lexical
        }
    }
}
