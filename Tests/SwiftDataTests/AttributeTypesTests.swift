import Foundation
import SwiftData
import SwiftDataSQLite
import Testing

/// Every attribute type survives a save and a reload through a fresh container.
@Suite struct AttributeTypesTests {
    @Test(arguments: StoreKind.all) func everyTypeRoundTrips(store: StoreKind) throws {
        let directory = store.location()
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789_012_345)
        do {
            let context = ModelContext(try makeContainer(Sample.self, in: directory))
            let sample = Sample()
            sample.bool = true
            sample.int = .min
            sample.int8 = -128
            sample.int16 = .max
            sample.int32 = -7
            sample.int64 = .max
            sample.uint = .max
            sample.uint8 = 255
            sample.uint16 = .max
            sample.uint32 = .max
            sample.uint64 = .max
            sample.double = -0.1
            sample.float = 3.25
            sample.decimal = Decimal(string: "12345678901234567890.123456789")!
            sample.string = "Grüße, 世界 🌍"
            sample.date = date
            sample.data = Data([0, 1, 2, 255])
            sample.uuid = uuid
            sample.url = URL(string: "https://example.com/a?b=c#d")!
            sample.mood = .grumpy
            sample.level = .high
            sample.address = Address(street: "1 Main St", city: "Springfield")
            sample.shape = .rectangle(width: 2, height: 3)
            sample.tags = ["a", "b"]
            sample.scores = ["x": 1, "y": 2]
            sample.optionalBool = false
            sample.optionalInt = 42
            sample.optionalDouble = .infinity
            sample.optionalFloat = -1
            sample.optionalDecimal = 1.5
            sample.optionalString = ""
            sample.optionalDate = date
            sample.optionalData = Data()
            sample.optionalUUID = uuid
            sample.optionalURL = URL(fileURLWithPath: "/tmp/x y")
            sample.optionalMood = .happy
            sample.optionalAddress = Address(street: "2", city: "Shelbyville")
            sample.optionalShape = .circle(radius: 1)
            context.insert(sample)
            context.insert(Sample())
            try context.save()
        }
        let context = ModelContext(try makeContainer(Sample.self, in: directory))
        let samples = try context.fetch(FetchDescriptor<Sample>())
        try #require(samples.count == 2)
        let sample = samples[0]
        #expect(sample.bool == true)
        #expect(sample.int == .min)
        #expect(sample.int8 == -128)
        #expect(sample.int16 == .max)
        #expect(sample.int32 == -7)
        #expect(sample.int64 == .max)
        #expect(sample.uint == .max)
        #expect(sample.uint8 == 255)
        #expect(sample.uint16 == .max)
        #expect(sample.uint32 == .max)
        #expect(sample.uint64 == .max)
        #expect(sample.double == -0.1)
        #expect(sample.float == 3.25)
        #expect(sample.decimal == Decimal(string: "12345678901234567890.123456789")!)
        #expect(sample.string == "Grüße, 世界 🌍")
        #expect(sample.date == date)
        #expect(sample.data == Data([0, 1, 2, 255]))
        #expect(sample.uuid == uuid)
        #expect(sample.url == URL(string: "https://example.com/a?b=c#d")!)
        #expect(sample.mood == .grumpy)
        #expect(sample.level == .high)
        #expect(sample.address == Address(street: "1 Main St", city: "Springfield"))
        #expect(sample.shape == .rectangle(width: 2, height: 3))
        #expect(sample.tags == ["a", "b"])
        #expect(sample.scores == ["x": 1, "y": 2])
        #expect(sample.optionalBool == false)
        #expect(sample.optionalInt == 42)
        #expect(sample.optionalDouble == .infinity)
        #expect(sample.optionalFloat == -1)
        #expect(sample.optionalDecimal == 1.5)
        #expect(sample.optionalString == "")
        #expect(sample.optionalDate == date)
        #expect(sample.optionalData == Data())
        #expect(sample.optionalUUID == uuid)
        #expect(sample.optionalURL == URL(fileURLWithPath: "/tmp/x y"))
        #expect(sample.optionalMood == .happy)
        #expect(sample.optionalAddress == Address(street: "2", city: "Shelbyville"))
        #expect(sample.optionalShape == .circle(radius: 1))

        let empty = samples[1]
        #expect(empty.optionalInt == nil && empty.optionalString == nil && empty.optionalDate == nil)
        #expect(empty.optionalMood == nil && empty.optionalAddress == nil && empty.optionalShape == nil)
        #expect(empty.address == Address(street: "", city: ""))
    }

    @Test func columnsUseTheNaturalStorageClasses() throws {
        let entity = try #require(Schema([Sample.self]).entitiesByName["Sample"])
        func layout(_ name: String) -> ValueCodec.Layout? { entity.attributesByName[name]?.layout }
        // Core says what values mean...
        #expect(layout("int") == .native(.int64))
        #expect(layout("date") == .native(.date))
        #expect(layout("uuid") == .native(.uuid))
        #expect(layout("decimal") == .native(.decimal))
        #expect(layout("mood") == .rawValue(.native(.string)))
        #expect(layout("level") == .rawValue(.native(.int64)))
        #expect(layout("address") == .json)
        #expect(layout("tags") == .json)
        // ...and the SQLite store decides how it keeps them.
        func storage(_ name: String) -> StorageClass? { layout(name).map(StorageClass.init) }
        #expect(storage("int") == .integer)
        #expect(storage("date") == .real)
        #expect(storage("uuid") == .blob)
        #expect(storage("decimal") == .text)
        #expect(storage("mood") == .text)
        #expect(storage("level") == .integer)
        #expect(storage("address") == .text)
        #expect(entity.attributesByName["optionalMood"]?.isOptional == true)
        #expect(entity.attributesByName["mood"]?.isOptional == false)
    }

    @Test(arguments: StoreKind.all) func nanSurvivesInANonOptionalDouble(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(Sample.self, in: directory))
            let sample = Sample()
            sample.double = .nan
            context.insert(sample)
            try context.save()
        }
        let sample = try #require(
            try ModelContext(try makeContainer(Sample.self, in: directory)).fetch(FetchDescriptor<Sample>()).first)
        #expect(sample.double.isNaN)
    }
}
