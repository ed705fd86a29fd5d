import Foundation
import SwiftData

// Versions of models, as an app's history would have them. Each version's classes have the same entity names.

/// FoodPin before the rename: the rating was stored as `rating`.
enum FoodPinV1 {
    @Model final class Restaurant {
        var name: String = ""
        var type: String = ""
        var rating: String?
        init(name: String, type: String, rating: String?) {
            self.name = name
            self.type = type
            self.rating = rating
        }
    }
}

/// A model that grows and shrinks between versions.
enum Shop {
    @Model final class Item {
        var name: String
        var price: Int
        var note: String?
        init(name: String, price: Int, note: String? = nil) {
            self.name = name
            self.price = price
            self.note = note
        }
    }
}

enum ShopAdded {
    @Model final class Item {
        var name: String
        var price: Int
        var note: String?
        var stock: Int = 7
        var barcode: String?
        init() {
            name = ""
            price = 0
        }
    }
}

enum ShopRemoved {
    @Model final class Item {
        var name: String
        init() { name = "" }
    }
}

enum ShopRetyped {
    @Model final class Item {
        var name: String
        var price: Double
        var note: String?
        init() {
            name = ""
            price = 0
        }
    }
}

enum ShopRequired {
    @Model final class Item {
        var name: String
        var price: Int
        var note: String = "none"
        init() {
            name = ""
            price = 0
        }
    }
}

enum ShopRequiredWithoutDefault {
    @Model final class Item {
        var name: String
        var price: Int
        var note: String
        init() {
            name = ""
            price = 0
            note = ""
        }
    }
}

enum ShopUnique {
    @Model final class Item {
        @Attribute(.unique) var name: String
        var price: Int
        var note: String?
        init() {
            name = ""
            price = 0
        }
    }
}

enum ShopIndexed {
    @Model final class Item {
        #Index<Item>([\.price], [\.name, \.price])
        var name: String
        var price: Int
        var note: String?
        init() {
            name = ""
            price = 0
        }
    }
}

// A versioned schema and its migration plan: V1 notes have a title and a body; V2 splits the body into a
// summary and keeps a word count; duplicates by title are merged by the custom stage.

enum NotesV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model final class Note {
        var title: String
        var body: String
        init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }
}

enum NotesV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model final class Note {
        @Attribute(.unique) var title: String
        @Attribute(originalName: "body") var text: String
        var words: Int = 0
        init(title: String, text: String) {
            self.title = title
            self.text = text
        }
    }
}

enum NotesPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: NotesV1.self, toVersion: NotesV2.self,
                willMigrate: { context in
                    // Merge notes with the same title before the unique constraint exists.
                    var seen: [String: NotesV1.Note] = [:]
                    for note in try context.fetch(FetchDescriptor<NotesV1.Note>(sortBy: [SortDescriptor(\.title)])) {
                        if let first = seen[note.title] {
                            first.body += "\n" + note.body
                            context.delete(note)
                        } else {
                            seen[note.title] = note
                        }
                    }
                    try context.save()
                },
                didMigrate: { context in
                    for note in try context.fetch(FetchDescriptor<NotesV2.Note>()) {
                        note.words = note.text.split(whereSeparator: \.isWhitespace).count
                    }
                    try context.save()
                })
        ]
    }
}

/// The same plan, with a stage that fails.
enum FailingNotesPlan: SchemaMigrationPlan {
    struct StageFailure: Error {}
    static var schemas: [any VersionedSchema.Type] { [NotesV1.self, NotesV2.self] }
    static var stages: [MigrationStage] {
        [
            .custom(
                fromVersion: NotesV1.self, toVersion: NotesV2.self, willMigrate: nil,
                didMigrate: { context in
                    for note in try context.fetch(FetchDescriptor<NotesV2.Note>()) { note.words = -1 }
                    try context.save()
                    throw StageFailure()
                })
        ]
    }
}

/// A plan that knows only version 2.
enum PlanWithoutV1: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NotesV2.self] }
    static var stages: [MigrationStage] { [] }
}

/// A relationship renamed through `originalName`, and its delete rule changed.
enum ShelvesV1 {
    @Model final class Shelf {
        var name: String
        @Relationship(deleteRule: .nullify) var volumes: [Volume] = []
        init(name: String) { self.name = name }
    }

    @Model final class Volume {
        var title: String
        var shelf: Shelf?
        init(title: String) { self.title = title }
    }
}

enum ShelvesV2 {
    @Model final class Shelf {
        var name: String
        @Relationship(deleteRule: .cascade, originalName: "volumes") var books: [Volume] = []
        init(name: String) { self.name = name }
    }

    @Model final class Volume {
        var title: String
        @Relationship(originalName: "shelf") var rack: Shelf?
        init(title: String) { self.title = title }
    }
}
