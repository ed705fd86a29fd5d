import Foundation
import SwiftData
import Testing

/// A model whose unique attribute is also kept outside the rows.
@Model final class Scan {
    @Attribute(.unique, .externalStorage) var image: Data
    var label: String

    init(image: Data, label: String) {
        self.image = image
        self.label = label
    }
}

/// A model with a compound unique constraint that includes an externally stored attribute.
@Model final class Fingerprint {
    #Unique<Fingerprint>([\.owner, \.print])
    var owner: String
    @Attribute(.externalStorage) var print: Data

    init(owner: String, print: Data) {
        self.owner = owner
        self.print = print
    }
}

/// A model whose unique attribute is data kept in its row, and another attribute kept outside it.
@Model final class Thumbnail {
    @Attribute(.unique) var digest: Data
    @Attribute(.externalStorage) var pixels: Data

    init(digest: Data, pixels: Data) {
        self.digest = digest
        self.pixels = pixels
    }
}

/// A unique attribute kept outside the rows (`.externalStorage`) cannot be matched: a store's row holds a reference
/// to the value (a file name on SQLite, a row of the external data table on PostgreSQL), so an insert with the same
/// value never found the stored model and saved a duplicate. The container refuses such a schema, naming the model
/// and the property and what to drop. Before, it opened, and the duplicate was saved.
@Suite struct UniqueExternalStorageTests {
    /// Whether `error` is the refusal of `property` of `model`.
    private func isRefusal(_ error: any Error, model: String, property: String) -> Bool {
        guard let error = error as? SwiftDataError else { return false }
        return error == .loadIssueModelContainer && error.modelName == model && error.propertyName == property
            && error.reason?.contains(".externalStorage") == true && error.suggestion?.contains(".unique") == true
    }

    @Test(arguments: StoreKind.all) func aUniqueExternalAttributeIsRefused(store: StoreKind) throws {
        let location = store.location()
        #expect {
            _ = try location.container(Scan.self)
        } throws: { error in
            isRefusal(error, model: "Scan", property: "image")
        }
    }

    @Test func aUniqueExternalAttributeIsRefusedInMemoryToo() throws {
        #expect {
            _ = try StoreKind.sqlite.makeContainer(Scan.self)
        } throws: { error in
            isRefusal(error, model: "Scan", property: "image")
        }
    }

    @Test(arguments: StoreKind.all) func aCompoundConstraintWithAnExternalAttributeIsRefused(store: StoreKind) throws {
        let location = store.location()
        #expect {
            _ = try location.container(Fingerprint.self)
        } throws: { error in
            isRefusal(error, model: "Fingerprint", property: "print")
        }
    }

    /// A schema built by hand is checked the same way.
    @Test func aHandBuiltEntityIsRefused() throws {
        let entity = Schema.Entity(
            "Photo",
            properties: Schema.Attribute(name: "image", options: [.externalStorage], valueType: Data.self),
            Schema.Attribute(name: "label", valueType: String.self))
        entity.uniquenessConstraints = [["label", "image"]]
        #expect {
            _ = try ModelContainer(
                for: Schema(entity), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        } throws: { error in
            isRefusal(error, model: "Photo", property: "image")
        }
    }

    /// A unique attribute kept in the row beside an external one still finds its stored model.
    @Test(arguments: StoreKind.all) func aUniqueAttributeBesideAnExternalOneStillUpserts(store: StoreKind) throws {
        let location = store.location()
        let container = try location.container(Thumbnail.self)
        let context = ModelContext(container)
        let pixels = Data(repeating: 7, count: 4096)
        let first = Thumbnail(digest: Data([1, 2]), pixels: pixels)
        context.insert(first)
        try context.save()
        let second = Thumbnail(digest: Data([1, 2]), pixels: Data(repeating: 8, count: 4096))
        context.insert(second)
        try context.save()
        #expect(second.persistentModelID == first.persistentModelID)
        let stored = try ModelContext(container).fetch(FetchDescriptor<Thumbnail>())
        #expect(stored.map(\.pixels) == [Data(repeating: 8, count: 4096)])
    }
}
