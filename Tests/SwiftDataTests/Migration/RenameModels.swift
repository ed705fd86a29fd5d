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

/// Cards and tags, many-to-many: the join table is `Card_tags`.
enum BoardV1 {
    @Model final class Card {
        var title: String
        @Relationship(inverse: \Tag.cards) var tags: [Tag] = []
        init(title: String) { self.title = title }
    }

    @Model final class Tag {
        var name: String
        var cards: [Card] = []
        init(name: String) { self.name = name }
    }
}

/// `tags` renamed to `labels`: the join table becomes `Card_labels`.
enum BoardV2 {
    @Model final class Card {
        var title: String
        @Relationship(originalName: "tags", inverse: \Tag.cards) var labels: [Tag] = []
        init(title: String) { self.title = title }
    }

    @Model final class Tag {
        var name: String
        var cards: [Card] = []
        init(name: String) { self.name = name }
    }
}

/// A new relationship takes the old name, and with it the old join table's name, `Card_tags`.
enum BoardV3 {
    @Model final class Card {
        var title: String
        @Relationship(inverse: \Tag.cards) var labels: [Tag] = []
        var tags: [Topic] = []
        init(title: String) { self.title = title }
    }

    @Model final class Tag {
        var name: String
        var cards: [Card] = []
        init(name: String) { self.name = name }
    }

    @Model final class Topic {
        var name: String
        init(name: String) { self.name = name }
    }
}

/// The first version of a model class that a later version renames: Apple's API has no `originalName` for a model.
enum RenamedClassV1 {
    @Model final class Memo {
        var text: String
        init(text: String) { self.text = text }
    }
}

enum RenamedClassV2 {
    @Model final class Note {
        var text: String
        init(text: String) { self.text = text }
    }
}

/// A memo whose text a later version renames to `note`, while it removes a property `Note`: SQLite's column names
/// ignore case, so the removed column is in the way of the renamed one.
enum CaseRenameV1 {
    @Model final class Memo {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // A name that differs from the next version's `note` only by case, on purpose.
        var Note: String?
        var text: String
        init(text: String) { self.text = text }
    }
}

enum CaseRenameV2 {
    @Model final class Memo {
        @Attribute(originalName: "text") var note: String
        init(note: String) { self.note = note }
    }
}
