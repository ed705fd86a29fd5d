import Foundation
import SwiftData

// Renames that change how a store names its indexes and join tables.

/// A self-referential many-to-many relationship: `followers` sorts before `following`, so its join table is
/// `Person_followers`, owned by the followers' side.
enum FollowV1 {
    @Model final class Person {
        var name: String
        @Relationship(inverse: \Person.following) var followers: [Person] = []
        var following: [Person] = []
        init(name: String) { self.name = name }
    }
}

/// `followers` renamed to `watchers`, which sorts after `following`: the join table becomes `Person_following`, owned
/// by the other side.
enum FollowV2 {
    @Model final class Person {
        var name: String
        @Relationship(originalName: "followers", inverse: \Person.following) var watchers: [Person] = []
        var following: [Person] = []
        init(name: String) { self.name = name }
    }
}

/// A model whose name is long enough that PostgreSQL shortens its index names.
enum LongNameV1 {
    @Model final class SubscriptionRenewalNotificationPreference {
        #Unique<SubscriptionRenewalNotificationPreference>([\.account, \.channel])
        var account: String
        var channel: String
        init(account: String, channel: String) {
            self.account = account
            self.channel = channel
        }
    }
}

/// The unique constraint removed.
enum LongNameV2 {
    @Model final class SubscriptionRenewalNotificationPreference {
        var account: String
        var channel: String
        init(account: String, channel: String) {
            self.account = account
            self.channel = channel
        }
    }
}
