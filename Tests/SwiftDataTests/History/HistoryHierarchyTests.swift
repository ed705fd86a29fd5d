import Foundation
import SwiftData
import Testing

/// An asset of a model hierarchy whose models the history records.
@Model class HistoryAsset {
    @Attribute(.preserveValueOnDeletion) var name: String
    var size: Int = 0

    init(name: String) { self.name = name }
}

/// A subclass with a preserved value of its own and one that is not preserved.
@Model final class HistoryImage: HistoryAsset {
    @Attribute(.preserveValueOnDeletion) var pixels: Int
    var caption: String?

    init(name: String, pixels: Int) {
        self.pixels = pixels
        super.init(name: name)
    }
}

/// A hierarchy's saves are recorded as any model's: each change names the model's own class, an update names the
/// attributes that changed whichever class declares them, and a deleted subclass model keeps the preserved values of
/// every level.
@Suite struct HistoryHierarchyTests {
    @Test(arguments: StoreKind.all) func aHierarchysChangesNameTheirOwnClass(store: StoreKind) throws {
        let container = try store.makeContainer(HistoryAsset.self, HistoryImage.self)
        let context = ModelContext(container)
        let logo = HistoryAsset(name: "logo")
        let photo = HistoryImage(name: "photo", pixels: 640)
        context.insert(logo)
        context.insert(photo)
        try context.save()
        photo.pixels = 1280
        photo.size = 4096
        try context.save()
        context.delete(photo)
        context.delete(logo)
        try context.save()

        let transactions = try history(container)
        #expect(
            transactions.map { $0.changes.map(\.summary).sorted() } == [
                ["insert HistoryAsset", "insert HistoryImage"], ["update HistoryImage"],
                ["delete HistoryAsset", "delete HistoryImage"],
            ])
        guard case .update(let update as DefaultHistoryUpdate<HistoryImage>) = transactions[1].changes.first else {
            Issue.record("the second transaction is not an update of an image: \(transactions[1].changes)")
            return
        }
        #expect(update.containsAttribute(\.pixels), "the subclass's own attribute")
        #expect(update.containsAttribute(\.size), "an attribute the superclass declares")
        #expect(!update.containsAttribute(\.name) && !update.containsAttribute(\.caption))
        #expect(update.changedPersistentIdentifier == photo.persistentModelID)

        let deletes = transactions[2].changes
        let imageDelete = deletes.lazy.compactMap { change -> DefaultHistoryDelete<HistoryImage>? in
            if case .delete(let delete as DefaultHistoryDelete<HistoryImage>) = change { return delete }
            return nil
        }.first
        let assetDelete = deletes.lazy.compactMap { change -> DefaultHistoryDelete<HistoryAsset>? in
            if case .delete(let delete as DefaultHistoryDelete<HistoryAsset>) = change { return delete }
            return nil
        }.first
        #expect(imageDelete?.tombstone[\.pixels] as? Int == 1280, "the subclass's preserved value")
        #expect(imageDelete?.tombstone[\.name] as? String == "photo", "the superclass's preserved value")
        #expect(imageDelete?.tombstone[\.caption] == nil, "not preserved")
        #expect(imageDelete.map { Array($0.tombstone).count } == 2)
        #expect(assetDelete?.tombstone[\.name] as? String == "logo")
        #expect(assetDelete.map { Array($0.tombstone).count } == 1)
    }

    @Test(arguments: StoreKind.all) func aBatchDeleteOfTheSuperclassRecordsEachModelAsItsClass(store: StoreKind) throws
    {
        let container = try store.makeContainer(HistoryAsset.self, HistoryImage.self)
        let context = ModelContext(container)
        context.insert(HistoryAsset(name: "a"))
        context.insert(HistoryImage(name: "b", pixels: 1))
        context.insert(HistoryImage(name: "c", pixels: 2))
        try context.save()
        try context.delete(model: HistoryAsset.self, where: #Predicate { $0.name != "a" })
        try context.save()

        let deletes = try history(container).last?.changes ?? []
        #expect(deletes.map(\.summary) == ["delete HistoryImage", "delete HistoryImage"])
        let pixels = deletes.compactMap { change -> Int? in
            guard case .delete(let delete as DefaultHistoryDelete<HistoryImage>) = change else { return nil }
            return delete.tombstone[\.pixels] as? Int
        }
        #expect(pixels.sorted() == [1, 2])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<HistoryAsset>()) == 1)
    }
}
