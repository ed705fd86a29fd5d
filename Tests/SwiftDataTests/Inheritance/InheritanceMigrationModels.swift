import Foundation
import SwiftData

// Three versions of a trip app's models, as an app changes them: a class, then a subclass, then a property on
// each level.

/// Version 1: trips, not yet subclassed.
enum TripsV1 {
    @Model class Trip {
        var name: String
        init(name: String) { self.name = name }
    }
}

/// Version 2: business trips added, with a required property (no business trip is stored yet).
enum TripsV2 {
    @Model class Trip {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class BusinessTrip: Trip {
        var company: String
        init(name: String, company: String) {
            self.company = company
            super.init(name: name)
        }
    }
}

/// Version 3: a property on each level, optional or with a default value.
enum TripsV3 {
    @Model class Trip {
        var name: String
        var notes: String?
        init(name: String) { self.name = name }
    }

    @Model final class BusinessTrip: Trip {
        var company: String
        var perDiem: Double = 50
        init(name: String, company: String) {
            self.company = company
            super.init(name: name)
        }
    }
}

/// Version 3, but a required property without a default value on the subclass, which stored business trips
/// cannot have.
enum TripsV3Required {
    @Model class Trip {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class BusinessTrip: Trip {
        var company: String
        var approver: String
        init(name: String, company: String, approver: String) {
            self.company = company
            self.approver = approver
            super.init(name: name)
        }
    }
}
