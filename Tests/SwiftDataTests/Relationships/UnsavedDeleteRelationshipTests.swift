import Foundation
import SwiftData
import Testing

/// Two cases the relationship differential test found: a model deleted before it was ever saved leaves every
/// relationship that held it (the save then failed with "a relationship refers to a ... that is not saved"), and a
/// rollback gives a deleted model back the relationships it had, also those its inverses changed meanwhile.
@Suite struct UnsavedDeleteRelationshipTests {
    static func context(_ store: StoreKind) throws -> ModelContext {
        ModelContext(
            try store.makeContainer(
                RHub.self, RCascaded.self, RNullified.self, RDenied.self, RTag.self, RBadge.self, RLoose.self))
    }

    @Test(arguments: StoreKind.all) func aNewModelDeletedBeforeTheSaveLeavesItsInverses(store: StoreKind) throws {
        let context = try Self.context(store)
        let first = RHub(number: 1)
        let second = RHub(number: 2)
        context.insert(first)
        context.insert(second)
        try context.save()

        let child = RCascaded(number: 3)
        child.hub = first
        second.cascaded = [child]
        let tag = RTag(number: 4)
        context.insert(tag)
        first.tags.append(tag)
        context.delete(child)
        context.delete(tag)
        #expect(first.cascaded.isEmpty && second.cascaded.isEmpty)
        #expect(first.tags.isEmpty)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<RCascaded>()) == 0)
    }

    @Test(arguments: StoreKind.all) func aNewModelDeletedBeforeTheSaveLeavesReferencesWithoutInverse(
        store: StoreKind
    ) throws {
        let context = try Self.context(store)
        let hub = RHub(number: 1)
        context.insert(hub)
        try context.save()
        let loose = RLoose(number: 2)
        hub.loose.append(loose)
        hub.favorite = loose
        context.delete(loose)
        #expect(hub.loose.isEmpty && hub.favorite == nil)
        try context.save()
        let reread = try #require(try ModelContext(context.container).fetch(FetchDescriptor<RHub>()).first)
        #expect(reread.loose.isEmpty && reread.favorite == nil)
    }

    @Test(arguments: StoreKind.all) func rollbackRestoresTheRelationshipsOfADeletedModel(store: StoreKind) throws {
        let context = try Self.context(store)
        let hub = RHub(number: 1)
        let badge = RBadge(number: 2)
        let member = RNullified(number: 3)
        context.insert(hub)
        badge.holder = hub
        hub.nullified = [member]
        try context.save()

        context.delete(hub)
        member.hub = nil
        badge.holder = nil
        context.rollback()
        #expect(hub.badge === badge && badge.holder === hub)
        #expect(hub.nullified?.map(\.number) == [3] && member.hub === hub)
    }
}
