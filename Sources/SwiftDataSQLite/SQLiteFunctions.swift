import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL

/// The SQL functions that `SQLiteDialect` calls to give predicates Swift's semantics (see `SQLFunction`).
/// Functions over strings run the same Swift code `Predicate.evaluate` runs, so SQL and memory agree by
/// construction. Functions that stand for a Swift trap raise an error; they are registered as non-deterministic,
/// so that SQLite never evaluates them ahead of time, outside the `CASE` branch that guards them.
enum SQLiteFunctions {
    /// A string argument as a predicate node.
    private typealias Text = PredicateExpressions.Value<String>

    typealias Implementation = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    static func register(on handle: OpaquePointer) {
        for function in SQLiteDialect.Function.allCases {
            guard let (count, isPure, implementation) = implementation(of: function) else { continue }
            let flags = SQLITE_UTF8 | SQLITE_INNOCUOUS | (isPure ? SQLITE_DETERMINISTIC : 0)
            sqlite3_create_function_v2(handle, function.rawValue, count, flags, nil, implementation, nil, nil, nil)
        }
    }

    /// The argument count, purity (deterministic and never raising) and C implementation of a function, or `nil`
    /// where the platform's Foundation lacks it.
    private static func implementation(of function: SQLiteDialect.Function) -> (Int32, Bool, Implementation)? {
        switch function {
        case .checked: (3, false, { SQLiteFunctions.checked($0, $2) })
        case .divide: (4, false, { SQLiteFunctions.divide($0, $2, remainder: false) })
        case .remainder: (4, false, { SQLiteFunctions.divide($0, $2, remainder: true) })
        case .realDivide: (2, true, { SQLiteFunctions.realDivide($0, $2) })
        case .unwrap: (1, false, { SQLiteFunctions.unwrap($0, $2) })
        case .fail: (1, false, { SQLiteFunctions.fail($0, $2) })
        case .contains: (2, true, { SQLiteFunctions.strings($0, $2, SQLiteFunctions.contains) })
        case .startsWith: (2, true, { SQLiteFunctions.strings($0, $2, SQLiteFunctions.startsWith) })
        case .searchText: (1, true, { SQLiteFunctions.searchText($0, $2) })
        #if canImport(Darwin)
            case .localizedStandardContains, .caseInsensitiveCompare, .localizedCompare: nil
        #else
            // These depend on the current locale, so they are not deterministic.
            case .localizedStandardContains:
                (2, false, { SQLiteFunctions.strings($0, $2, SQLiteFunctions.localizedStandardContains) })
            case .caseInsensitiveCompare:
                (2, false, { SQLiteFunctions.strings($0, $2, SQLiteFunctions.caseInsensitiveCompare) })
            case .localizedCompare: (2, false, { SQLiteFunctions.strings($0, $2, SQLiteFunctions.localizedCompare) })
        #endif
        }
    }

    // MARK: String functions, through the predicate nodes `Predicate.evaluate` runs

    private static func contains(_ a: String, _ b: String) throws -> Result {
        .bool(try PredicateExpressions.CollectionContainsCollection(base: Text(a), other: Text(b)).evaluate(.init()))
    }

    private static func startsWith(_ a: String, _ b: String) throws -> Result {
        .bool(try PredicateExpressions.SequenceStartsWith(base: Text(a), prefix: Text(b)).evaluate(.init()))
    }

    #if !canImport(Darwin)
        private static func localizedStandardContains(_ a: String, _ b: String) throws -> Result {
            .bool(
                try PredicateExpressions.StringLocalizedStandardContains(root: Text(a), other: Text(b)).evaluate(
                    .init()))
        }

        private static func caseInsensitiveCompare(_ a: String, _ b: String) throws -> Result {
            .order(
                try PredicateExpressions.StringCaseInsensitiveCompare(root: Text(a), other: Text(b)).evaluate(.init()))
        }

        private static func localizedCompare(_ a: String, _ b: String) throws -> Result {
            .order(try PredicateExpressions.StringLocalizedCompare(root: Text(a), other: Text(b)).evaluate(.init()))
        }
    #endif

    // MARK: Implementations

    private static func argument(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> OpaquePointer? {
        arguments?[index]
    }

    private static func isNull(_ value: OpaquePointer?) -> Bool { sqlite3_value_type(value) == SQLITE_NULL }

    private static func raise(_ context: OpaquePointer?, _ message: String) {
        sqlite3_result_error(context, SQLFunction.errorPrefix + " " + message, -1)
    }

    /// `x` if it is an integer within `min...max`; SQLite turns integer overflow into floating point.
    private static func checked(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        let value = argument(arguments, 0)
        if isNull(value) { return sqlite3_result_null(context) }
        let x = sqlite3_value_int64(value)
        guard sqlite3_value_type(value) == SQLITE_INTEGER, x >= sqlite3_value_int64(argument(arguments, 1)),
            x <= sqlite3_value_int64(argument(arguments, 2))
        else { return raise(context, Failure.overflow.rawValue) }
        sqlite3_result_int64(context, x)
    }

    /// Swift's `/` or `%` on integers: truncating, trapping on a zero divisor and on overflow.
    private static func divide(
        _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?, remainder: Bool
    ) {
        let (a, b) = (argument(arguments, 0), argument(arguments, 1))
        if isNull(a) || isNull(b) { return sqlite3_result_null(context) }
        let dividend = sqlite3_value_int64(a)
        let divisor = sqlite3_value_int64(b)
        let minimum = sqlite3_value_int64(argument(arguments, 2))
        let maximum = sqlite3_value_int64(argument(arguments, 3))
        if divisor == 0 { return raise(context, Failure.divisionByZero.rawValue) }
        if divisor == -1 && dividend == minimum { return raise(context, Failure.overflow.rawValue) }
        let result = remainder ? dividend % divisor : dividend / divisor
        guard result >= minimum && result <= maximum else { return raise(context, Failure.overflow.rawValue) }
        sqlite3_result_int64(context, result)
    }

    /// IEEE division; NaN becomes `NULL`, as the store holds it.
    private static func realDivide(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        let (a, b) = (argument(arguments, 0), argument(arguments, 1))
        if isNull(a) || isNull(b) { return sqlite3_result_null(context) }
        let result = sqlite3_value_double(a) / sqlite3_value_double(b)
        if result.isNaN { return sqlite3_result_null(context) }
        sqlite3_result_double(context, result)
    }

    private static func unwrap(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        let value = argument(arguments, 0)
        if isNull(value) { return raise(context, Failure.forceUnwrap.rawValue) }
        sqlite3_result_value(context, value)
    }

    private static func fail(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        let message = sqlite3_value_text(argument(arguments, 0)).map { String(cString: $0) } ?? ""
        raise(context, message)
    }

    /// The text as a `.search` index keeps it (see `SearchText.folded`); `NULL` for `NULL`.
    private static func searchText(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
        let value = argument(arguments, 0)
        if isNull(value) { return sqlite3_result_null(context) }
        let folded = SearchText.folded(text(value))
        sqlite3_result_text(context, folded, -1, csqlite_transient())
    }

    /// A result of a string function.
    private enum Result {
        case bool(Bool)
        case order(ComparisonResult)
    }

    /// Calls `body` with the two text arguments; `NULL` when either is `NULL`.
    private static func strings(
        _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?,
        _ body: (String, String) throws -> Result
    ) {
        let (a, b) = (argument(arguments, 0), argument(arguments, 1))
        if isNull(a) || isNull(b) { return sqlite3_result_null(context) }
        do {
            switch try body(text(a), text(b)) {
            case .bool(let value): sqlite3_result_int64(context, value ? 1 : 0)
            case .order(let value): sqlite3_result_int64(context, Int64(value.rawValue))
            }
        } catch {
            raise(context, "\(error)")
        }
    }

    private static func text(_ value: OpaquePointer?) -> String {
        guard let text = sqlite3_value_text(value) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    // MARK: Errors

    /// The Swift traps and throws the functions stand for.
    enum Failure: String {
        case overflow = "arithmetic overflow"
        case divisionByZero = "division by zero"
        case forceUnwrap = "force unwrap of nil"
    }

    /// The error a statement's failure stands for when one of these functions raised it: Swift's
    /// `PredicateError.forceUnwrapFailure` for `!` on `nil`, as `Predicate.evaluate` throws it, and
    /// `unsupportedPredicate` for what traps in Swift (overflow, division by zero, an inverted range).
    static func failure(message: String, model: String?) -> (any Error)? {
        guard message.hasPrefix(SQLFunction.errorPrefix) else { return nil }
        let reason = message.dropFirst(SQLFunction.errorPrefix.count).trimmingCharacters(in: .whitespaces)
        if reason == Failure.forceUnwrap.rawValue { return PredicateError.forceUnwrapFailure }
        return SwiftDataError.unsupportedPredicate.with(
            reason: "evaluating the predicate stops at \(reason), which traps in Swift", model: model,
            suggestion: "Guard the operation in the predicate, as Swift code would have to")
    }
}
