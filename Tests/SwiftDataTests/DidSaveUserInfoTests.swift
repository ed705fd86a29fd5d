import Foundation
import SwiftData
import Testing

/// `didSave`'s `userInfo` is filled from one dictionary made once with its keys: each save's must hold exactly its own
/// identifiers and history token, under Apple's keys, however many saves came before.
@Suite struct DidSaveUserInfoTests {
    @Test(arguments: StoreKind.all) func eachSaveTellsItsOwnIdentifiersAndToken(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        var heard: [[AnyHashable: Any]] = []
        let observer = SaveObserver(context) {
        } didSave: {
            heard.append($0.userInfo ?? [:])
        }
        let first = User(name: "first", email: "")
        let second = User(name: "second", email: "")
        context.insert(first)
        context.insert(second)
        try context.save()
        first.email = "changed"
        try context.save()
        context.delete(second)
        try context.save()
        withExtendedLifetime(observer) {}

        typealias Key = ModelContext.NotificationKey
        func identifiers(_ info: [AnyHashable: Any], _ key: Key) -> [PersistentIdentifier]? {
            info[key.rawValue] as? [PersistentIdentifier]
        }
        try #require(heard.count == 3)
        let expected: [([PersistentIdentifier], [PersistentIdentifier], [PersistentIdentifier])] = [
            ([first.persistentModelID, second.persistentModelID], [], []),
            ([], [first.persistentModelID], []),
            ([], [], [second.persistentModelID]),
        ]
        var tokens: [DefaultHistoryToken] = []
        for (info, (inserted, updated, deleted)) in zip(heard, expected) {
            #expect(
                Set(info.keys.compactMap { $0.base as? String })
                    == Set(
                        [Key.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers, .historyTokens].map(
                            \.rawValue)))
            #expect(identifiers(info, .insertedIdentifiers) == inserted)
            #expect(identifiers(info, .updatedIdentifiers) == updated)
            #expect(identifiers(info, .deletedIdentifiers) == deleted)
            tokens += [info[Key.historyTokens.rawValue] as? DefaultHistoryToken].compactMap { $0 }
        }
        #expect(tokens.count == 3)
        #expect(tokens == tokens.sorted() && Set(tokens).count == 3, "each save has its own, later token")
    }

    /// What an observer reads while `didSave` is delivered: the identifiers under each key.
    private struct Heard: Equatable {
        var inserted: [PersistentIdentifier]?
        var updated: [PersistentIdentifier]?
        var deleted: [PersistentIdentifier]?
        var hasToken: Bool

        init(_ info: [AnyHashable: Any]?) {
            typealias Key = ModelContext.NotificationKey
            inserted = info?[Key.insertedIdentifiers.rawValue] as? [PersistentIdentifier]
            updated = info?[Key.updatedIdentifiers.rawValue] as? [PersistentIdentifier]
            deleted = info?[Key.deletedIdentifiers.rawValue] as? [PersistentIdentifier]
            hasToken = info?[Key.historyTokens.rawValue] is DefaultHistoryToken
        }

        init(
            inserted: [PersistentIdentifier] = [], updated: [PersistentIdentifier] = [],
            deleted: [PersistentIdentifier] = []
        ) {
            (self.inserted, self.updated, self.deleted, hasToken) = (inserted, updated, deleted, true)
        }
    }

    /// A context fills the dictionary its last `didSave` posted again when no observer kept it: each save's still
    /// holds only its own identifiers, none left from the save before.
    @Test(arguments: StoreKind.all) func savesObservedWithoutKeepingTellTheirOwnIdentifiers(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        var heard: [Heard] = []
        let observer = SaveObserver(context) {
        } didSave: {
            heard.append(Heard($0.userInfo))
        }
        let first = User(name: "first", email: "")
        let second = User(name: "second", email: "")
        context.insert(first)
        context.insert(second)
        try context.save()
        for round in 0..<3 {
            first.email = "changed \(round)"
            try context.save()
        }
        context.delete(second)
        try context.save()
        withExtendedLifetime(observer) {}

        let changed = Heard(updated: [first.persistentModelID])
        #expect(
            heard == [
                Heard(inserted: [first.persistentModelID, second.persistentModelID]), changed, changed, changed,
                Heard(deleted: [second.persistentModelID]),
            ])
    }

    /// A save made by an observer of `didSave` posts its own `userInfo`; the notification being delivered keeps the
    /// outer save's identifiers, and the saves after both tell theirs.
    @Test(arguments: StoreKind.all) func saveFromDidSaveObserverKeepsBothUserInfos(store: StoreKind) throws {
        let container = try store.makeContainer(User.self)
        let context = ModelContext(container)
        let first = User(name: "first", email: "")
        let second = User(name: "second", email: "")
        context.insert(first)
        context.insert(second)
        try context.save()
        var heard: [Heard] = []
        var outerAfterInner: Heard?
        var nested = false
        let observer = SaveObserver(context) {
        } didSave: { notification in
            heard.append(Heard(notification.userInfo))
            guard !nested else { return }
            nested = true
            second.email = "inner"
            try? context.save()
            outerAfterInner = Heard(notification.userInfo)
        }
        first.email = "outer"
        try context.save()
        first.email = "after"
        try context.save()
        withExtendedLifetime(observer) {}

        let outer = Heard(updated: [first.persistentModelID])
        #expect(outerAfterInner == outer)
        #expect(heard == [outer, Heard(updated: [second.persistentModelID]), outer])
    }
}
