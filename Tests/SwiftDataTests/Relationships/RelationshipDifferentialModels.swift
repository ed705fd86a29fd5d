import SwiftData

// The models of RelationshipDifferentialTests: one model (`RHub`) with a relationship of every form a model can
// declare, each to a model of its own, so that a random step touches one form at a time. Every model has a number,
// unique among models of its class, by which the test names it.

/// A relationship of every form: to-many `[T]` and `[T]?`, with and without `inverse:`, each delete rule, a
/// many-to-many, a one-to-one whose inverse is declared on the other side, and to-one and to-many without inverse.
@Model final class RHub {
    var number: Int
    @Relationship(deleteRule: .cascade, inverse: \RCascaded.hub) var cascaded: [RCascaded] = []
    @Relationship(deleteRule: .nullify, inverse: \RNullified.hub) var nullified: [RNullified]?
    @Relationship(deleteRule: .deny, inverse: \RDenied.hub) var denied: [RDenied]?
    @Relationship(inverse: \RTag.hubs) var tags: [RTag] = []
    var badge: RBadge?
    var loose: [RLoose] = []
    var favorite: RLoose?
    init(number: Int) { self.number = number }
}

/// Deleted with its hub.
@Model final class RCascaded {
    var number: Int
    var hub: RHub?
    init(number: Int) { self.number = number }
}

/// Left without a hub when its hub is deleted.
@Model final class RNullified {
    var number: Int
    var hub: RHub?
    init(number: Int) { self.number = number }
}

/// Keeps its hub from being deleted.
@Model final class RDenied {
    var number: Int
    var hub: RHub?
    init(number: Int) { self.number = number }
}

/// The other side of a many-to-many relationship, as an optional array.
@Model final class RTag {
    var number: Int
    var hubs: [RHub]?
    init(number: Int) { self.number = number }
}

/// One-to-one, with the inverse declared on this side.
@Model final class RBadge {
    var number: Int
    @Relationship(deleteRule: .nullify, inverse: \RHub.badge) var holder: RHub?
    init(number: Int) { self.number = number }
}

/// The target of the relationships without an inverse.
@Model final class RLoose {
    var number: Int
    init(number: Int) { self.number = number }
}
