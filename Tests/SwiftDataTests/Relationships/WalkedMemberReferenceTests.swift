import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore

/// A walked member whose only reference is its owner's inverse is done once its row is loaded and its owner linked;
/// one with another reference still resolves that reference as its row loads.
@Suite struct WalkedMemberReferenceTests {
    @Test func aMemberWithASecondReferenceResolvesItAsItsRowLoads() throws {
        let container = try makeMemoryContainer(WalkedCrate.self, WalkedJar.self, WalkedLid.self)
        let writer = ModelContext(container)
        let lids = ["red", "green", "blue"].map { WalkedLid(color: $0) }
        for index in 0..<3 {
            let crate = WalkedCrate(name: "crate \(index)")
            crate.jars = (0..<4).map { WalkedJar(label: "jar \(index)-\($0)", lid: lids[($0 + index) % 3]) }
            writer.insert(crate)
        }
        try writer.save()
        let context = ModelContext(container)
        let crates = try context.fetch(FetchDescriptor<WalkedCrate>(sortBy: [SortDescriptor(\.name)]))
        let jars = crates.map(\.jars)
        let log = StatementLog(container)
        for (index, (crate, members)) in zip(crates, jars).enumerated() {
            #expect(members.map(\.label) == (0..<4).map { "jar \(index)-\($0)" })
            for jar in members {
                #expect(jar.crate === crate)
                #expect(jar._$persistentState.linkedKey(1) == crate._$persistentState.key, "linked, not held")
            }
            // Each jar's lid resolved as its row loaded: the lids load together, in one query, when first read.
            #expect(members.map { $0.lid?.color } == (0..<4).map { ["red", "green", "blue"][($0 + index) % 3] })
        }
        #expect(log.selects.count == 1, "only the lids' rows were read: \(log.selects)")
        let walked = jars.joined()
        #expect(Set(walked.compactMap { $0.lid.map(ObjectIdentifier.init) }).count == 3, "one lid object per row")
        #expect(walked.allSatisfy { !$0.hasChanges })
    }
}

/// An owner whose members refer to another model besides their owner.
@Model final class WalkedCrate {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \WalkedJar.crate) var jars: [WalkedJar] = []

    init(name: String) { self.name = name }
}

/// A member of `WalkedCrate` with a second to-one relationship, to `WalkedLid`.
@Model final class WalkedJar {
    var label: String
    var crate: WalkedCrate?
    var lid: WalkedLid?

    init(label: String, lid: WalkedLid) {
        self.label = label
        self.lid = lid
    }
}

/// The second reference of `WalkedJar`, without an inverse.
@Model final class WalkedLid {
    var color: String

    init(color: String) { self.color = color }
}
