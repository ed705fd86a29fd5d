import Foundation
import SwiftData
import Testing

/// A model with an optional attribute, stored beside a `Fuse` that runs code while a save encodes it.
@Model final class TaggedDraft {
    var title: String
    var tag: String?
    @Attribute(.transformable(by: FuseTransformer.self)) var fuse: Fuse

    init(title: String, tag: String? = nil, fuse: Fuse) {
        self.title = title
        self.tag = tag
        self.fuse = fuse
    }
}

/// A `delete(model:where:)` called by code a save's writing runs (a value transformer here, as an `Encodable`
/// attribute's encoding or an observer they set off would be) that fails after a failed save reaches the caller with
/// the save's own error.
@Suite struct SaveWriteCallsTests {
    /// A failed save whose `delete(model:where:)`, called while it wrote, fails too (its predicate unwraps a `nil` of
    /// the new model): the caller gets the save's error, its code kept, with the delete's failure in its reason.
    /// Before, the delete's error was only logged.
    @Test(arguments: StoreKind.all) func aBatchDeleteThatFailsAfterAFailedSaveReachesTheCaller(store: StoreKind) throws
    {
        let container = try store.makeContainer(TaggedDraft.self)
        let context = ModelContext(container)
        let fuse = Fuse("fails")
        fuse.fails = true
        var calledWithoutError = false
        fuse.action = {
            do {
                try context.delete(model: TaggedDraft.self, where: #Predicate { $0.tag! == "x" })
                calledWithoutError = true
            } catch {}
        }
        context.insert(TaggedDraft(title: "new", fuse: fuse))
        var thrown: (any Error)?
        do { try context.save() } catch { thrown = error }
        #expect(fuse.runs == 1)
        #expect(calledWithoutError, "the batch delete waited for the save")
        let error = try #require(thrown as? SwiftDataError)
        let saveAlone = try Self.errorOfFailingSave(store)
        #expect(error == saveAlone, "the save's own error code")
        let reason = try #require(error.reason)
        #expect(reason.hasPrefix(try #require(saveAlone.reason)), "the save's own reason comes first")
        #expect(reason.contains("a delete(model:where:) called while the save wrote its rows failed too"))
        #expect(context.insertedModelsArray.count == 1, "the save's changes stay pending")
    }

    /// The error of the same failing save, with no batch delete.
    private static func errorOfFailingSave(_ store: StoreKind) throws -> SwiftDataError {
        let context = ModelContext(try store.makeContainer(TaggedDraft.self))
        let fuse = Fuse("fails")
        fuse.fails = true
        context.insert(TaggedDraft(title: "new", fuse: fuse))
        do {
            try context.save()
        } catch let error as SwiftDataError {
            return error
        }
        throw SwiftDataError.storeError.with(reason: "the save did not fail")
    }
}
