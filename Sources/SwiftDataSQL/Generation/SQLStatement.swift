import SwiftDataCore

/// SQL text with its parameters in order.
package struct SQLStatement: Equatable {
    package var sql: String
    /// The parameters' values, by meaning; the store that runs the statement decides their physical form.
    package var parameters: [StoreValue]
    /// The parameters' SQL types, in the same order, for stores that hold some types differently.
    package var parameterTypes: [SQLType]

    package init(sql: String = "", parameters: [StoreValue] = [], parameterTypes: [SQLType] = []) {
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
