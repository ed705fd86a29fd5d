import Foundation
import SwiftDataCore

/// SQLite's SQL. Conditions are integers (`1`/`0`), `IS` is null-safe equality, and Swift's semantics come from the
/// collations and functions the SQLite store registers, which run Foundation's and Swift's own code (see
/// `SQLiteDialect.Function` and `collation(for:)`), so SQL and `Predicate.evaluate` agree by construction. JSON is
/// text, read with `json_extract`, `json_array_length` and `json_each`.
package struct SQLiteDialect: SQLDialect {
    package init() {}

    /// The SQL functions the SQLite store registers, by name.
    package enum Function: String, CaseIterable, Sendable {
        /// `(x, min, max)`: `x`, or an error when integer arithmetic overflowed (SQLite turns such results into
        /// floating point) or left `min...max`.
        case checked = "swiftdata_checked"
        /// `SQLFunction.integerDivide`.
        case divide = "swiftdata_divide"
        /// `SQLFunction.integerRemainder`.
        case remainder = "swiftdata_remainder"
        /// `SQLFunction.realDivide`.
        case realDivide = "swiftdata_real_divide"
        /// `SQLFunction.unwrap`.
        case unwrap = "swiftdata_unwrap"
        /// `SQLFunction.fail`.
        case fail = "swiftdata_fail"
        /// `SQLFunction.contains`, through Foundation's predicate node.
        case contains = "swiftdata_contains"
        /// `SQLFunction.startsWith`, through Foundation's predicate node.
        case startsWith = "swiftdata_starts_with"
        /// `SQLFunction.localizedStandardContains`, through the predicate node.
        case localizedStandardContains = "swiftdata_localized_standard_contains"
        /// `SQLFunction.caseInsensitiveCompare`, through the predicate node.
        case caseInsensitiveCompare = "swiftdata_case_insensitive_compare"
        /// `SQLFunction.localizedCompare`, through the predicate node.
        case localizedCompare = "swiftdata_localized_compare"
        /// `(text)`: the text as a `.search` index keeps it (see `SearchText.folded`).
        case searchText = "swiftdata_search_text"
    }

    /// The name of the collation the SQLite store registers for a comparison.
    package static func collation(for comparison: ValueComparison) -> String {
        switch comparison {
        case .string: "SWIFTDATA_STRING"
        case .decimal: "SWIFTDATA_DECIMAL"
        case .lexical: "SWIFTDATA_LEXICAL"
        case .localizedStandard: "SWIFTDATA_LOCALIZED_STANDARD"
        case .localized: "SWIFTDATA_LOCALIZED"
        }
    }

    package func quote(_ identifier: String) -> String { StandardSQL.quote(identifier) }

    package func placeholder(_ index: Int, type: SQLType) -> String { "?" }

    package func boolean(_ value: Bool) -> String { value ? "1" : "0" }

    package func nullSafeEquality(negated: Bool) -> String { negated ? "IS NOT" : "IS" }

    package var collatesByLeftOperand: Bool { true }

    package func reasonUnsupported(_ comparison: ValueComparison) -> String? { nil }

    package func reasonUnsupported(_ function: SQLFunction) -> String? {
        #if canImport(Darwin)
            if [.localizedStandardContains, .caseInsensitiveCompare, .localizedCompare].contains(function) {
                return "the store has no SQL function for \(function) on this platform"
            }
        #endif
        return nil
    }

    package func renderCollated(
        _ operand: SQLExpression, _ comparison: ValueComparison, into generator: inout SQLGenerator
    ) {
        generator.render(operand)
        generator.write(" COLLATE " + Self.collation(for: comparison))
    }

    package func renderCall(
        _ function: SQLFunction, _ arguments: [SQLExpression], into generator: inout SQLGenerator
    ) {
        // The translator passes each function its arguments; a wrong count writes a call SQLite refuses.
        switch (function, arguments.count) {
        case (.checkedAdd, 4), (.checkedSubtract, 4), (.checkedMultiply, 4):
            let op: SQLBinaryOperator =
                function == .checkedAdd ? .add : function == .checkedSubtract ? .subtract : .multiply
            call(.checked, [.binary(arguments[0], op, arguments[1]), arguments[2], arguments[3]], into: &generator)
        case (.checkedNegate, 3):
            call(.checked, [.unary(.negate, arguments[0]), arguments[1], arguments[2]], into: &generator)
        case (.realAdd, 2): generator.render(.binary(arguments[0], .add, arguments[1]))
        case (.realSubtract, 2): generator.render(.binary(arguments[0], .subtract, arguments[1]))
        case (.realMultiply, 2): generator.render(.binary(arguments[0], .multiply, arguments[1]))
        case (.realNegate, 1):
            // SQLite's `-x` is `0 - x`, which turns 0.0 into +0.0 where Swift gives -0.0; `x * -1.0` keeps the sign.
            generator.write("(")
            generator.render(arguments[0])
            generator.write(" * -1.0)")
        default:
            call(Self.function(for: function), arguments, into: &generator)
        }
    }

    /// The registered function that computes `function` (arithmetic is checked by `swiftdata_checked`).
    private static func function(for function: SQLFunction) -> Function {
        switch function {
        case .checkedAdd, .checkedSubtract, .checkedMultiply, .checkedNegate, .realAdd, .realSubtract, .realMultiply,
            .realNegate:
            .checked
        case .integerDivide: .divide
        case .integerRemainder: .remainder
        case .realDivide: .realDivide
        case .unwrap: .unwrap
        case .fail: .fail
        case .contains: .contains
        case .startsWith: .startsWith
        case .localizedStandardContains: .localizedStandardContains
        case .caseInsensitiveCompare: .caseInsensitiveCompare
        case .localizedCompare: .localizedCompare
        }
    }

    private func call(_ function: Function, _ arguments: [SQLExpression], into generator: inout SQLGenerator) {
        generator.write(function.rawValue)
        generator.renderList(arguments)
    }

    package func renderJSONValue(
        _ document: SQLExpression, path: [String], type: SQLType, into generator: inout SQLGenerator
    ) {
        generator.write("json_extract(")
        generator.render(document)
        generator.write(", ")
        generator.bind(SQLBinding(.string(Self.jsonPath(path)), .text))
        generator.write(")")
    }

    package func renderJSONArrayLength(
        _ document: SQLExpression, path: [String], into generator: inout SQLGenerator
    ) {
        generator.write("json_array_length")
        renderDocument(document, path: path, into: &generator)
    }

    package func renderJSONArrayElements(
        _ document: SQLExpression, path: [String], alias: String?, into generator: inout SQLGenerator
    ) {
        generator.write("json_each")
        renderDocument(document, path: path, into: &generator)
        if let alias {
            generator.write(" AS ")
            generator.writeIdentifier(alias)
        }
    }

    package func renderJSONElement(alias: String, type: SQLType, into generator: inout SQLGenerator) {
        generator.render(.qualifiedColumn(table: alias, column: "value"))
    }

    /// `(document)`, or `(document, path)` for a value inside it.
    private func renderDocument(_ document: SQLExpression, path: [String], into generator: inout SQLGenerator) {
        generator.write("(")
        generator.render(document)
        if !path.isEmpty {
            generator.write(", ")
            generator.bind(SQLBinding(.string(Self.jsonPath(path)), .text))
        }
        generator.write(")")
    }

    /// An SQLite JSON path: `$.key`, or `$."key"` for a key with characters a bare member cannot have. (Keys that
    /// hold a `"` have no path; the translator does not read them in SQL.)
    static func jsonPath(_ keys: [String]) -> String {
        var path = "$"
        for key in keys {
            let isBare =
                !key.isEmpty
                && key.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
                }
            path += isBare ? "." + key : ".\"\(key)\""
        }
        return path
    }

    package func nullsOrdering(descending: Bool) -> String { "" }

    /// FTS5's trigram tokenizer finds needles of three characters or more.
    package func searches(_ needle: String) -> Bool { needle.unicodeScalars.count >= 3 }

    /// `key IN (SELECT rowid FROM index WHERE index MATCH '"needle"')`: the index is an FTS5 table of the folded
    /// texts by row key, and a quoted phrase of trigrams matches the texts that contain it.
    package func renderSearch(
        key: SQLExpression, column: SQLExpression, index: String, needle: String, into generator: inout SQLGenerator
    ) {
        generator.render(key)
        generator.write(" IN (SELECT rowid FROM \(quote(index)) WHERE \(quote(index)) MATCH ")
        generator.render(.bind(.string("\"" + needle.replacingOccurrences(of: "\"", with: "\"\"") + "\""), .text))
        generator.write(")")
    }

    package func renderWindow(limit: Int?, offset: Int?, into generator: inout SQLGenerator) {
        let parameters = windowParameters(limit: limit, offset: offset)
        guard !parameters.isEmpty else { return }
        generator.write(" LIMIT ? OFFSET ?")
        for parameter in parameters { generator.appendParameter(SQLBinding(parameter, .integer)) }
    }

    package func windowParameters(limit: Int?, offset: Int?) -> [StoreValue] {
        guard limit != nil || offset != nil else { return [] }
        // A negative limit means no limit to SQLite.
        return [.int64(Int64(limit ?? -1)), .int64(Int64(offset ?? 0))]
    }

    package var numbersParameters: Bool { false }

    package func typeName(_ type: SQLType) -> String {
        switch type {
        case .boolean, .integer: "INTEGER"
        case .real, .date: "REAL"
        case .decimal, .text, .json: "TEXT"
        case .blob, .uuid: "BLOB"
        }
    }

    /// An `INTEGER PRIMARY KEY` is the rowid: one more than the highest so far.
    package func identityColumn(_ name: String) -> String { "\(name) INTEGER PRIMARY KEY" }

    /// `column IN (?, ?, ...)`, one parameter per key.
    package func keysCondition(_ column: String, count: Int, first: Int) -> String {
        "\(column) IN (" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }

    /// The list is a JSON array, read with `json_each`.
    package func integerListCondition(_ column: String, parameter index: Int) -> String {
        "\(column) IN (SELECT value FROM json_each(?))"
    }

    package func integerList(_ values: some Sequence<Int64>) -> StoreValue {
        .string("[" + values.map(String.init).joined(separator: ",") + "]")
    }

    package func indexName(_ name: String) -> String { name }

    /// The table is stored in its primary key's B-tree, without a rowid of its own.
    package var keyOnlyTableOptions: String { " WITHOUT ROWID" }
}
