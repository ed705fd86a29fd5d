import SwiftData
import Testing

/// A workout session and its sets, as a fitness app writes them: the inverse is named on the to-many side.
@Model final class WorkoutSession {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \ExerciseSet.session) var sets: [ExerciseSet] = []
    init(name: String) { self.name = name }
}

@Model final class ExerciseSet {
    var reps: Int
    var session: WorkoutSession?
    init(reps: Int) { self.reps = reps }
}

/// To-many relationships are sets in Apple's SwiftData: a model already there is not added again, whichever way it
/// is added, and the order is otherwise kept.
@Suite struct ToManySetTests {
    let container: ModelContainer

    init() throws {
        container = try ModelContainer(
            for: WorkoutSession.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    }

    @Test func appendingWhatTheInverseAlreadyAddedKeepsOneCopy() throws {
        let context = ModelContext(container)
        let session = WorkoutSession(name: "Monday")
        context.insert(session)
        let set = ExerciseSet(reps: 10)
        set.session = session
        session.sets.append(set)
        #expect(session.sets.count == 1)
        let count = #Predicate<WorkoutSession> { $0.sets.count == 1 }
        #expect(
            try context.fetch(FetchDescriptor(predicate: count)).count == 1, "a count predicate with unsaved changes")
        try context.save()
        #expect(try context.fetch(FetchDescriptor(predicate: count)).count == 1, "a count predicate in SQL")
        #expect(try ModelContext(container).fetch(FetchDescriptor<WorkoutSession>()).first?.sets.count == 1)
    }

    @Test func everyWayOfAddingIgnoresAMemberAlreadyThere() throws {
        let context = ModelContext(container)
        let session = WorkoutSession(name: "Tuesday")
        context.insert(session)
        let (first, second, third) = (ExerciseSet(reps: 1), ExerciseSet(reps: 2), ExerciseSet(reps: 3))
        session.sets.append(first)
        session.sets.append(first)
        session.sets.append(contentsOf: [second, first, second])
        session.sets.insert(first, at: 0)
        session.sets.insert(third, at: 1)
        #expect(session.sets.map(\.reps) == [1, 3, 2], "the first place of each member is kept")
        session.sets = [second, second, third, second]
        #expect(session.sets.map(\.reps) == [2, 3])
        #expect(first.session == nil && second.session === session && third.session === session)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<WorkoutSession>()).first
        #expect(stored?.sets.map(\.reps) == [2, 3])
    }

    @Test func repeatsInAnInitializerKeepOneCopy() throws {
        let set = ExerciseSet(reps: 5)
        let session = WorkoutSession(name: "Wednesday")
        session.sets = [set, set]
        #expect(session.sets.count == 1)
        let context = ModelContext(container)
        context.insert(session)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<ExerciseSet>()) == 1)
    }

    @Test func savedSessionsKeepOneCopyToo() throws {
        let context = ModelContext(container)
        let session = WorkoutSession(name: "Thursday")
        context.insert(session)
        try context.save()
        let other = ModelContext(container)
        let fetched = try #require(try other.fetch(FetchDescriptor<WorkoutSession>()).first)
        let set = ExerciseSet(reps: 8)
        set.session = fetched
        fetched.sets.append(set)
        fetched.sets.append(set)
        #expect(fetched.sets.count == 1)
        try other.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<WorkoutSession>()).first?.sets.count == 1)
    }
}
