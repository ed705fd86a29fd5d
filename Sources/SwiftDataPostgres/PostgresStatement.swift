/// A statement prepared on one connection (`PQprepare`), run again and again with `query(_:_:format:)` without
/// being parsed and planned each time. It belongs to the connection that prepared it, and to that connection's
/// current session: after the connection is reset it must be prepared again.
package struct PostgresStatement: Sendable {
    /// The server-side name (`s1`, `s2`, ...).
    package let name: String
    package let sql: String
    /// The types the parameters were declared with (`.unspecified` where the server infers one).
    package let parameterTypes: [PostgresType]
    /// The connection and session the statement was prepared in.
    let owner: ObjectIdentifier
    let session: Int
}
