import Foundation
import SwiftData
import Synchronization

// A model with externally stored values, and a plan whose stage replaces and deletes some of them, then fails.

enum FilesV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Document.self] }

    @Model final class Document {
        var name: String
        @Attribute(.externalStorage) var content: Data
        init(name: String, content: Data) {
            self.name = name
            self.content = content
        }
    }
}

enum FilesV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Document.self] }

    @Model final class Document {
        var name: String
        @Attribute(.externalStorage) var content: Data
        var pages: Int = 0
        init(name: String, content: Data) {
            self.name = name
            self.content = content
        }
    }
}

/// Its stage deletes document "a", replaces the content of "b" and adds "c", saves, then throws.
enum FailingFilesPlan: SchemaMigrationPlan {
    struct StageFailure: Error {}
    static var schemas: [any VersionedSchema.Type] { [FilesV1.self, FilesV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: FilesV1.self, toVersion: FilesV2.self,
                willMigrate: { context in
                    for document in try context.fetch(FetchDescriptor<FilesV1.Document>()) {
                        if document.name == "a" { context.delete(document) } else { document.content = Data([9]) }
                    }
                    context.insert(FilesV1.Document(name: "c", content: Data(repeating: 3, count: 50_000)))
                    try context.save()
                    throw StageFailure()
                }, didMigrate: nil)
        ]
    }
}

// A model whose unique name lets a stage's save fail after it wrote files, and a plan whose stage catches that.

enum UniqueFilesV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Sheet.self] }

    @Model final class Sheet {
        @Attribute(.unique) var name: String
        @Attribute(.externalStorage) var content: Data
        init(name: String, content: Data) {
            self.name = name
            self.content = content
        }
    }
}

enum UniqueFilesV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Sheet.self] }

    @Model final class Sheet {
        @Attribute(.unique) var name: String
        @Attribute(.externalStorage) var content: Data
        var pages: Int = 0
        init(name: String, content: Data) {
            self.name = name
            self.content = content
        }
    }
}

/// Its stage adds sheet "c" and gives "b" a new content and the name "a" (which "a" has), so that its save fails
/// after writing the new values' files; it catches the error, notes the files of an SQLite store (`seen`), rolls back,
/// adds sheet "d" and saves that.
enum CaughtFailureFilesPlan: SchemaMigrationPlan {
    /// The names of the files beside the store right after the failed save.
    static let seen = Mutex<[String]?>(nil)
    static var schemas: [any VersionedSchema.Type] { [UniqueFilesV1.self, UniqueFilesV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: UniqueFilesV1.self, toVersion: UniqueFilesV2.self,
                willMigrate: { context in
                    let sheets = try context.fetch(FetchDescriptor<UniqueFilesV1.Sheet>(sortBy: [.init(\.name)]))
                    context.insert(UniqueFilesV1.Sheet(name: "c", content: Data(repeating: 3, count: 50_000)))
                    for sheet in sheets where sheet.name == "b" {
                        sheet.content = Data(repeating: 9, count: 50_000)
                        sheet.name = "a"
                    }
                    do {
                        try context.save()
                    } catch let error as SwiftDataError where error == .modelValidationFailure {
                        let directory = (context.container.configurations.first?.url.path ?? "") + ".external"
                        // A PostgreSQL store has no directory.
                        if let files = try? FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                            seen.withLock { $0 = files }
                        }
                    }
                    context.rollback()
                    context.insert(UniqueFilesV1.Sheet(name: "d", content: Data(repeating: 4, count: 50_000)))
                    try context.save()
                }, didMigrate: nil)
        ]
    }
}
