import Foundation
import SwiftData

/// Something to do on a trip.
@Model final class BucketListItem {
    var title: String
    var isDone = false
    var trip: Trip?

    init(title: String, trip: Trip? = nil) {
        self.title = title
        self.trip = trip
    }
}
