import Foundation
import SwiftData
import Testing

// A store first written by a plain `ModelContainer(for:)`, then versioned: version 1 is that first release (its
// identifier differs from a plain container's 1.0.0), version 2 renames `body` to `text` through `originalName`,
// version 3 no longer mentions the old name and adds a tag model.

enum JournalV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(0, 9, 0) }
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var title: String
        var body: String
        init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }
}

enum JournalV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Entry.self] }

    @Model final class Entry {
        var title: String
        @Attribute(originalName: "body") var text: String
        init(title: String, text: String) {
            self.title = title
            self.text = text
        }
    }
}

enum JournalV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Entry.self, Tag.self] }

    @Model final class Entry {
        var title: String
        var text: String
        var words = 0
        init(title: String, text: String) {
            self.title = title
            self.text = text
        }
    }

    @Model final class Tag {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum JournalPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [JournalV1.self, JournalV2.self, JournalV3.self] }
    static var stages: [MigrationStage] { [v1toV2, v2toV3] }

    static let v1toV2 = MigrationStage.lightweight(fromVersion: JournalV1.self, toVersion: JournalV2.self)
    // As Apple documents it: a stage as a `static let`, which Swift 6 accepts only for a Sendable type. Its
    // `willMigrate` context sees version 2's models although version 3 adds one.
    static let v2toV3 = MigrationStage.custom(
        fromVersion: JournalV2.self, toVersion: JournalV3.self,
        willMigrate: { context in
            for entry in try context.fetch(FetchDescriptor<JournalV2.Entry>()) { entry.text += "!" }
            try context.save()
        },
        didMigrate: { context in
            for entry in try context.fetch(FetchDescriptor<JournalV3.Entry>()) {
                entry.words = entry.text.split(separator: " ").count
            }
            context.insert(JournalV3.Tag(name: "migrated"))
            try context.save()
        })
}

/// Version 3 back to version 2 is a stage of its own: a downgrade.
enum JournalPlanWithDowngrade: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { JournalPlan.schemas }
    static var stages: [MigrationStage] {
        JournalPlan.stages + [.lightweight(fromVersion: JournalV3.self, toVersion: JournalV2.self)]
    }
}

/// A plan recognises the version a store is at by its tables, runs the chain of stages from there, and gives
/// each stage's contexts that stage's models.
@Suite struct PlanRecognitionTests {
    func open(
        _ directory: TemporaryDirectory, _ version: any VersionedSchema.Type, plan: (any SchemaMigrationPlan.Type)?
    )
        throws -> ModelContainer
    {
        try ModelContainer(
            for: Schema(versionedSchema: version), migrationPlan: plan,
            configurations: ModelConfiguration(url: directory.store()))
    }

    @Test func aStoreWrittenBeforeThePlanIsRecognisedAsItsFirstVersion() throws {
        let directory = TemporaryDirectory()
        do {
            // The first release: a plain container, which records no version of the plan.
            let context = ModelContext(
                try ModelContainer(
                    for: JournalV1.Entry.self, configurations: ModelConfiguration(url: directory.store())))
            context.insert(JournalV1.Entry(title: "a", body: "one two three"))
            try context.save()
        }
        let context = ModelContext(try open(directory, JournalV3.self, plan: JournalPlan.self))
        let entries = try context.fetch(FetchDescriptor<JournalV3.Entry>())
        #expect(entries.map(\.text) == ["one two three!"])
        #expect(entries.map(\.words) == [3])
        #expect(try context.fetch(FetchDescriptor<JournalV3.Tag>()).map(\.name) == ["migrated"])
    }

    @Test func aCustomStageSeesItsOwnVersionsModels() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try open(directory, JournalV2.self, plan: nil))
            context.insert(JournalV2.Entry(title: "a", text: "x y"))
            try context.save()
        }
        let context = ModelContext(try open(directory, JournalV3.self, plan: JournalPlan.self))
        #expect(try context.fetch(FetchDescriptor<JournalV3.Entry>()).map(\.text) == ["x y!"])
    }

    @Test func aPlanMayLeadBackToAnOlderVersion() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try open(directory, JournalV3.self, plan: JournalPlan.self))
            context.insert(JournalV3.Entry(title: "a", text: "kept"))
            try context.save()
        }
        #expect(throws: SwiftDataError.backwardMigration) {
            try open(directory, JournalV2.self, plan: JournalPlan.self)
        }
        let context = ModelContext(try open(directory, JournalV2.self, plan: JournalPlanWithDowngrade.self))
        #expect(try context.fetch(FetchDescriptor<JournalV2.Entry>()).map(\.text) == ["kept"])
        #expect(
            try sqlite(directory.store(), "SELECT value FROM _swiftdata_metadata WHERE key = 'schema_version'")
                == "1.0.0\n")
    }
}
