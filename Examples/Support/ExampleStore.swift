import Foundation
import SwiftData
import SwiftDataPostgres

/// Where an example keeps its models: `--store` (anywhere among the arguments) or the `SWIFTDATA_STORE` environment
/// variable names an SQLite file by its path, or a PostgreSQL database by a `postgresql://` (or `postgres://`) URL,
/// so that several instances of the example, on several machines, share one database; without either, the models
/// live in the default store, `$XDG_DATA_HOME/<program>/default.store`.
package enum ExampleStore: Equatable {
    case defaultFile
    case file(URL)
    case postgres(url: String)

    /// The sentence of the examples' usage that gives the option.
    package static let usage = """
        --store <path>, an SQLite file, or --store <URL>, a PostgreSQL database such as
        postgresql://user@host/database; SWIFTDATA_STORE does the same
        """

    /// The store `--store` or `SWIFTDATA_STORE` names (the default store without either), and the other arguments.
    /// `readingEnvironment: false` leaves `SWIFTDATA_STORE` to the other examples.
    package static func split(_ arguments: [String], readingEnvironment: Bool = true) throws -> (
        store: ExampleStore, rest: [String]
    ) {
        var rest: [String] = []
        var named =
            readingEnvironment
            ? ProcessInfo.processInfo.environment["SWIFTDATA_STORE"].flatMap { $0.isEmpty ? nil : $0 } : nil
        var words = arguments[...]
        while let word = words.popFirst() {
            if word == "--store" {
                guard let value = words.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError("--store needs a file path or a PostgreSQL URL, such as postgresql://user@host/db")
                }
                named = value
            } else if word.hasPrefix("--store=") {
                named = String(word.dropFirst("--store=".count))
            } else {
                rest.append(word)
            }
        }
        return (try named.map(ExampleStore.init(naming:)) ?? .defaultFile, rest)
    }

    /// The store a path or URL names.
    init(naming text: String) throws {
        let lowercased = text.lowercased()
        if lowercased.hasPrefix("postgresql://") || lowercased.hasPrefix("postgres://") {
            self = .postgres(url: text)
        } else if lowercased.hasPrefix("file://"), let url = URL(string: text), url.isFileURL {
            self = .file(url)
        } else if text.contains("://") {
            throw UsageError(
                "--store '\(text)' is neither a file nor a PostgreSQL URL: give a path such as ./todo.store, "
                    + "or a URL that starts with postgresql://")
        } else if text.isEmpty || text.hasSuffix("/") {
            throw UsageError("--store needs the path of a file, not of a directory")
        } else {
            self = .file(URL(fileURLWithPath: text))
        }
    }

    /// The store's name in records and messages: `default`, the file's path, or the URL.
    package var name: String {
        switch self {
        case .defaultFile: "default"
        case .file(let url): url.standardizedFileURL.path
        case .postgres(let url): url
        }
    }

    /// Whether the store is an SQLite file that does not exist yet.
    package var isNewFile: Bool {
        switch self {
        case .defaultFile: !FileManager.default.fileExists(atPath: ModelConfiguration().url.path)
        case .file(let url): !FileManager.default.fileExists(atPath: url.path)
        case .postgres: false
        }
    }

    /// A container for the models in this store.
    package func container(for types: any PersistentModel.Type...) throws -> ModelContainer {
        let schema = Schema(types)
        switch self {
        case .defaultFile: return try ModelContainer(for: schema, configurations: [ModelConfiguration()])
        case .file(let url): return try ModelContainer(for: schema, configurations: [ModelConfiguration(url: url)])
        case .postgres(let url):
            return try ModelContainer(for: schema, configurations: [PostgresConfiguration(url: url)])
        }
    }
}
