import Foundation
import SwiftData
import SwiftDataPostgres

/// Where an example keeps its models: the default SQLite store, or a PostgreSQL database named by `--store URL`
/// (anywhere among the arguments) or by the `SWIFTDATA_STORE` environment variable, so that several instances of
/// the example, on several machines, share one database.
package enum ExampleStore {
    /// The line the examples' usage gives the option.
    package static let usage = "--store URL   keep the models in a PostgreSQL database (or set SWIFTDATA_STORE)"

    /// The PostgreSQL URL `--store` or `SWIFTDATA_STORE` gives, if any, and the other arguments.
    package static func split(_ arguments: [String]) throws -> (url: String?, rest: [String]) {
        var rest: [String] = []
        var url = ProcessInfo.processInfo.environment["SWIFTDATA_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        var words = arguments[...]
        while let word = words.popFirst() {
            if word == "--store" {
                guard let value = words.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError("--store needs a PostgreSQL URL, such as postgresql://user@host/database")
                }
                url = value
            } else if word.hasPrefix("--store=") {
                url = String(word.dropFirst("--store=".count))
            } else {
                rest.append(word)
            }
        }
        return (url, rest)
    }

    /// A container for the models: on the PostgreSQL database at `url`, or on the default store without one.
    package static func container(for types: any PersistentModel.Type..., url: String?) throws -> ModelContainer {
        guard let url else { return try ModelContainer(for: Schema(types), configurations: [ModelConfiguration()]) }
        return try ModelContainer(for: Schema(types), configurations: [PostgresConfiguration(url: url)])
    }
}
