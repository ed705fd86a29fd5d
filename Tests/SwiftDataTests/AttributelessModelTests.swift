import SwiftData
import Testing

/// A folder is nothing but its notes.
@Model final class Folder {
    var notes: [FolderNote] = []
    init() {}
}

@Model final class FolderNote {
    var text: String
    var folder: Folder?
    init(text: String) { self.text = text }
}

/// A model with only an inverse-less to-many relationship.
@Model final class Shelf {
    var items: [FolderNote] = []
    init() {}
}

/// Models without stored attributes insert, save, fetch and delete like any other.
@Suite struct AttributelessModelTests {
    @Test func aFolderOfNotesIsSavedFetchedAndDeleted() throws {
        let container = try ModelContainer(
            for: Folder.self, Shelf.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let folder = Folder()
        folder.notes = [FolderNote(text: "a"), FolderNote(text: "b")]
        let shelf = Shelf()
        shelf.items = folder.notes
        context.insert(folder)
        context.insert(shelf)
        context.insert(Folder())
        try context.save()

        let other = ModelContext(container)
        let folders = try other.fetch(FetchDescriptor<Folder>())
        #expect(folders.count == 2)
        #expect(folders.map { $0.notes.map(\.text).sorted() }.sorted { $0.count < $1.count } == [[], ["a", "b"]])
        #expect(try other.fetch(FetchDescriptor<Shelf>()).first?.items.map(\.text) == ["a", "b"])
        let full = #Predicate<Folder> { !$0.notes.isEmpty }
        #expect(try other.fetchCount(FetchDescriptor(predicate: full)) == 1)

        for folder in folders { other.delete(folder) }
        try other.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Folder>()) == 0)
        #expect(try ModelContext(container).fetch(FetchDescriptor<FolderNote>()).allSatisfy { $0.folder == nil })
    }
}
