import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Migration plans run their stages in order when a container opens a store of an older version.
@Suite struct VersionedMigrationTests {
    /// A store written by version 1: two notes titled "a" (to merge) and one titled "b".
    func versionOneStore(_ directory: TemporaryDirectory) throws {
        let container = try ModelContainer(
            for: Schema(versionedSchema: NotesV1.self), configurations: ModelConfiguration(url: directory.store()))
        let context = ModelContext(container)
        context.insert(NotesV1.Note(title: "a", body: "one two"))
        context.insert(NotesV1.Note(title: "a", body: "three"))
        context.insert(NotesV1.Note(title: "b", body: "four five six"))
        try context.save()
    }

    func open(_ directory: TemporaryDirectory, plan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        try ModelContainer(
            for: Schema(versionedSchema: NotesV2.self), migrationPlan: plan,
            configurations: ModelConfiguration(url: directory.store()))
    }

    @Test func customStageSeesOldThenNewModels() throws {
        let directory = TemporaryDirectory()
        try versionOneStore(directory)
        let context = ModelContext(try open(directory, plan: NotesPlan.self))
        let notes = try context.fetch(FetchDescriptor<NotesV2.Note>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["a", "b"])
        #expect(notes.map(\.text) == ["one two\nthree", "four five six"])
        #expect(notes.map(\.words) == [3, 3])
        #expect(
            try sqlite(directory.store(), "SELECT value FROM _swiftdata_metadata WHERE key = 'schema_version'")
                == "2.0.0\n")
        // Opening again does nothing more.
        let again = ModelContext(try open(directory, plan: NotesPlan.self))
        #expect(try again.fetchCount(FetchDescriptor<NotesV2.Note>()) == 2)
    }

    @Test func failingStageLeavesTheStoreAsItWas() throws {
        let directory = TemporaryDirectory()
        try versionOneStore(directory)
        let before = try Data(contentsOf: directory.store())
        #expect {
            try open(directory, plan: FailingNotesPlan.self)
        } throws: { error in
            ((error as? SwiftDataError)?.reason ?? "").contains("migration stage 1 (1.0.0 to 2.0.0) failed")
        }
        #expect(try Data(contentsOf: directory.store()) == before)
        let old = ModelContext(
            try ModelContainer(
                for: Schema(versionedSchema: NotesV1.self), configurations: ModelConfiguration(url: directory.store())))
        #expect(try old.fetchCount(FetchDescriptor<NotesV1.Note>()) == 3)
    }

    @Test func unknownAndBackwardVersionsAreRefused() throws {
        let directory = TemporaryDirectory()
        try versionOneStore(directory)
        #expect(throws: SwiftDataError.unknownSchema) { try open(directory, plan: PlanWithoutV1.self) }
        _ = try open(directory, plan: NotesPlan.self)
        #expect(throws: SwiftDataError.backwardMigration) {
            try ModelContainer(
                for: Schema(versionedSchema: NotesV1.self), migrationPlan: NotesPlan.self,
                configurations: ModelConfiguration(url: directory.store()))
        }
    }
}
