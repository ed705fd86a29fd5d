import CLibPQ

/// A statement prepared on one connection (`PQprepare`), run again and again with `query(_:_:format:)` without
/// being parsed and planned each time. It belongs to the connection that prepared it, and to that connection's
/// current session: after the connection is reset it must be prepared again. On a connection that does not prepare
/// statements (`preparesStatements`) it has no name, and its text is sent with each run.
package struct PostgresStatement: Sendable {
    /// The server-side name (`s1`, `s2`, ...); empty for a statement sent with its text.
    package let name: String
    package let sql: String
    /// The types the parameters were declared with (`.unspecified` where the server infers one).
    package let parameterTypes: [PostgresType]
    /// The connection and session the statement was prepared in.
    let owner: ObjectIdentifier
    let session: Int

    /// The parameter types an unnamed run sends: those the statement declares, and the values' own where it
    /// declares none.
    func sentTypes(_ valueTypes: UnsafePointer<Oid>?, _ count: Int32) -> [Oid] {
        (0..<Int(count)).map { index in
            let declared = index < parameterTypes.count ? parameterTypes[index].oid : 0
            return declared != 0 ? declared : valueTypes?[index] ?? 0
        }
    }
}
