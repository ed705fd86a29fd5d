import SwiftDataCore

/// A value bound to a statement's parameter, with the SQL type it has there. The value keeps its meaning
/// (`StoreValue`: a date, a UUID, ...); the store that runs the statement decides its physical form, as it does for
/// model values, and the type tells a dialect how to declare the parameter.
package struct SQLBinding: Equatable, Sendable {
    package var value: StoreValue
    package var type: SQLType

    package init(_ value: StoreValue, _ type: SQLType) {
        self.value = value
        self.type = type
    }
}
