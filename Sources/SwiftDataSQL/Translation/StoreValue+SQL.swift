import Foundation
import SwiftDataCore

extension StoreValue {
    /// A captured value as SQL binds it: with its meaning, except NaN, which is SQL `NULL` in every dialect (SQLite
    /// cannot store NaN, and `NULL`'s rules are Swift's NaN rules: it equals nothing and orders with nothing).
    init(sqlConstant value: Any) throws {
        let value = try StoreValue(encoding: value)
        if case .double(let number) = value, number.isNaN {
            self = .null
        } else {
            self = value
        }
    }
}
