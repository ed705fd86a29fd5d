import CLibPQ
import Foundation

/// Where a connection goes: host (or socket directory), port, database and user, as libpq resolves them from a
/// connection string. It never holds the password, so it can appear in every error.
package struct PostgresEndpoint: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    package var port: String
    package var database: String
    package var user: String

    /// `127.0.0.1:5432/app (user web)`; a socket directory stands in place of the host.
    package var description: String {
        "\(host.isEmpty ? "localhost" : host):\(port)/\(database)" + (user.isEmpty ? "" : " (user \(user))")
    }

    /// The endpoint of a connection libpq made or tried to make.
    init(connection: OpaquePointer) {
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        host = text(PQhost(connection))
        port = text(PQport(connection))
        database = text(PQdb(connection))
        user = text(PQuser(connection))
    }

    /// The endpoint a connection string names, with libpq's defaults (`PGHOST`, ..., the default socket
    /// directory) for what it leaves out; `nil` with libpq's message when it cannot be parsed.
    static func parse(_ connectionString: String) -> Result<PostgresEndpoint, PostgresError> {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &message) else {
            let text = message.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(message)
            return .failure(
                PostgresError(
                    .invalidConnectionString, sqlState: "08001",
                    message: text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        let user = values["user"] ?? ""
        return .success(
            PostgresEndpoint(
                host: values["host"] ?? values["hostaddr"] ?? "", port: values["port"] ?? "5432",
                database: values["dbname"] ?? user, user: user))
    }

    /// The endpoint with the password of its connection string removed from each part (libpq may have read a part
    /// of a badly escaped password as the host or the port).
    func redacted(by redaction: PostgresRedaction) -> PostgresEndpoint {
        PostgresEndpoint(
            host: redaction(host), port: redaction(port), database: redaction(database), user: redaction(user))
    }

    package init(host: String, port: String, database: String, user: String) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
    }
}
