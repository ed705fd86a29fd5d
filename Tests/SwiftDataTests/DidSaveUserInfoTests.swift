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
}
