import SwiftDataCore

/// A statement's parameters as its text is written: each placeholder in the dialect's form, and the parameters'
/// types in order.
package struct StatementParameters<Dialect: SQLDialect> {
    package let dialect: Dialect
    /// The types of the parameters placed so far.
    package private(set) var types: [SQLType] = []

    /// Parameters from number `first` on (the ones before it are the caller's).
    package init(_ dialect: Dialect, first: Int = 1) {
        self.dialect = dialect
        types.reserveCapacity(first - 1)
        for _ in 1..<max(first, 1) { types.append(.integer) }
    }

    /// The placeholder of the next parameter, which holds a value of `type`.
    package mutating func next(_ type: SQLType) -> String {
        types.append(type)
        return dialect.placeholder(types.count, type: type)
    }

    /// The number of the next parameter.
    package var nextIndex: Int { types.count + 1 }
}
