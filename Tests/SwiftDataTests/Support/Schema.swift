import Foundation
import SwiftData

// Sample models shared by the runtime tests.

// MARK: The seeds' models, compiled verbatim (UIKit parts left out)

// The ToDo seed's model is the `todo` example's: tests that use it import that module.

// The FoodPin seed's model is the `foodpin` example's.

/// The User CRUD seed's model.
@Model
final class User {
    var name: String
    var email: String

    init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}

// MARK: Attribute types

struct Address: Codable, Hashable {
    var street: String
    var city: String
}

enum Shape: Codable, Hashable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case empty
}

enum Mood: String, Codable, CaseIterable {
    case happy, calm, grumpy
}

enum Level: Int {
    case low = 1
    case high = 10
}

/// Every attribute type the store holds.
@Model public final class Sample {
    public var bool: Bool = false
    public var int: Int = 0
    public var int8: Int8 = 0
    public var int16: Int16 = 0
    public var int32: Int32 = 0
    public var int64: Int64 = 0
    public var uint: UInt = 0
    public var uint8: UInt8 = 0
    public var uint16: UInt16 = 0
    public var uint32: UInt32 = 0
    public var uint64: UInt64 = 0
    public var double: Double = 0
    public var float: Float = 0
    public var decimal: Decimal = 0
    public var string: String = ""
    public var date: Date = Date(timeIntervalSinceReferenceDate: 0)
    public var data: Data = Data()
    public var uuid: UUID = UUID()
    public var url: URL = URL(fileURLWithPath: "/")
    var mood: Mood = .calm
    var level: Level = .low
    var address = Address(street: "", city: "")
    var shape: Shape = .empty
    public var tags: [String] = []
    public var scores: [String: Int] = [:]

    public var optionalBool: Bool?
    public var optionalInt: Int?
    public var optionalDouble: Double?
    public var optionalFloat: Float?
    public var optionalDecimal: Decimal?
    public var optionalString: String?
    public var optionalDate: Date?
    public var optionalData: Data?
    public var optionalUUID: UUID?
    public var optionalURL: URL?
    var optionalMood: Mood?
    var optionalAddress: Address?
    var optionalShape: Shape?

    public init() {}
}

/// A class that is neither final nor public.
@Model class Counter {
    var label: String
    var value: Int = 0
    @Transient var lastRead: Int = -1

    init(label: String) {
        self.label = label
    }
}
