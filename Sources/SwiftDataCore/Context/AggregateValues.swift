import Foundation

/// An attribute type whose values `FetchAggregate.minimum(_:)` and `maximum(_:)`
/// compare in the store as Swift's `<` does: integers that fit in `Int64`, `Double`, `Float`, `Decimal`, `String`
/// and `Date`. An addition to Apple's SwiftData.
public protocol AggregateComparable: Comparable {}

/// A numeric attribute type whose values `FetchAggregate.sum(_:)` and
/// `average(_:)` add up in the store: integers that fit in `Int64`, `Double`, `Float` and
/// `Decimal`. An addition to Apple's SwiftData.
public protocol AggregateSummable: AggregateComparable, AdditiveArithmetic {
    /// The sum of `values` as the stores add them (integers in 64 bits), or `nil` when it does not fit in the type
    /// (internal; the sum throws instead of trapping).
    static func _total(_ values: [Self]) -> Self?
    /// The sum a store computed, read from `column` (`NULL` is zero), or `nil` when it does not fit in the type.
    static func _sum(from reader: any _RowReader, column: Int32) throws -> Self?
    /// The value as a `Double`, for an average (internal).
    var _doubleValue: Double { get }
}

extension AggregateSummable where Self: FixedWidthInteger {
    /// The sum in 64-bit integers, or `nil` when a partial sum overflows them or the total does not fit in the type.
    public static func _total(_ values: [Self]) -> Self? {
        var total: Int64 = 0
        for value in values {
            guard let wide = Int64(exactly: value) else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(wide)
            if overflow { return nil }
            total = sum
        }
        return Self(exactly: total)
    }

    /// The store's 64-bit integer sum, when it fits.
    public static func _sum(from reader: any _RowReader, column: Int32) throws -> Self? {
        reader.isNull(column) ? .zero : Self(exactly: try reader.int64(column))
    }

    /// The value as a `Double`.
    public var _doubleValue: Double { Double(self) }
}

extension AggregateSummable where Self: BinaryFloatingPoint {
    /// The sum in IEEE arithmetic.
    public static func _total(_ values: [Self]) -> Self? { values.reduce(0, +) }

    /// The store's floating-point sum.
    public static func _sum(from reader: any _RowReader, column: Int32) throws -> Self? {
        reader.isNull(column) ? .zero : Self(try reader.double(column))
    }

    /// The value as a `Double`.
    public var _doubleValue: Double { Double(self) }
}

extension Int: AggregateSummable {}
extension Int8: AggregateSummable {}
extension Int16: AggregateSummable {}
extension Int32: AggregateSummable {}
extension Int64: AggregateSummable {}
extension UInt8: AggregateSummable {}
extension UInt16: AggregateSummable {}
extension UInt32: AggregateSummable {}
extension Double: AggregateSummable {}
extension Float: AggregateSummable {}
extension String: AggregateComparable {}
extension Date: AggregateComparable {}

extension Decimal: AggregateSummable {
    /// The sum, exact within `Decimal`'s 38 digits.
    public static func _total(_ values: [Decimal]) -> Decimal? { values.reduce(0, +) }

    /// The store's exact sum.
    public static func _sum(from reader: any _RowReader, column: Int32) throws -> Decimal? {
        reader.isNull(column) ? .zero : try reader.decimal(column)
    }

    /// The value as a `Double`.
    public var _doubleValue: Double { NSDecimalNumber(decimal: self).doubleValue }
}
