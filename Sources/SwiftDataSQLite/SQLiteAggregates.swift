import CSQLite
import Foundation
import SwiftDataSQL

/// The aggregate functions the SQLite store registers: `swiftdata_decimal_sum`, the exact sum of `Decimal` text in
/// Swift's `Decimal` arithmetic, `NULL` over no values (see `SQLiteDialect.renderAggregate`).
enum SQLiteAggregates {
    /// A group's running sum, in the memory SQLite keeps for it, which starts zeroed: a zero sum of no values.
    private struct DecimalSum {
        var sum: Decimal
        var count: Int
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    static func register(on handle: OpaquePointer) {
        sqlite3_create_function_v2(
            handle, SQLiteDialect.decimalSum, 1, SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC, nil, nil,
            { context, _, arguments in SQLiteAggregates.addDecimal(context, arguments?[0]) },
            { context in SQLiteAggregates.finishDecimalSum(context) }, nil)
    }

    /// Adds a value's `Decimal` (text a `Decimal` cannot read is NaN, as `SWIFTDATA_DECIMAL` orders it); skips `NULL`.
    private static func addDecimal(_ context: OpaquePointer?, _ value: OpaquePointer?) {
        guard sqlite3_value_type(value) != SQLITE_NULL else { return }
        guard let memory = sqlite3_aggregate_context(context, Int32(MemoryLayout<DecimalSum>.stride)) else {
            return sqlite3_result_error_nomem(context)
        }
        let text = sqlite3_value_text(value).map { String(cString: $0) } ?? ""
        let decimal = Decimal(string: text, locale: posix) ?? .nan
        // Zeroed memory is a valid `DecimalSum` of trivial fields: a zero `Decimal` and a zero count.
        let state = memory.assumingMemoryBound(to: DecimalSum.self)
        state.pointee.sum += decimal
        state.pointee.count += 1
    }

    /// The sum as `Decimal` text, or `NULL` when no value was added.
    private static func finishDecimalSum(_ context: OpaquePointer?) {
        guard let memory = sqlite3_aggregate_context(context, 0) else { return sqlite3_result_null(context) }
        let state = memory.assumingMemoryBound(to: DecimalSum.self).pointee
        guard state.count > 0 else { return sqlite3_result_null(context) }
        let text = state.sum.description
        // SQLITE_TRANSIENT: SQLite copies the text before this returns.
        sqlite3_result_text(context, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
}
