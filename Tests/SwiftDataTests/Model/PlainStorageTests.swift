import Foundation
import SwiftData
import SwiftDataCore
import Testing

/// A model with an attribute of each fixed-size type `@Model` keeps in plain storage, with whether it holds a value
/// in the model's state; `label` keeps optional storage.
@Model final class Gauge {
    var count: Int
    var small: Int8
    var total: Int64
    var unsigned: UInt32
    var big: UInt64
    var level: Double
    var fraction: Float
    var isOn: Bool
    var stamp: Date
    var token: UUID
    var label: String
    var start: Int = 7

    init(seed: Int) {
        count = seed
        small = Int8(seed)
        total = Int64(seed) * 1_000_000_000
        unsigned = UInt32(seed) * 3
        big = UInt64(seed) * 5
        level = Double(seed) + 0.25
        fraction = Float(seed) + 0.5
        isOn = seed % 2 == 1
        stamp = Date(timeIntervalSinceReferenceDate: Double(seed) * 1_000)
        token = UUID(uuid: (UInt8(seed), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
        label = "gauge \(seed)"
        start = seed * 10
    }

    /// Whether every attribute holds what `init(seed:)` gave it.
    func holdsValues(of seed: Int) -> Bool {
        let expected = Gauge(seed: seed)
        return count == expected.count && small == expected.small && total == expected.total
            && unsigned == expected.unsigned && big == expected.big && level == expected.level
            && fraction == expected.fraction && isOn == expected.isOn && stamp == expected.stamp
            && token == expected.token && label == expected.label && start == expected.start
    }
}

/// A root model with plain-stored attributes and a subclass, whose own attributes keep optional storage.
@Model class Meter {
    var reading: Int
    var scale: Double

    init(reading: Int, scale: Double) {
        self.reading = reading
        self.scale = scale
    }
}

@Model final class SmartMeter: Meter {
    var interval: Int
    var ratio: Double = 0.5

    init(reading: Int, scale: Double, interval: Int) {
        self.interval = interval
        super.init(reading: reading, scale: scale)
    }
}

/// Plain storage of fixed-size attributes: an attribute without a value in memory (left out of a fetch, unloaded)
/// loads its stored value when read, never the zero its storage starts with.
@Suite struct PlainStorageTests {
    /// A store with one saved gauge of seed 3, and a gauge fetched from it in a new context.
    private func fetchedGauge(_ store: StoreKind, fetching properties: [PartialKeyPath<Gauge>] = []) throws -> (
        ModelContext, Gauge
    ) {
        let container = try store.makeContainer(Gauge.self)
        let writer = ModelContext(container)
        writer.insert(Gauge(seed: 3))
        try writer.save()
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Gauge>()
        descriptor.propertiesToFetch = properties
        return (context, try #require(try context.fetch(descriptor).first))
    }

    @Test(arguments: StoreKind.all) func unloadedAttributesLoadFromTheStore(store: StoreKind) throws {
        let (context, gauge) = try fetchedGauge(store)
        let properties = Gauge.schemaMetadata.indices
        #expect(properties.allSatisfy { gauge._$get($0).isLoaded }, "a fetch loads every attribute")
        for property in properties { gauge.unload(property) }
        #expect(properties.allSatisfy { !gauge._$get($0).isLoaded })
        #expect(gauge.holdsValues(of: 3))
        #expect(properties.allSatisfy { gauge._$get($0).isLoaded })
        withExtendedLifetime(context) {}
    }

    @Test(arguments: StoreKind.all) func attributesLeftOutOfAFetchLoadWhenRead(store: StoreKind) throws {
        let (context, gauge) = try fetchedGauge(store, fetching: [\.label])
        let start = try #require(Gauge.schemaMetadata.firstIndex { $0.name == "start" })
        let count = try #require(Gauge.schemaMetadata.firstIndex { $0.name == "count" })
        #expect(!gauge._$get(count).isLoaded)
        #expect(!gauge._$get(start).isLoaded, "not the initial value")
        #expect(gauge.start == 30, "the stored value, not the initial one")
        #expect(gauge.holdsValues(of: 3))
        withExtendedLifetime(context) {}
    }

    @Test(arguments: StoreKind.all) func valuesGivenThroughTheFrameworkAreStored(store: StoreKind) throws {
        let (context, gauge) = try fetchedGauge(store)
        let count = try #require(Gauge.schemaMetadata.firstIndex { $0.name == "count" })
        try gauge._$set(count, .loaded(42))
        #expect(gauge.count == 42)
        #expect(throws: SwiftDataError.self) { try gauge._$set(count, .loaded("not a number")) }
        #expect(gauge.count == 42, "a value of the wrong type changes nothing")
        try gauge._$set(count, .notLoaded)
        #expect(gauge.count == 3, "loaded again from the store")
        withExtendedLifetime(context) {}
    }

    @Test(arguments: StoreKind.all) func changesAreSavedAndRolledBack(store: StoreKind) throws {
        let (context, gauge) = try fetchedGauge(store)
        gauge.count += 1
        gauge.level = 9.5
        gauge.isOn.toggle()
        context.rollback()
        #expect(gauge.holdsValues(of: 3))
        gauge.count = 5
        gauge.stamp = Date(timeIntervalSinceReferenceDate: 5)
        try context.save()
        let other = ModelContext(context.container)
        let saved = try #require(try other.fetch(FetchDescriptor<Gauge>()).first)
        #expect(saved.count == 5 && saved.stamp == Date(timeIntervalSinceReferenceDate: 5) && saved.big == 15)
    }

    @Test func undoAndRedoANumericChange() throws {
        let context = ModelContext(try StoreKind.sqlite.makeContainer(Gauge.self))
        context.undoManager = UndoManager()
        let gauge = Gauge(seed: 1)
        context.insert(gauge)
        try context.save()
        gauge.count = 100
        gauge.level = 2.5
        context.undoManager?.undo()
        #expect(gauge.count == 1 && gauge.level == 1.25)
        context.undoManager?.redo()
        #expect(gauge.count == 100 && gauge.level == 2.5)
    }

    /// Undoing a saved delete inserts the model again as a new one, with the values it had: the save writes them.
    @Test func undoingASavedDeleteKeepsTheValues() throws {
        let container = try StoreKind.sqlite.makeContainer(Gauge.self)
        let context = ModelContext(container)
        context.undoManager = UndoManager()
        let gauge = Gauge(seed: 5)
        context.insert(gauge)
        try context.save()
        context.delete(gauge)
        try context.save()
        #expect(gauge.holdsValues(of: 5))
        context.undoManager?.undo()
        try context.save()
        let saved = try ModelContext(container).fetch(FetchDescriptor<Gauge>())
        #expect(saved.count == 1 && saved.first?.holdsValues(of: 5) == true)
    }

    @Test func aNewModelHoldsItsInitialValues() {
        let gauge = Gauge(seed: 2)
        #expect(Gauge.schemaMetadata.indices.allSatisfy { gauge._$get($0).isLoaded })
        #expect(gauge.holdsValues(of: 2))
    }

    @Test(arguments: StoreKind.all) func aSubclassLoadsItsOwnAndInheritedAttributes(store: StoreKind) throws {
        let container = try store.makeContainer(Meter.self, SmartMeter.self)
        let writer = ModelContext(container)
        writer.insert(SmartMeter(reading: 4, scale: 1.5, interval: 60))
        try writer.save()
        let context = ModelContext(container)
        var descriptor = FetchDescriptor<SmartMeter>()
        descriptor.propertiesToFetch = [\.interval]
        let meter = try #require(try context.fetch(descriptor).first)
        #expect(meter.reading == 4 && meter.scale == 1.5 && meter.interval == 60 && meter.ratio == 0.5)
        for property in SmartMeter.schemaMetadata.indices { meter.unload(property) }
        #expect(SmartMeter.schemaMetadata.indices.allSatisfy { !meter._$get($0).isLoaded })
        #expect(meter.reading == 4 && meter.scale == 1.5 && meter.interval == 60 && meter.ratio == 0.5)
    }

    /// Properties 32 and later keep optional storage, and the changes of properties 64 and later are kept apart
    /// from the first 64's.
    @Test(arguments: StoreKind.all) func aModelWithMoreThan64PropertiesLoadsAndSavesThemAll(store: StoreKind) throws {
        let container = try store.makeContainer(WideRecord.self)
        let writer = ModelContext(container)
        writer.insert(WideRecord(base: 1_000))
        try writer.save()
        let context = ModelContext(container)
        let record = try #require(try context.fetch(FetchDescriptor<WideRecord>()).first)
        #expect(record.value0 == 1_000 && record.value31 == 1_031 && record.value64 == 1_064 && record.value69 == 1_069)
        let unloaded = [0, 1, 31, 32, 63, 64, 65, 69]
        for property in unloaded { record.unload(property) }
        #expect(unloaded.allSatisfy { !record._$get($0).isLoaded })
        #expect(record._$get(2).isLoaded && record._$get(33).isLoaded && record._$get(66).isLoaded, "only those")
        #expect(record.value0 == 1_000 && record.value1 == 1_001 && record.value31 == 1_031 && record.value32 == 1_032)
        #expect(
            record.value63 == 1_063 && record.value64 == 1_064 && record.value65 == 1_065 && record.value69 == 1_069)
        #expect(!record.hasChanges)
        record.value69 = 9
        #expect(record.hasChanges, "a change of a property numbered above 64")
        record.value31 = 7
        record.value64 = 8
        try context.save()
        #expect(!record.hasChanges)
        let saved = try #require(try ModelContext(container).fetch(FetchDescriptor<WideRecord>()).first)
        #expect(saved.value31 == 7 && saved.value64 == 8 && saved.value69 == 9 && saved.value62 == 1_062)
    }
}

/// A model with more persisted properties than `_PersistentState` has bits for plain storage (32) and for changes
/// inline (64).
@Model final class WideRecord {
    var value0: Int
    var value1: Int
    var value2: Int
    var value3: Int
    var value4: Int
    var value5: Int
    var value6: Int
    var value7: Int
    var value8: Int
    var value9: Int
    var value10: Int
    var value11: Int
    var value12: Int
    var value13: Int
    var value14: Int
    var value15: Int
    var value16: Int
    var value17: Int
    var value18: Int
    var value19: Int
    var value20: Int
    var value21: Int
    var value22: Int
    var value23: Int
    var value24: Int
    var value25: Int
    var value26: Int
    var value27: Int
    var value28: Int
    var value29: Int
    var value30: Int
    var value31: Int
    var value32: Int
    var value33: Int
    var value34: Int
    var value35: Int
    var value36: Int
    var value37: Int
    var value38: Int
    var value39: Int
    var value40: Int
    var value41: Int
    var value42: Int
    var value43: Int
    var value44: Int
    var value45: Int
    var value46: Int
    var value47: Int
    var value48: Int
    var value49: Int
    var value50: Int
    var value51: Int
    var value52: Int
    var value53: Int
    var value54: Int
    var value55: Int
    var value56: Int
    var value57: Int
    var value58: Int
    var value59: Int
    var value60: Int
    var value61: Int
    var value62: Int
    var value63: Int
    var value64: Int
    var value65: Int
    var value66: Int
    var value67: Int
    var value68: Int
    var value69: Int

    init(base: Int) {
        value0 = base + 0
        value1 = base + 1
        value2 = base + 2
        value3 = base + 3
        value4 = base + 4
        value5 = base + 5
        value6 = base + 6
        value7 = base + 7
        value8 = base + 8
        value9 = base + 9
        value10 = base + 10
        value11 = base + 11
        value12 = base + 12
        value13 = base + 13
        value14 = base + 14
        value15 = base + 15
        value16 = base + 16
        value17 = base + 17
        value18 = base + 18
        value19 = base + 19
        value20 = base + 20
        value21 = base + 21
        value22 = base + 22
        value23 = base + 23
        value24 = base + 24
        value25 = base + 25
        value26 = base + 26
        value27 = base + 27
        value28 = base + 28
        value29 = base + 29
        value30 = base + 30
        value31 = base + 31
        value32 = base + 32
        value33 = base + 33
        value34 = base + 34
        value35 = base + 35
        value36 = base + 36
        value37 = base + 37
        value38 = base + 38
        value39 = base + 39
        value40 = base + 40
        value41 = base + 41
        value42 = base + 42
        value43 = base + 43
        value44 = base + 44
        value45 = base + 45
        value46 = base + 46
        value47 = base + 47
        value48 = base + 48
        value49 = base + 49
        value50 = base + 50
        value51 = base + 51
        value52 = base + 52
        value53 = base + 53
        value54 = base + 54
        value55 = base + 55
        value56 = base + 56
        value57 = base + 57
        value58 = base + 58
        value59 = base + 59
        value60 = base + 60
        value61 = base + 61
        value62 = base + 62
        value63 = base + 63
        value64 = base + 64
        value65 = base + 65
        value66 = base + 66
        value67 = base + 67
        value68 = base + 68
        value69 = base + 69
    }
}
