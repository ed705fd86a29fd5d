import Foundation
import SwiftData
import Testing

@testable import ExampleModels
@testable import SwiftDataCore
@testable import SwiftDataSQLite

/// Attribute options: transformers, encoded values, ephemeral values, external storage and the ones recorded only.
@Suite struct AttributeOptionTests {
    @Test func transformableAndCodableValuesRoundTrip() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Palette.self, in: directory))
            let palette = Palette(name: "sunset", hue: Hue(degrees: 12.5))
            palette.accent = Hue(degrees: 300)
            palette.swatches = ["#ff0000", "#ffaa00"]
            context.insert(palette)
            context.insert(Palette(name: "plain", hue: Hue(degrees: 0)))
            try context.save()
        }
        let context = ModelContext(try makeContainer(Palette.self, in: directory))
        let palettes = try context.fetch(FetchDescriptor<Palette>(sortBy: [SortDescriptor(\.name)]))
        #expect(palettes.map(\.hue) == [Hue(degrees: 0), Hue(degrees: 12.5)])
        #expect(palettes.map(\.accent) == [nil, Hue(degrees: 300)])
        #expect(palettes[1].swatches == ["#ff0000", "#ffaa00"])
        #expect(
            try sqlite(directory.store(), "SELECT typeof(hue), typeof(swatches) FROM Palette LIMIT 1") == "blob|blob\n")
    }

    @Test func ephemeralValuesAreTrackedButNeverStored() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Palette.self, in: directory)
        let context = ModelContext(container)
        let palette = Palette(name: "draft", hue: Hue(degrees: 1))
        context.insert(palette)
        try context.save()
        let fired = Flag()
        withObservationTracking {
            _ = palette.draft
        } onChange: {
            fired.set()
        }
        palette.draft = "edited"
        #expect(fired.isSet)
        #expect(palette.hasChanges)
        try context.save()
        #expect(!(try sqlite(directory.store(), "SELECT name FROM pragma_table_info('Palette')")).contains("draft"))
        let reloaded = try #require(try ModelContext(container).fetch(FetchDescriptor<Palette>()).first)
        #expect(reloaded.draft == "unsaved", "a loaded model starts with the default")
    }

    @Test func optionsAreRecorded() throws {
        let entity = try #require(Schema([Palette.self]).entitiesByName["Palette"])
        let note = try #require(entity.attributesByName["note"])
        #expect(note.options == [.preserveValueOnDeletion, .spotlight, .allowsCloudEncryption])
        #expect(note.hashModifier == "v2")
        #expect(entity.attributesByName["hue"]?.isTransformable == true)
        #expect(entity.attributesByName["swatches"]?.isCodable == true)
    }

    @Test func externalValuesLiveInFilesBesideTheStore() throws {
        let directory = TemporaryDirectory()
        let files = URL(fileURLWithPath: directory.store().path + ".external")
        let big = Data(repeating: 7, count: 100_000)
        do {
            let context = ModelContext(try makeContainer(Palette.self, in: directory))
            let palette = Palette(name: "photo", hue: Hue(degrees: 1))
            palette.thumbnail = big
            context.insert(palette)
            try context.save()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: files.path)
        #expect(names.count == 1, "the thumbnail is a file; an empty optional needs none")
        #expect(try sqlite(directory.store(), "SELECT thumbnail, original IS NULL FROM Palette") == "\(names[0])|1\n")
        #expect(try Data(contentsOf: files.appendingPathComponent(names[0])) == big)
        let context = ModelContext(try makeContainer(Palette.self, in: directory))
        #expect(try context.fetch(FetchDescriptor<Palette>()).first?.thumbnail == big)
    }

    @Test func aFetchReadsNoExternalValueUntilOneIsUsed() throws {
        let directory = TemporaryDirectory()
        let container = try makeContainer(Palette.self, in: directory)
        do {
            let context = ModelContext(container)
            for index in 0..<20 {
                let palette = Palette(name: "p\(index)", hue: Hue(degrees: Double(index)))
                palette.thumbnail = Data([UInt8(index)])
                context.insert(palette)
            }
            try context.save()
        }
        let store = try #require(container.stores.first as? SQLiteStore)
        let before = store.external?.reads.load(ordering: .relaxed) ?? -1
        let context = ModelContext(container)
        let palettes = try context.fetch(FetchDescriptor<Palette>(sortBy: [SortDescriptor(\.name)]))
        #expect(palettes.count == 20)
        #expect(store.external?.reads.load(ordering: .relaxed) == before, "no file was read by the fetch")
        #expect(palettes[3].thumbnail == Data([11]), "sorted by name: p0, p1, p10, p11")
        #expect(store.external?.reads.load(ordering: .relaxed) == before + 1)
    }

    @Test func replacedAndDeletedValuesLeaveNoFiles() throws {
        let directory = TemporaryDirectory()
        let files = URL(fileURLWithPath: directory.store().path + ".external")
        let context = ModelContext(try makeContainer(Palette.self, in: directory))
        let palette = Palette(name: "p", hue: Hue(degrees: 1))
        palette.thumbnail = Data([1])
        context.insert(palette)
        try context.save()
        palette.thumbnail = Data([2])
        try context.save()
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).count == 1)
        context.delete(palette)
        try context.save()
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).isEmpty)
    }

    @Test func aFailedSaveLeavesNoFiles() throws {
        let directory = TemporaryDirectory()
        let files = URL(fileURLWithPath: directory.store().path + ".external")
        let container = try makeContainer(Palette.self, Owner.self, in: directory)
        let context = ModelContext(container)
        let owner = Owner(name: "o")
        context.insert(owner)
        context.insert(Pet(name: "p", owner: owner))
        try context.save()
        // One save: a new file is written, then the required relationship makes the save fail.
        let palette = Palette(name: "p", hue: Hue(degrees: 1))
        palette.thumbnail = Data([9])
        context.insert(palette)
        context.delete(owner)
        #expect(throws: SwiftDataError.modelValidationFailure) { try context.save() }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: files.path))?.isEmpty ?? true)
    }

    @Test func filesACrashLeftBehindGoWhenTheStoreOpens() throws {
        let directory = TemporaryDirectory()
        let files = URL(fileURLWithPath: directory.store().path + ".external")
        do {
            let context = ModelContext(try makeContainer(Palette.self, in: directory))
            let palette = Palette(name: "p", hue: Hue(degrees: 1))
            palette.thumbnail = Data([1])
            context.insert(palette)
            try context.save()
        }
        try Data([0xDE, 0xAD]).write(to: files.appendingPathComponent("orphan"))
        _ = try makeContainer(Palette.self, in: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: files.path)
        #expect(names.count == 1 && !names.contains("orphan"))
    }

    @Test func movingValuesToExternalStorageIsALightweightMigration() throws {
        let directory = TemporaryDirectory()
        let files = URL(fileURLWithPath: directory.store().path + ".external")
        do {
            let context = ModelContext(try makeContainer(InlinePalette.Palette.self, in: directory))
            let palette = InlinePalette.Palette(name: "p", hue: Hue(degrees: 1))
            palette.thumbnail = Data([4, 5, 6])
            context.insert(palette)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Palette.self, in: directory))
        #expect(try context.fetch(FetchDescriptor<Palette>()).first?.thumbnail == Data([4, 5, 6]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).count == 1)
        // And back.
        let inline = ModelContext(try makeContainer(InlinePalette.Palette.self, in: directory))
        #expect(try inline.fetch(FetchDescriptor<InlinePalette.Palette>()).first?.thumbnail == Data([4, 5, 6]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.path).isEmpty)
    }

    @Test func propertiesToFetchLoadsTheRestOnFirstUse() throws {
        let container = try makeMemoryContainer(Restaurant.self)
        do {
            let context = ModelContext(container)
            for index in 0..<5 {
                context.insert(
                    Restaurant(name: "r\(index)", type: "t\(index)", location: "l", phone: "p", description: "d"))
            }
            try context.save()
        }
        let context = ModelContext(container)
        let log = StatementLog(container)
        var descriptor = FetchDescriptor<Restaurant>(sortBy: [SortDescriptor(\.name)])
        descriptor.propertiesToFetch = [\.name]
        let restaurants = try context.fetch(descriptor)
        #expect(log.selects.first?.hasPrefix(#"SELECT "_pk", "name" FROM "Restaurant""#) == true, "\(log.selects)")
        #expect(restaurants.map(\.name) == ["r0", "r1", "r2", "r3", "r4"])
        log.reset()
        #expect(restaurants.map(\.type) == ["t0", "t1", "t2", "t3", "t4"])
        #expect(log.selects.count == 1, "the other attributes load together: \(log.selects)")
    }
}
