import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// Migration plans run their stages in order when a container opens a store of an older version.
@Suite struct VersionedMigrationTests {
    /// A store written by version 1: two notes titled "a" (to merge) and one titled "b".
    func versionOneStore(_ directory: StoreLocation) throws {
        let container = try directory.container(Schema(versionedSchema: NotesV1.self))
        let context = ModelContext(container)
        context.insert(NotesV1.Note(title: "a", body: "one two"))
        context.insert(NotesV1.Note(title: "a", body: "three"))
        context.insert(NotesV1.Note(title: "b", body: "four five six"))
        try context.save()
    }

    func open(_ directory: StoreLocation, plan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        try directory.container(Schema(versionedSchema: NotesV2.self), migrationPlan: plan)
    }

    @Test(arguments: StoreKind.all) func customStageSeesOldThenNewModels(store: StoreKind) throws {
        let directory = store.location()
        try versionOneStore(directory)
        let context = ModelContext(try open(directory, plan: NotesPlan.self))
        let notes = try context.fetch(FetchDescriptor<NotesV2.Note>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["a", "b"])
        #expect(notes.map(\.text) == ["one two\nthree", "four five six"])
        #expect(notes.map(\.words) == [3, 3])
        if store == .sqlite {
            #expect(
                try sqlite(directory.store(), "SELECT value FROM _swiftdata_metadata WHERE key = 'schema_version'")
                    == "2.0.0\n")
        }
        // Opening again does nothing more.
        let again = ModelContext(try open(directory, plan: NotesPlan.self))
        #expect(try again.fetchCount(FetchDescriptor<NotesV2.Note>()) == 2)
    }

    @Test(arguments: StoreKind.all) func failingStageLeavesTheStoreAsItWas(store: StoreKind) throws {
        let directory = store.location()
        try versionOneStore(directory)
        let before = store == .sqlite ? try Data(contentsOf: directory.store()) : nil
        #expect {
            try open(directory, plan: FailingNotesPlan.self)
        } throws: { error in
            ((error as? SwiftDataError)?.reason ?? "").contains("migration stage 1 (1.0.0 to 2.0.0) failed")
        }
        if store == .sqlite { #expect(try Data(contentsOf: directory.store()) == before) }
        let old = ModelContext(try directory.container(Schema(versionedSchema: NotesV1.self)))
        #expect(try old.fetchCount(FetchDescriptor<NotesV1.Note>()) == 3)
    }

    @Test(arguments: StoreKind.all) func unknownAndBackwardVersionsAreRefused(store: StoreKind) throws {
        let directory = store.location()
        try versionOneStore(directory)
        #expect(throws: SwiftDataError.unknownSchema) { try open(directory, plan: PlanWithoutV1.self) }
        _ = try open(directory, plan: NotesPlan.self)
        #expect(throws: SwiftDataError.backwardMigration) {
            try directory.container(Schema(versionedSchema: NotesV1.self), migrationPlan: NotesPlan.self)
        }
    }
}
