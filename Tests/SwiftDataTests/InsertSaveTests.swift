import Foundation
import SwiftData
import Testing

/// A save of new models of several types, mixed: each type's models get keys of their own, each row the values of
/// its own model, and the relationships between them are written. These tests would fail if keys were handed out
/// across types or out of order, if a row were written with another's text, or if members of a to-many relationship
/// were skipped.
@Suite struct InsertSaveTests {
    @Test(arguments: StoreKind.withPooler) func interleavedTypesGetTheirOwnKeysAndValues(store: StoreKind) throws {
        let location = store.location()
        let texts = TextBindingTests.texts
        var users: [PersistentIdentifier: String] = [:]
        var counters: [PersistentIdentifier: String] = [:]
        do {
            let context = ModelContext(try makeContainer(User.self, Counter.self, in: location))
            var inserted: [(User, Counter)] = []
            for (number, text) in texts.enumerated() {
                let user = User(name: text, email: "\(number)@example.com")
                let counter = Counter(label: String(text.reversed()))
                counter.value = number
                context.insert(user)
                context.insert(counter)
                inserted.append((user, counter))
            }
            try context.save()
            for (user, counter) in inserted {
                users[user.persistentModelID] = user.name
                counters[counter.persistentModelID] = counter.label
            }
            // Each type's keys follow the order its models were inserted in.
            let userKeys = inserted.map(\.0.persistentModelID).map { $0.primaryKey ?? -1 }
            let counterKeys = inserted.map(\.1.persistentModelID).map { $0.primaryKey ?? -1 }
            #expect(userKeys == userKeys.sorted() && Set(userKeys).count == texts.count)
            #expect(counterKeys == counterKeys.sorted() && Set(counterKeys).count == texts.count)
            #expect(!userKeys.contains(-1) && !counterKeys.contains(-1))
        }
        // A new container reads the rows back from the store.
        let context = ModelContext(try makeContainer(User.self, Counter.self, in: location))
        let fetchedUsers = try context.fetch(FetchDescriptor<User>())
        let fetchedCounters = try context.fetch(FetchDescriptor<Counter>())
        #expect(fetchedUsers.count == texts.count && fetchedCounters.count == texts.count)
        for user in fetchedUsers { #expect(users[user.persistentModelID] == user.name) }
        for counter in fetchedCounters {
            #expect(counters[counter.persistentModelID] == counter.label)
            #expect(texts[counter.value] == String(counter.label.reversed()))
        }
        #expect(Set(fetchedUsers.map(\.name)) == Set(texts))
    }

    @Test(arguments: StoreKind.withPooler) func newModelsWithAndWithoutRelationshipsSaveTogether(store: StoreKind)
        throws
    {
        let location = store.location()
        do {
            let context = ModelContext(try makeContainer(User.self, Student.self, Course.self, in: location))
            let course = Course(title: "Swift")
            context.insert(course)
            for number in 0..<3 {
                context.insert(User(name: "user \(number)", email: "\(number)@example.com"))
                let student = Student(name: "student \(number)")
                context.insert(student)
                student.courses.append(course)
            }
            try context.save()
        }
        let context = ModelContext(try makeContainer(User.self, Student.self, Course.self, in: location))
        let courses = try context.fetch(FetchDescriptor<Course>())
        #expect(courses.count == 1)
        #expect(Set(courses.first?.students.map(\.name) ?? []) == ["student 0", "student 1", "student 2"])
        let students = try context.fetch(FetchDescriptor<Student>(sortBy: [SortDescriptor(\.name)]))
        #expect(students.map { $0.courses.map(\.title) } == [["Swift"], ["Swift"], ["Swift"]])
        #expect(try context.fetchCount(FetchDescriptor<User>()) == 3)
    }
}
