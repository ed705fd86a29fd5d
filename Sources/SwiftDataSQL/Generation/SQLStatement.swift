import SwiftDataCore

/// SQL text with its parameters in order.
package struct SQLStatement: Equatable {
    package var sql: String
    /// The parameters' values, encoded as the SQLite store holds them.
    package var parameters: [StoredValue]
    /// The parameters' SQL types, in the same order, for stores that hold some types differently.
    package var parameterTypes: [SQLType]

    package init(sql: String = "", parameters: [StoredValue] = [], parameterTypes: [SQLType] = []) {
        self.sql = sql
        self.parameters = parameters
        self.parameterTypes = parameterTypes
    }

    /// Appends a bound value; its placeholder is the caller's to write.
    package mutating func append(_ binding: SQLBinding) {
        parameters.append(binding.value)
        parameterTypes.append(binding.type)
    }
}
