import Foundation
import SwiftData

/// The trips of Apple's SampleTrips, as the history session shows them: unique, preserved values, a cascade.
@Model final class HistoryTrip {
    #Unique<HistoryTrip>([\.name, \.startDate])
    @Attribute(.preserveValueOnDeletion) var name: String
    var destination: String
    @Attribute(.preserveValueOnDeletion) var startDate: Date
    @Attribute(.preserveValueOnDeletion) var note: String?
    @Relationship(deleteRule: .cascade, inverse: \HistoryBucketItem.trip) var bucketList: [HistoryBucketItem] = []
    var accommodation: HistoryAccommodation?

    init(name: String, destination: String, startDate: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
    }
}

@Model final class HistoryBucketItem {
    @Attribute(.preserveValueOnDeletion) var title: String
    var trip: HistoryTrip?

    init(title: String) { self.title = title }
}

@Model final class HistoryAccommodation {
    var placeName: String
    @Relationship(inverse: \HistoryTrip.accommodation) var trip: HistoryTrip?

    init(placeName: String) { self.placeName = placeName }
}

/// A model without preserved values.
@Model final class HistoryNote {
    var text: String
    var count: Int = 0

    init(text: String) { self.text = text }
}

/// The history of a container, oldest first.
func history(_ container: ModelContainer, _ predicate: Predicate<DefaultHistoryTransaction>? = nil) throws
    -> [DefaultHistoryTransaction]
{
    try ModelContext(container).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: predicate))
}

extension HistoryChange {
    /// `insert`, `update` or `delete`, and the entity, for comparing changes in tests.
    var summary: String {
        switch self {
        case .insert(let change): "insert \(change.changedPersistentIdentifier.entityName)"
        case .update(let change): "update \(change.changedPersistentIdentifier.entityName)"
        case .delete(let change): "delete \(change.changedPersistentIdentifier.entityName)"
        }
    }
}
