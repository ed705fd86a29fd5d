import Foundation
import SwiftData
import Testing

@testable import SwiftDataCore
@testable import SwiftDataSQL

/// A `Codable` value whose encoding renames a property: SQL must not read `city` under its Swift name.
struct RenamedAddress: Codable, Hashable {
    var city: String
    var zip: Int

    enum CodingKeys: String, CodingKey {
        case city = "town"
        case zip
    }
}

/// A `Codable` value whose encoding transforms a property.
struct ShoutedName: Codable, Hashable {
    var name: String

    init(name: String) { self.name = name }
    init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self).lowercased()
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name.uppercased())
    }
}

/// A model with `Codable` attributes whose encodings SQL cannot read member by member.
@Model final class Parcel {
    var number: Int
    var address: RenamedAddress
    var shape: Shape
    var mood: Mood

    init(number: Int, address: RenamedAddress, shape: Shape, mood: Mood) {
        self.number = number
        self.address = address
        self.shape = shape
        self.mood = mood
    }
}

/// SQL reads a member of a `Codable` value only where the value's own encoding proves the JSON key; enum values
/// compare in SQL only where their stored form decides Swift's answer. Everything else runs in memory, correctly.
@Suite struct CodableTranslationTests {
    @Test func memberKeysComeFromTheEncodingItself() {
        #expect(CodableMemberPath.key(of: \Address.city, in: Address.self) == "city")
        #expect(CodableMemberPath.key(of: \RenamedAddress.city, in: RenamedAddress.self) == "town")
        #expect(CodableMemberPath.key(of: \RenamedAddress.zip, in: RenamedAddress.self) == "zip")
        #expect(CodableMemberPath.key(of: \ShoutedName.name, in: ShoutedName.self) == nil)
    }

    @Test func untranslatableCodableComparisonsRunInMemory() throws {
        let (_, log) = try capturingLog {
            let context = ModelContext(try makeMemoryContainer(Parcel.self))
            context.insert(
                Parcel(number: 1, address: RenamedAddress(city: "Paris", zip: 1), shape: .empty, mood: .calm))
            context.insert(
                Parcel(
                    number: 2, address: RenamedAddress(city: "Lyon", zip: 2), shape: .circle(radius: 1), mood: .happy))
            context.insert(
                Parcel(
                    number: 3, address: RenamedAddress(city: "Paris", zip: 3), shape: .circle(radius: -0.0),
                    mood: .happy))
            try context.save()
            func numbers(_ predicate: Predicate<Parcel>) throws -> [Int] {
                try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.number)])).map(
                    \.number)
            }
            #expect(try fetchInSQL(#Predicate<Parcel> { $0.address.city == "Paris" }, context).map(\.number) == [1, 3])
            let empty = Shape.empty
            #expect(try fetchInSQL(#Predicate<Parcel> { $0.shape == empty }, context).map(\.number) == [1])
            let circle = Shape.circle(radius: 0)
            #expect(try numbers(#Predicate { $0.shape == circle }) == [3], "-0.0 == 0.0, though their JSON differs")
            let address = RenamedAddress(city: "Lyon", zip: 2)
            #expect(try numbers(#Predicate { $0.address == address }) == [2])
            let happy = Mood.happy
            #expect(try fetchInSQL(#Predicate<Parcel> { $0.mood == happy }, context).map(\.number) == [2, 3])
        }
        #expect(log.count == 2, "\(log)")
        #expect(
            log.contains {
                $0.hasPrefix(
                    "SwiftData warning: part of a predicate on Parcel is evaluated in memory (== on Shape values has no SQL translation)"
                )
            }, "\(log)")
        #expect(
            log.contains {
                $0.hasPrefix(
                    "SwiftData warning: part of a predicate on Parcel is evaluated in memory (== on RenamedAddress values has no SQL translation)"
                )
            }, "\(log)")
    }
}
