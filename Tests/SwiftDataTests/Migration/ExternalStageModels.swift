import Foundation
import SwiftData

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
