import Foundation
import SwiftDataCore

/// PostgreSQL's SQL (version 15 or later, a `UTF8` database), for a store that keeps each attribute in a column of
/// a native type. PostgreSQL cannot run Swift code, so where SQLite's store calls Foundation through registered
/// functions and collations, this dialect either writes SQL that has Swift's semantics for every value, or reports
/// the construct as unsupported, so that the context evaluates it in memory. It never writes SQL that would select
/// other models than `Predicate.evaluate`.
///
/// **Column types the SQL compares** (the store must keep values this way):
/// `Bool` `boolean`; every integer `bigint` (`UInt64` as its bit pattern, as in SQLite); `Double` and `Float`
/// `double precision`, with NaN kept as `NULL` as in SQLite (PostgreSQL's NaN equals itself and orders above every
/// number, Swift's does neither, and the `NULL` rules already give Swift's); `Decimal` `numeric`, with `Decimal.nan`
/// kept as `'-Infinity'` (`Decimal` has no infinities, and Swift orders its NaN below every number and equal to
/// itself, as `numeric` orders `-Infinity`); `String` and `URL` `text`; `Data` `bytea`; `Date` `double precision`
/// seconds since 2001, exactly the `Date`'s value (`timestamptz` rounds to microseconds, so it would make distinct
/// dates equal); `UUID` `uuid` (ordered by its bytes, as Swift's `<`); `Codable` values and arrays `jsonb`;
/// `RawRepresentable` values as their raw value; keys `bigint`. Parameters are declared with these types
/// (`$1::bigint`), so that every expression has one type.
///
/// **Per construct:**
/// - Conditions are `boolean`; null-safe equality is `IS NOT DISTINCT FROM` (which an index cannot serve;
///   comparisons with a side that cannot be `nil` are plain `=`).
/// - `String` `==` and `<` (Unicode canonical equivalence, then scalar order) compare `normalize(x, NFC)
///   COLLATE "C"`: code-point order of the NFC forms is Swift's order, and equal NFC forms are Swift's equality.
///   Exact for text whose characters the server's Unicode version assigns (PostgreSQL 15: Unicode 14; normalization
///   of assigned characters never changes); an index serves it when built on that expression.
/// - `contains`, `starts(with:)` compare `Character`s, which code points or NFC forms cannot (`"ab\u{301}"` does
///   not contain `"b"` in Swift): unsupported. So are `localizedStandardContains`, `caseInsensitiveCompare`,
///   `localizedCompare` and the `.localizedStandard`, `.localized` and `.lexical` sort comparators: they follow
///   Foundation's implementation and locale, which PostgreSQL's ICU collations do not reproduce (and PostgreSQL 15
///   cannot use a nondeterministic collation with `LIKE`).
/// - Integer `+ - * / %` and unary `-` call the store's PL/pgSQL functions (`supportFunctions`), which compute in
///   `numeric`, truncate as Swift does, and raise `swiftdata: ...` errors where Swift traps; they are `VOLATILE`,
///   so the planner never evaluates them outside the `CASE` branch that guards them, not even for constant
///   arguments. `x!` and an inverted range call such functions too.
/// - `Double` `+ - * /` are unsupported: PostgreSQL raises errors where IEEE arithmetic overflows to an infinity,
///   underflows to zero or divides by zero. Unary `-` is PostgreSQL's, which keeps the sign of zero.
/// - Members of `Codable` values are read with `->` and `->>` (each key a parameter), cast to `bigint` or
///   `boolean` for integers and `Bool`s; array contents with `jsonb_array_elements_text` and `jsonb_array_length`.
/// - Sorts write `NULLS FIRST` (ascending) and `NULLS LAST` (descending) for keys that can be `NULL`, since
///   PostgreSQL's default is the opposite of Swift's `nil` first; `LIMIT` and `OFFSET` are parameters.
package struct PostgreSQLDialect: SQLDialect {
    package init() {}

    package func quote(_ identifier: String) -> String { StandardSQL.quote(identifier) }

    package func placeholder(_ index: Int, type: SQLType) -> String { "$\(index)::" + Self.typeName(type) }

    package func typeName(_ type: SQLType) -> String { Self.typeName(type) }

    /// The PostgreSQL type of a column or parameter of an SQL type.
    package static func typeName(_ type: SQLType) -> String {
        switch type {
        case .boolean: "boolean"
        case .integer: "bigint"
        case .real, .date: "double precision"
        case .decimal: "numeric"
        case .text: "text"
        case .blob: "bytea"
        case .uuid: "uuid"
        case .json: "jsonb"
        }
    }

    package func boolean(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    package func nullSafeEquality(negated: Bool) -> String {
        negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM"
    }

    package var collatesByLeftOperand: Bool { false }

    package func reasonUnsupported(_ comparison: ValueComparison) -> String? {
        switch comparison {
        case .string, .decimal: nil
        case .lexical, .localizedStandard, .localized:
            "PostgreSQL cannot order strings as Foundation's \(comparison) comparator does"
        }
    }

    package func reasonUnsupported(_ function: SQLFunction) -> String? {
        switch function {
        case .checkedAdd, .checkedSubtract, .checkedMultiply, .checkedNegate, .integerDivide, .integerRemainder,
            .realNegate, .unwrap, .fail:
            nil
        case .realAdd, .realSubtract, .realMultiply, .realDivide:
            "PostgreSQL raises errors where Double arithmetic gives an infinity, zero or NaN"
        case .contains, .startsWith:
            "PostgreSQL compares strings by code points, not by Swift's Characters"
        case .localizedStandardContains, .caseInsensitiveCompare, .localizedCompare:
            "PostgreSQL cannot compare strings as Foundation's \(function) does"
        }
    }

    package func renderCollated(
        _ operand: SQLExpression, _ comparison: ValueComparison, into generator: inout SQLGenerator
    ) {
        switch comparison {
        case .string:
            generator.write("normalize(")
            generator.render(operand)
            generator.write(", NFC) COLLATE \"C\"")
        case .decimal:
            generator.render(operand)
        case .lexical, .localizedStandard, .localized:
            // Unsupported (see `reasonUnsupported`), so never asked for; a collation that does not exist would fail.
            generator.render(operand)
            generator.write(" COLLATE " + quote("swiftdata_\(comparison)"))
        }
    }

    package func renderCall(
        _ function: SQLFunction, _ arguments: [SQLExpression], into generator: inout SQLGenerator
    ) {
        let name: String
        switch function {
        case .realNegate where arguments.count == 1:
            generator.render(.unary(.negate, arguments[0]))
            return
        case .checkedAdd: name = "swiftdata_add"
        case .checkedSubtract: name = "swiftdata_subtract"
        case .checkedMultiply: name = "swiftdata_multiply"
        case .checkedNegate: name = "swiftdata_negate"
        case .integerDivide: name = "swiftdata_divide"
        case .integerRemainder: name = "swiftdata_remainder"
        case .unwrap: name = "swiftdata_unwrap"
        case .fail: name = "swiftdata_fail"
        // Unsupported (see `reasonUnsupported`), so never asked for; a function that does not exist would fail.
        default: name = "swiftdata_unsupported_\(function)"
        }
        generator.write(name)
        generator.renderList(arguments)
    }

    package func renderJSONValue(
        _ document: SQLExpression, path: [String], type: SQLType, into generator: inout SQLGenerator
    ) {
        let cast = type == .integer || type == .boolean
        if cast { generator.write("CAST(") }
        generator.write("(")
        generator.render(document)
        for (index, key) in path.enumerated() {
            let isLast = index == path.count - 1
            generator.write(isLast && type != .json ? " ->> " : " -> ")
            generator.bind(SQLBinding(.string(key), .text))
        }
        generator.write(")")
        if cast { generator.write(" AS \(Self.typeName(type)))") }
    }

    package func renderJSONArrayLength(
        _ document: SQLExpression, path: [String], into generator: inout SQLGenerator
    ) {
        generator.write("jsonb_array_length(")
        renderDocument(document, path: path, into: &generator)
        generator.write(")")
    }

    package func renderJSONArrayElements(
        _ document: SQLExpression, path: [String], alias: String?, into generator: inout SQLGenerator
    ) {
        generator.write("jsonb_array_elements_text(")
        renderDocument(document, path: path, into: &generator)
        generator.write(")")
        if let alias {
            generator.write(" AS ")
            generator.writeIdentifier(alias)
            generator.write("(\"value\")")
        }
    }

    package func renderJSONElement(alias: String, type: SQLType, into generator: inout SQLGenerator) {
        guard type != .text else { return generator.render(.qualifiedColumn(table: alias, column: "value")) }
        generator.write("CAST(")
        generator.render(.qualifiedColumn(table: alias, column: "value"))
        generator.write(" AS \(Self.typeName(type)))")
    }

    /// The document, or the JSON value at `path` in it.
    private func renderDocument(_ document: SQLExpression, path: [String], into generator: inout SQLGenerator) {
        guard !path.isEmpty else { return generator.render(document) }
        generator.render(.jsonValue(document: document, path: path, type: .json))
    }

    package func nullsOrdering(descending: Bool) -> String { descending ? " NULLS LAST" : " NULLS FIRST" }

    /// `pg_trgm` finds needles of three characters or more; the server folds text with its own `lower`, which
    /// agrees with Swift's folding on ASCII only (see `searchFunction`).
    package func searches(_ needle: String) -> Bool {
        needle.unicodeScalars.count >= 3 && needle.unicodeScalars.allSatisfy(\.isASCII)
    }

    /// `swiftdata_search_text(column) LIKE '%needle%'`, which a `pg_trgm` GIN index on that expression serves.
    package func renderSearch(
        key: SQLExpression, column: SQLExpression, index: String, needle: String, into generator: inout SQLGenerator
    ) {
        generator.write("swiftdata_search_text(")
        generator.render(column)
        generator.write(") LIKE ")
        var pattern = ""
        for character in needle.unicodeScalars {
            if character == "%" || character == "_" || character == "\\" { pattern += "\\" }
            pattern.unicodeScalars.append(character)
        }
        generator.render(.bind(.string("%" + pattern + "%"), .text))
    }

    package func renderWindow(limit: Int?, offset: Int?, into generator: inout SQLGenerator) {
        if let limit {
            generator.write(" LIMIT ")
            generator.bind(SQLBinding(.int64(Int64(limit)), .integer))
        }
        if let offset {
            generator.write(" OFFSET ")
            generator.bind(SQLBinding(.int64(Int64(offset)), .integer))
        }
    }

    package func windowParameters(limit: Int?, offset: Int?) -> [StoreValue] {
        var parameters: [StoreValue] = []
        if let limit { parameters.append(.int64(Int64(limit))) }
        if let offset { parameters.append(.int64(Int64(offset))) }
        return parameters
    }

    package var numbersParameters: Bool { true }

    package func identityColumn(_ name: String) -> String { "\(name) bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY" }

    /// The keys are one `bigint[]` parameter whatever their number, so that the statement is prepared once.
    package func keysCondition(_ column: String, count: Int, first: Int) -> String {
        integerListCondition(column, parameter: first)
    }

    package func integerListCondition(_ column: String, parameter index: Int) -> String {
        "\(column) = ANY($\(index)::bigint[])"
    }

    /// An array literal, `{1,2,3}`.
    package func integerList(_ values: some Sequence<Int64>) -> StoreValue {
        .string("{" + values.map(String.init).joined(separator: ",") + "}")
    }

    /// PostgreSQL keeps 63 bytes of a name: a longer one is shortened, with a hash of the whole name.
    package func indexName(_ name: String) -> String {
        guard name.utf8.count > 63 else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(decoding: name.utf8.prefix(46), as: UTF8.self) + "_" + String(hash, radix: 16)
    }

    package var keyOnlyTableOptions: String { "" }
}
