import Foundation
import SwiftData

/// A model with a single-attribute unique constraint and a relationship.
@Model final class Country {
    @Attribute(.unique) var code: String
    var name: String
    @Relationship(inverse: \City.country) var cities: [City] = []
    init(code: String, name: String) {
        self.code = code
        self.name = name
    }
}

@Model final class City {
    var name: String
    var country: Country?
    init(name: String) { self.name = name }
}

/// A compound unique constraint, and one on a to-one relationship.
@Model final class Seat {
    #Unique<Seat>([\.row, \.number], [\.holder])
    var row: String
    var number: Int
    var price: Int = 0
    var holder: Ticket?
    init(row: String, number: Int, price: Int = 0) {
        self.row = row
        self.number = number
        self.price = price
    }
}

@Model final class Ticket {
    var code: String
    init(code: String) { self.code = code }
}
