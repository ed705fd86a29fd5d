import CSQLite
import Foundation
import SwiftDataCore
import SwiftDataSQL

/// Collations that compare text the way Swift compares the values it encodes. Each calls the Swift comparison
/// itself, so SQL and `Predicate.evaluate` agree by construction.
enum SQLiteCollations {
    /// `String`'s `==` and `<`: canonically equivalent strings are equal, others ordered by Unicode scalars.
    static let string = SQLiteDialect.collation(for: .string)
    /// `Decimal`'s `<` on decimal text.
    static let decimal = SQLiteDialect.collation(for: .decimal)
    /// `String.StandardComparator.lexical`.
    static let lexical = SQLiteDialect.collation(for: .lexical)
    /// `localizedStandardCompare`: the `.localizedStandard` sort comparator of models.
    static let localizedStandard = SQLiteDialect.collation(for: .localizedStandard)
    /// `localizedCompare`: the `.localized` sort comparator of models.
    static let localized = SQLiteDialect.collation(for: .localized)

    static func register(on handle: OpaquePointer) {
        sqlite3_create_collation_v2(
            handle, string, SQLITE_UTF8, nil,
            { _, lhsCount, lhs, rhsCount, rhs in
                SQLiteCollations.compareStrings(lhs, Int(lhsCount), rhs, Int(rhsCount))
            }, nil)
        sqlite3_create_collation_v2(
            handle, decimal, SQLITE_UTF8, nil,
            { _, lhsCount, lhs, rhsCount, rhs in
                let posix = Locale(identifier: "en_US_POSIX")
                let left = Decimal(string: SQLiteCollations.text(lhs, lhsCount), locale: posix) ?? .nan
                let right = Decimal(string: SQLiteCollations.text(rhs, rhsCount), locale: posix) ?? .nan
                return left < right ? -1 : (right < left ? 1 : 0)
            }, nil)
        sqlite3_create_collation_v2(
            handle, lexical, SQLITE_UTF8, nil,
            { _, lhsCount, lhs, rhsCount, rhs in
                let (left, right) = (SQLiteCollations.text(lhs, lhsCount), SQLiteCollations.text(rhs, rhsCount))
                return SQLiteCollations.order(String.StandardComparator.lexical.compare(left, right))
            }, nil)
        sqlite3_create_collation_v2(
            handle, localizedStandard, SQLITE_UTF8, nil,
            { _, lhsCount, lhs, rhsCount, rhs in
                let (left, right) = (SQLiteCollations.text(lhs, lhsCount), SQLiteCollations.text(rhs, rhsCount))
                return SQLiteCollations.order(LocalizedString.compare(left, right, standard: true))
            }, nil)
        sqlite3_create_collation_v2(
            handle, localized, SQLITE_UTF8, nil,
            { _, lhsCount, lhs, rhsCount, rhs in
                let (left, right) = (SQLiteCollations.text(lhs, lhsCount), SQLiteCollations.text(rhs, rhsCount))
                return SQLiteCollations.order(LocalizedString.compare(left, right, standard: false))
            }, nil)
    }

    /// Swift's string order. ASCII text compares byte by byte, as Swift compares it; other text as `String`s.
    static func compareStrings(
        _ lhs: UnsafeRawPointer?, _ lhsCount: Int, _ rhs: UnsafeRawPointer?, _ rhsCount: Int
    )
        -> Int32
    {
        let left = UnsafeRawBufferPointer(start: lhs, count: lhs == nil ? 0 : lhsCount)
        let right = UnsafeRawBufferPointer(start: rhs, count: rhs == nil ? 0 : rhsCount)
        if isASCII(left) && isASCII(right) {
            let common = min(left.count, right.count)
            let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
            if order != 0 { return order < 0 ? -1 : 1 }
            return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
        }
        let leftString = String(decoding: left, as: UTF8.self)
        let rightString = String(decoding: right, as: UTF8.self)
        return leftString == rightString ? 0 : (leftString < rightString ? -1 : 1)
    }

    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }

    /// A comparison result as a collation returns it.
    private static func order(_ result: ComparisonResult) -> Int32 {
        switch result {
        case .orderedAscending: -1
        case .orderedDescending: 1
        case .orderedSame: 0
        }
    }

    static func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
        guard let bytes else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
    }
}
