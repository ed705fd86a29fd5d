import Foundation
import SwiftData
import Testing

/// Values another program wrote into a store with the wrong type are refused with an error naming the model,
/// the property and the value, never read as `0`; `-0.0` keeps its sign.
@Suite struct StoredValueCheckTests {
    /// A store with one `Sample` whose column `column` was set to `value` through SQLite's C API; the error a fetch
    /// throws.
    func fetchError(setting column: String, to value: String) throws -> SwiftDataError? {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Sample.self, in: directory))
            context.insert(Sample())
            try context.save()
        }
        _ = try sqlite(directory.store(), "UPDATE Sample SET \"\(column)\" = \(value)")
        let context = ModelContext(try makeContainer(Sample.self, in: directory))
        do {
            _ = try context.fetch(FetchDescriptor<Sample>())
            return nil
        } catch let error as SwiftDataError {
            return error
        }
    }

    @Test(arguments: [
        ("int", "'abc'", "the text 'abc'"), ("int", "1.5", "the number 1.5"), ("optionalInt", "2.5", "the number 2.5"),
        ("int8", "x'01'", "1 bytes of data"), ("uint64", "'x1'", "the text 'x1'"), ("bool", "'yes'", "the text 'yes'"),
        ("double", "'1.5x'", "the text '1.5x'"), ("float", "x'00'", "1 bytes of data"),
        ("date", "NULL", "NULL"), ("date", "'2024-01-01'", "the text '2024-01-01'"),
        ("string", "x'41'", "1 bytes of data"), ("data", "'text'", "the text 'text'"),
        ("uuid", "'abc'", "the text 'abc'"), ("decimal", "x'31'", "1 bytes of data"),
        ("optionalInt", "'seven'", "the text 'seven'"), ("optionalDate", "'soon'", "the text 'soon'"),
    ])
    func aValueOfTheWrongTypeIsAnError(column: String, value: String, described: String) throws {
        let error = try #require(try fetchError(setting: column, to: value))
        #expect(error == SwiftDataError.storeError)
        #expect(error.modelName == "Sample")
        #expect(error.propertyName == column)
        #expect(error.reason?.contains(described) == true, "\(error)")
    }

    @Test func valuesOfTheRightTypeStillRead() throws {
        // An integer in a floating-point column is a number.
        #expect(try fetchError(setting: "double", to: "3") == nil)
        #expect(try fetchError(setting: "optionalDouble", to: "NULL") == nil)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let directory = TemporaryDirectory()
        do {
            let context = ModelContext(try makeContainer(Sample.self, in: directory))
            let sample = Sample()
            sample.double = -0.0
            sample.float = -0.0
            sample.optionalDouble = -0.0
            sample.optionalFloat = -0.0
            context.insert(sample)
            try context.save()
        }
        let context = ModelContext(try makeContainer(Sample.self, in: directory))
        let sample = try #require(try context.fetch(FetchDescriptor<Sample>()).first)
        #expect(sample.double.sign == .minus && sample.double == 0)
        #expect(sample.float.sign == .minus)
        #expect(sample.optionalDouble?.sign == .minus)
        #expect(sample.optionalFloat?.sign == .minus)
        // SQL compares it as Swift does: equal to zero, not below it.
        #expect(try context.fetchCount(FetchDescriptor<Sample>(predicate: #Predicate { $0.double == 0 })) == 1)
        #expect(try context.fetchCount(FetchDescriptor<Sample>(predicate: #Predicate { $0.double < 0 })) == 0)
    }
}
