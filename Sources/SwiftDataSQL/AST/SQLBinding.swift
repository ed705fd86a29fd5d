import SwiftDataCore

/// A value bound to a statement's parameter, with the SQL type it has there. The value is encoded as the SQLite
/// store holds it (`StoredValue`); the type tells a store that keeps values of that type differently (a PostgreSQL
/// `uuid` from the 16 bytes, a `boolean` from 0 or 1) how to convert it, and a dialect how to declare the parameter.
package struct SQLBinding: Equatable, Sendable {
    package var value: StoredValue
    package var type: SQLType

    package init(_ value: StoredValue, _ type: SQLType) {
        self.value = value
        self.type = type
    }
}
