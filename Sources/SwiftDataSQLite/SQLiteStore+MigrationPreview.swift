import Foundation
import SwiftDataCore

/// The SQLite store's part of a migration preview and of migrating a copy (see `MigrationPreview`).
extension ModelConfiguration: MigrationPreviewing {
    package func previewTarget() throws -> (target: any SchemaMigrationTarget, version: Schema.Version?)? {
        guard !isStoredInMemoryOnly, FileManager.default.fileExists(atPath: url.path) else { return nil }
        try SQLiteStore.checkFile(at: url, creating: false)
        let database = try SQLiteDatabase(path: url.path, readOnly: true, create: false)
        let tables = try SQLiteStore.readTables(database, configuration: self)
        let stored = try SQLiteStore.readMetadata(database, tables: tables, configuration: self)
        guard let schema = stored.schema else { return nil }
        let target = SQLiteMigration(
            database: database, recorded: schema, external: nil, configuration: self,
            identifier: stored.identifier ?? "")
        return (target, stored.version)
    }

    package var rebuildsChangedTables: Bool { true }

    /// A consistent copy made by SQLite (`VACUUM INTO`, from a read-only connection), with the external files,
    /// in a new temporary directory.
    package func temporaryCopy() throws -> (configuration: any DataStoreConfiguration, remove: () -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swiftdata-migration-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let remove = { try? FileManager.default.removeItem(at: directory) }
        do {
            let copy = directory.appendingPathComponent(url.lastPathComponent)
            try SQLiteStore.checkFile(at: url, creating: false)
            let database = try SQLiteDatabase(path: url.path, readOnly: true, create: false)
            try database.execute("VACUUM INTO ?", [.string(copy.path)])
            let external = ExternalStorage(storeURL: url).directory
            if FileManager.default.fileExists(atPath: external.path) {
                try FileManager.default.copyItem(at: external, to: ExternalStorage(storeURL: copy).directory)
            }
            let configuration = ModelConfiguration(name, schema: schema, url: copy)
            return (configuration, { remove() })
        } catch {
            remove()
            throw error
        }
    }
}
