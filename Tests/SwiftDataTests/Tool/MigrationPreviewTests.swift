import Foundation
import PostgresTestSupport
import SwiftData
import Testing

/// `ModelContainer.migrationPreview(for:migrationPlan:configurations:)` and
/// `ModelContainer.migrateCopy(for:migrationPlan:configuration:)` on both stores: what opening a store would do,
/// without changing it, and the real migration run on a copy.
@Suite struct MigrationPreviewTests {
    /// A store of `NotesV1` with the given titles.
    func notes(_ kind: StoreKind, titles: [String]) throws -> StoreLocation {
        let location = kind.location()
        let context = ModelContext(try location.container(Schema(versionedSchema: NotesV1.self)))
        for title in titles { context.insert(NotesV1.Note(title: title, body: "body of \(title)")) }
        try context.save()
        return location
    }

    /// What the store holds, as `swiftdata dump` writes it, to tell that nothing changed it.
    func contents(_ location: StoreLocation) throws -> String {
        let dump = swiftdata("dump", try location.toolAddress())
        return dump.output + swiftdata("inspect", try location.toolAddress()).output
    }

    @Test(arguments: StoreKind.all) func previewListsTheStagesAndChangesWithoutTouchingTheStore(_ kind: StoreKind)
        throws
    {
        let location = try notes(kind, titles: ["a", "b", "c"])
        let before = try contents(location)
        let preview = try #require(
            try ModelContainer.migrationPreview(
                for: Schema(versionedSchema: NotesV2.self), migrationPlan: NotesPlan.self,
                configurations: [location.configuration()]
            ).first)
        #expect(preview.storeVersion == Schema.Version(1, 0, 0))
        #expect(preview.targetVersion == Schema.Version(2, 0, 0))
        #expect(preview.failure == nil)
        #expect(preview.changesStore)
        let stage = try #require(preview.stages.first)
        #expect(preview.stages.count == 1)
        #expect(stage.name == "stage 1 (1.0.0 to 2.0.0)")
        #expect(stage.runsCustomCode)
        let change = try #require(stage.changes.first)
        #expect(change.entity == "Note")
        #expect(change.addedColumns == ["words"])
        #expect(change.renamedColumns.map { "\($0.from)>\($0.to)" } == ["body>text"])
        #expect(change.droppedColumns.isEmpty)
        #expect(change.rowsAffected == 3)
        #expect(change.isRebuilt == (kind == .sqlite))
        #expect(change.rebuildsIndexes)
        #expect(preview.description.contains("Note: add words; rename body to text"), "\(preview.description)")
        #expect(try contents(location) == before)
        // The store still opens as it was: nothing migrated.
        let context = ModelContext(try location.container(Schema(versionedSchema: NotesV1.self)))
        #expect(try context.fetchCount(FetchDescriptor<NotesV1.Note>()) == 3)
    }

    @Test(arguments: StoreKind.all) func previewOfACurrentStoreOrNoStore(_ kind: StoreKind) throws {
        let location = try notes(kind, titles: ["a"])
        let current = try ModelContainer.migrationPreview(
            for: Schema(versionedSchema: NotesV1.self), configurations: [location.configuration()])
        #expect(current.first?.changesStore == false)
        #expect(current.first?.description.hasSuffix("nothing to change") == true)
        let fresh = try ModelContainer.migrationPreview(
            for: Schema(versionedSchema: NotesV1.self), configurations: [kind.location().configuration()])
        #expect(fresh.first?.storeVersion == nil)
        #expect(fresh.first?.stages.first?.changes.map(\.description) == ["create Note (title, body)"])
    }

    /// A change that cannot be lightweight: the preview says which step fails and why; the copy's migration
    /// throws the error opening the store would, naming the model and property.
    @Test(arguments: StoreKind.all) func failuresNameTheStageAndModel(_ kind: StoreKind) throws {
        let location = kind.location()
        let context = ModelContext(try location.container(Shop.Item.self))
        context.insert(Shop.Item(name: "pen", price: 2))
        try context.save()
        let before = try contents(location)
        let schema = Schema([ShopRequiredWithoutDefault.Item.self])
        let preview = try ModelContainer.migrationPreview(for: schema, configurations: [location.configuration()])
        let failure = try #require(preview.first?.failure)
        #expect(failure.hasPrefix("lightweight migration to 1.0.0 would fail: "), "\(failure)")
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer.migrateCopy(for: schema, configuration: location.configuration())
        }
        #expect(error?.modelName == "Item")
        #expect(error?.propertyName == "note")
        #expect(try contents(location) == before)
    }

    /// The real migration, custom stages included, runs on a copy: a stage that throws is reported by its name, a
    /// plan that works leaves the store as it was all the same.
    @Test(arguments: StoreKind.all) func migrateCopyRunsTheStagesOnACopy(_ kind: StoreKind) throws {
        let location = try notes(kind, titles: ["a", "a", "b"])
        let before = try contents(location)
        let schema = Schema(versionedSchema: NotesV2.self)
        try ModelContainer.migrateCopy(
            for: schema, migrationPlan: NotesPlan.self, configuration: location.configuration())
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer.migrateCopy(
                for: schema, migrationPlan: FailingNotesPlan.self, configuration: location.configuration())
        }
        #expect(
            error?.reason?.contains("migration stage 1 (1.0.0 to 2.0.0) failed") == true, "\(String(describing: error))"
        )
        #expect(try contents(location) == before)
        let context = ModelContext(try location.container(Schema(versionedSchema: NotesV1.self)))
        #expect(try context.fetchCount(FetchDescriptor<NotesV1.Note>()) == 3)
    }
}
