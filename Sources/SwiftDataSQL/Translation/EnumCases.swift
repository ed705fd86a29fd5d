import Foundation
import SwiftDataCore

/// Enums in SQL: which values are cases without payloads, and the rank of each case in Swift's `<` order.
enum EnumCases {
    /// Whether `value` (looking through `Optional`) is an enum case without associated values.
    static func isCaseWithoutPayload(_ value: Any?) -> Bool {
        guard let value else { return false }
        let unwrapped: Any? = (value as? any _OptionalValue).map { $0._wrapped } ?? value
        guard let unwrapped else { return false }
        let mirror = Mirror(reflecting: unwrapped)
        return mirror.displayStyle == .enum && mirror.children.isEmpty
    }

    /// An integer expression ordered as the term's enum values are by Swift's `<`: each case's rank among
    /// `allCases` sorted with `<`. Only `CaseIterable` and `Comparable` enums have one, whatever their `<` is.
    static func rank(of term: SQLTerm, in translator: PredicateTranslator) throws -> SQLExpression {
        let type = SQLValueKind.unwrapped(term.type)
        guard let enumeration = type as? any (CaseIterable & Comparable).Type, let ranks = ranks(enumeration) else {
            throw translator.unsupported("< on \(type) values has no SQL translation: it is not a CaseIterable enum")
        }
        if let constant = term.constant, let stored = try? StoreValue(sqlConstant: constant),
            let rank = ranks.first(where: { $0.stored == stored })?.rank
        {
            return .bind(.int64(Int64(rank)), .integer)
        }
        guard let storedType = SQLType(term.kind) else {
            throw translator.unsupported("< on \(type) values has no SQL translation")
        }
        let branches = ranks.map {
            SQLBranch(
                .binary(term.expression, .equal, .bind($0.stored, storedType)),
                .bind(.int64(Int64($0.rank)), .integer))
        }
        return .cases(branches, otherwise: .null)
    }

    /// Each case's stored value and its rank in `<` order; equal cases share a rank.
    static func ranks<T: CaseIterable & Comparable>(_ type: T.Type) -> [(stored: StoreValue, rank: Int)]? {
        let sorted = T.allCases.sorted()
        var result: [(stored: StoreValue, rank: Int)] = []
        var rank = 0
        for (index, value) in sorted.enumerated() {
            if index > 0 && sorted[index - 1] < value { rank += 1 }
            guard let stored = try? StoreValue(sqlConstant: value) else { return nil }
            result.append((stored, rank))
        }
        return result
    }
}
