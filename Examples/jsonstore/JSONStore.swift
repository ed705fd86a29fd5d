import Foundation
import SwiftData

/// The configuration of a `JSONStore`: a name, and the file that holds the models.
final class JSONStoreConfiguration: DataStoreConfiguration {
    typealias Store = JSONStore

    var name: String
    var schema: Schema?
    var fileURL: URL

    init(name: String, schema: Schema? = nil, fileURL: URL) {
        self.name = name
        self.schema = schema
        self.fileURL = fileURL
    }

    static func == (lhs: JSONStoreConfiguration, rhs: JSONStoreConfiguration) -> Bool {
        lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}

/// A store that keeps every model in one JSON file, an array of snapshots, as in Apple's "Create a custom data
/// store with SwiftData" session: it leaves predicates and sorts to the context, and gives new models UUID keys.
final class JSONStore: DataStore {
    typealias Configuration = JSONStoreConfiguration
    typealias Snapshot = DefaultSnapshot

    var configuration: JSONStoreConfiguration
    var name: String
    var schema: Schema
    var identifier: String

    init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        self.name = configuration.name
        self.schema = configuration.schema ?? Schema()
        self.identifier = configuration.fileURL.lastPathComponent
    }

    func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot>
    where T: PersistentModel {
        if request.descriptor.predicate != nil {
            throw DataStoreError.preferInMemoryFilter
        } else if request.descriptor.sortBy.count > 0 {
            throw DataStoreError.preferInMemorySort
        }
        let objects = try read()
        let snapshots = objects.values.map { $0 }
        return DataStoreFetchResult(
            descriptor: request.descriptor, fetchedSnapshots: snapshots, relatedSnapshots: objects)
    }

    func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        var remappedIdentifiers = [PersistentIdentifier: PersistentIdentifier]()
        var objects = try read()
        for snapshot in request.inserted {
            let permanentIdentifier = try PersistentIdentifier.identifier(
                for: identifier, entityName: snapshot.persistentIdentifier.entityName, primaryKey: UUID())
            remappedIdentifiers[snapshot.persistentIdentifier] = permanentIdentifier
        }
        // New models may refer to each other: every saved snapshot gets their permanent identifiers.
        for snapshot in request.inserted {
            let permanentIdentifier =
                remappedIdentifiers[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
            objects[permanentIdentifier] = snapshot.copy(
                persistentIdentifier: permanentIdentifier, remappedIdentifiers: remappedIdentifiers)
        }
        for snapshot in request.updated {
            objects[snapshot.persistentIdentifier] = snapshot.copy(
                persistentIdentifier: snapshot.persistentIdentifier, remappedIdentifiers: remappedIdentifiers)
        }
        for snapshot in request.deleted {
            objects[snapshot.persistentIdentifier] = nil
        }
        try write(objects)
        return DataStoreSaveChangesResult(for: identifier, remappedIdentifiers: remappedIdentifiers)
    }

    func erase() throws {
        if FileManager.default.fileExists(atPath: configuration.fileURL.path) {
            try FileManager.default.removeItem(at: configuration.fileURL)
        }
    }

    /// The snapshots in the file, by identifier.
    func read() throws -> [PersistentIdentifier: DefaultSnapshot] {
        let path = configuration.fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        let snapshots: [DefaultSnapshot]
        do {
            snapshots = try JSONDecoder().decode([DefaultSnapshot].self, from: Data(contentsOf: configuration.fileURL))
        } catch let error as DecodingError {
            throw JSONStoreError(
                "\(path) is damaged: \(JSONStoreError.reason(error)); repair it, or move it away to start afresh")
        } catch {
            throw JSONStoreError("cannot read \(path): \(JSONStoreError.reason(error))")
        }
        var result = [PersistentIdentifier: DefaultSnapshot]()
        for snapshot in snapshots { result[snapshot.persistentIdentifier] = snapshot }
        return result
    }

    /// Replaces the file with the snapshots, all at once.
    func write(_ objects: [PersistentIdentifier: DefaultSnapshot]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let snapshots = objects.values.sorted { $0.persistentIdentifier < $1.persistentIdentifier }
        do {
            try FileManager.default.createDirectory(
                at: configuration.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(snapshots).write(to: configuration.fileURL, options: .atomic)
        } catch {
            throw JSONStoreError("cannot write \(configuration.fileURL.path): \(JSONStoreError.reason(error))")
        }
    }
}

/// A file a `JSONStore` cannot read or write, said in a sentence for the user.
struct JSONStoreError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// Why reading or writing failed, in words: what the decoder missed, or the system's reason.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty: return "it is not valid JSON"
            case .keyNotFound(let key, let context):
                return "the entry at \(place(context.codingPath)) lacks \"\(key.stringValue)\""
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                return "the value at \(place(context.codingPath)) is not what the store wrote there"
            @unknown default: return "it does not hold what the store writes"
            }
        }
        var error = error
        while let underlying = (error as? CocoaError)?.underlying { error = underlying }
        if let error = error as? POSIXError, let message = strerror(error.code.rawValue) {
            return String(cString: message).lowercased()
        }
        return error.localizedDescription
    }

    /// A coding path as a position in the file: `[0].persistentIdentifier`.
    private static func place(_ path: [any CodingKey]) -> String {
        let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text.isEmpty ? "the top" : text
    }
}
