import Foundation
import SwiftData

// Apple's SwiftDataAnimals models, `Animal` and `AnimalCategory`, are the `animals` example's.

// MARK: Other shapes

/// A tree: a self-referential one-to-many relationship, with the inverse inferred.
@Model final class Node {
    var name: String
    var parent: Node?
    @Relationship(deleteRule: .cascade) var children: [Node] = []

    init(name: String, parent: Node? = nil) {
        self.name = name
        self.parent = parent
    }
}

/// Many-to-many: Apple's SwiftData pairs two arrays only when one side names the other.
@Model final class Student {
    var name: String
    @Relationship(inverse: \Course.students) var courses: [Course] = []
    init(name: String) { self.name = name }
}

@Model final class Course {
    var title: String
    var students: [Student] = []
    init(title: String) { self.title = title }
}

/// Two relationships between the same two models, told apart by `inverse:`.
@Model final class Person {
    var name: String
    @Relationship(inverse: \Message.sender) var sent: [Message] = []
    @Relationship(inverse: \Message.recipient) var received: [Message] = []
    var passport: Passport?
    init(name: String) { self.name = name }
}

@Model final class Message {
    var text: String
    var sender: Person?
    var recipient: Person?
    init(text: String) { self.text = text }
}

/// One-to-one.
@Model final class Passport {
    var number: String
    var holder: Person?
    init(number: String) { self.number = number }
}

/// `.deny`, `.noAction`, counts, an optional to-many and a relationship without an inverse.
@Model final class Library {
    var name: String
    @Relationship(deleteRule: .deny, inverse: \Book.library) var books: [Book] = []
    @Relationship(deleteRule: .noAction, inverse: \Book.archive) var archived: [Book] = []
    @Relationship(minimumModelCount: 0, maximumModelCount: 2) var featured: [Book]? = []
    var tags: [Tag] = []
    init(name: String) { self.name = name }
}

@Model final class Book {
    var title: String
    var library: Library?
    var archive: Library?
    var favoriteTag: Tag?
    init(title: String) { self.title = title }
}

@Model final class Tag {
    var label: String
    init(label: String) { self.label = label }
}

/// A required to-one: the owner's default `.nullify` rule cannot empty it.
@Model final class Owner {
    var name: String
    var pets: [Pet] = []
    init(name: String) { self.name = name }
}

@Model final class Pet {
    var name: String
    var owner: Owner
    init(name: String, owner: Owner) {
        self.name = name
        self.owner = owner
    }
}

/// Declarations that cannot be paired.
enum Ambiguous {
    @Model final class Customer {
        var home: Address?
        var work: Address?
        init() {}
    }

    @Model final class Address {
        var customer: Customer?
        init() {}
    }
}

/// Two relationships that claim the same inverse.
enum Contradictory {
    @Model final class Left {
        @Relationship(inverse: \Right.owner) var first: [Right] = []
        @Relationship(inverse: \Right.owner) var second: [Right] = []
        init() {}
    }

    @Model final class Right {
        var owner: Left?
        init() {}
    }
}
