import Foundation
import SwiftData
import Testing

/// Code that runs while a save writes its rows (a value transformer or a custom `Encodable` attribute whose encoding
/// touches models, an observer the encoding sets off) may change, insert or delete models. The save writes the values
/// it read before such a change, so the change must stay pending for the next save, never be marked saved.
@Suite struct SaveChangesDuringWriteTests {
    /// A new model whose attribute, read earlier by the same write, changes while its next attribute is encoded.
    @Test(arguments: StoreKind.all) func aNewModelChangedWhileItIsWrittenKeepsTheChange(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let fuse = Fuse("new")
        let draft = Draft(title: "before", fuse: fuse)
        fuse.action = { draft.title = "changed while encoding" }
        context.insert(draft)
        try context.save()
        #expect(fuse.runs == 1, "the save encodes the fuse once")
        #expect(try Draft.storedTitles(container) == ["before"], "the row has the title read before the encoding")
        #expect(context.hasChanges, "the title changed after the save read it: it is not saved")
        #expect(context.changedModelsArray.map(\.persistentModelID) == [draft.persistentModelID])

        try context.save()
        #expect(!context.hasChanges)
        #expect(try Draft.storedTitles(container) == ["changed while encoding"])
    }

    /// A saved model whose changed attribute changes again while its next changed attribute is encoded.
    @Test(arguments: StoreKind.all) func aSavedModelChangedAgainWhileItIsWrittenKeepsTheChange(store: StoreKind) throws
    {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let draft = Draft(title: "first", fuse: Fuse("first"))
        context.insert(draft)
        try context.save()

        let fuse = Fuse("second")
        fuse.action = { draft.title = "changed while encoding" }
        draft.title = "changed before the save"
        draft.fuse = fuse
        try context.save()
        #expect(fuse.runs == 1)
        #expect(try Draft.storedTitles(container) == ["changed before the save"])
        #expect(context.changedModelsArray.map(\.persistentModelID) == [draft.persistentModelID])

        try context.save()
        #expect(!context.hasChanges)
        #expect(try Draft.storedTitles(container) == ["changed while encoding"])
    }

    /// A saved model the save does not write changes, a model is inserted and another deleted, while the save
    /// encodes: all three stay pending and the next save writes them.
    @Test(arguments: StoreKind.all) func otherModelsChangedInsertedOrDeletedWhileTheSaveWritesAreKept(
        store: StoreKind
    ) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let bystander = Draft(title: "bystander", fuse: Fuse("b"))
        let doomed = Draft(title: "doomed", fuse: Fuse("d"))
        context.insert(bystander)
        context.insert(doomed)
        try context.save()

        let fuse = Fuse("new")
        fuse.action = {
            bystander.title = "bystander changed while encoding"
            context.insert(Draft(title: "inserted while encoding", fuse: Fuse("i")))
            context.delete(doomed)
        }
        context.insert(Draft(title: "new", fuse: fuse))
        try context.save()
        #expect(fuse.runs == 1)
        #expect(try Draft.storedTitles(container) == ["bystander", "doomed", "new"])
        #expect(context.changedModelsArray.map(\.persistentModelID) == [bystander.persistentModelID])
        #expect(context.insertedModelsArray.count == 1)
        #expect(context.deletedModelsArray.map(\.persistentModelID) == [doomed.persistentModelID])

        try context.save()
        #expect(!context.hasChanges)
        #expect(
            try Draft.storedTitles(container) == ["bystander changed while encoding", "inserted while encoding", "new"])
    }

    /// A save whose writing fails keeps every change pending, those made while it wrote included.
    @Test(arguments: StoreKind.all) func aFailedSaveKeepsTheChangesMadeWhileItWrote(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let bystander = Draft(title: "bystander", fuse: Fuse("b"))
        context.insert(bystander)
        try context.save()

        let fuse = Fuse("fails")
        fuse.fails = true
        fuse.action = { bystander.title = "changed while encoding" }
        let failing = Draft(title: "failing", fuse: fuse)
        context.insert(failing)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(context.changedModelsArray.map(\.persistentModelID) == [bystander.persistentModelID])
        #expect(context.insertedModelsArray.count == 1)

        fuse.fails = false
        try context.save()
        #expect(!context.hasChanges)
        #expect(try Draft.storedTitles(container) == ["changed while encoding", "failing"])
    }

    /// Apple's `willSave` announces a save and `didSave` says it is done: a `willSave` observer that undoes every
    /// pending change still gets its `didSave`, with no identifiers.
    @Test(arguments: StoreKind.all) func aWillSaveThatUndoesEveryChangeIsFollowedByDidSave(store: StoreKind) throws {
        let container = try store.makeContainer(Draft.self)
        let context = ModelContext(container)
        let draft = Draft(title: "dropped", fuse: Fuse("x"))
        context.insert(draft)
        var heard: [String] = []
        var identifiers: [PersistentIdentifier] = []
        let observer = SaveObserver(context) {
            heard.append("willSave")
            context.delete(draft)
        } didSave: { notification in
            heard.append("didSave")
            for key in [ModelContext.NotificationKey.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers] {
                identifiers += notification.userInfo?[key.rawValue] as? [PersistentIdentifier] ?? []
            }
        }
        try context.save()
        withExtendedLifetime(observer) {}
        #expect(heard == ["willSave", "didSave"])
        #expect(identifiers.isEmpty)
        #expect(!context.hasChanges)
        #expect(try Draft.storedTitles(container).isEmpty)
    }
}

/// A model whose second attribute is stored through a value transformer that runs code while a save encodes it.
@Model final class Draft {
    var title: String
    @Attribute(.transformable(by: FuseTransformer.self)) var fuse: Fuse
    var note: String = ""

    init(title: String, fuse: Fuse) {
        self.title = title
        self.fuse = fuse
    }
}

extension Draft {
    /// The titles of the drafts stored in `container`, read by a new context, in order.
    static func storedTitles(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<Draft>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }
}

/// A value that runs its action the first time it is encoded, and can make its encoding fail.
final class Fuse {
    let label: String
    var action: (() -> Void)?
    var fails = false
    private(set) var runs = 0

    init(_ label: String) { self.label = label }

    /// Runs the action once; returns whether encoding may go on.
    func fire() -> Bool {
        if let action {
            self.action = nil
            runs += 1
            action()
        }
        return !fails
    }
}

/// Stores a `Fuse` as its label, firing it first; a failing fuse has no stored form, which fails the save.
final class FuseTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        guard let fuse = value as? Fuse, fuse.fire() else { return nil }
        return Data(fuse.label.utf8)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return Fuse(String(decoding: data, as: UTF8.self))
    }
}
