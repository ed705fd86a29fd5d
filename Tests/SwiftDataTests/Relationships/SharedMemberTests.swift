import Foundation
import SwiftData
import Testing

/// Members that several owners share load as one object per row: a many-to-many relationship's join table gives a
/// member's row once for each of its owners.
@Suite struct SharedMemberTests {
    @Test func aMemberOfSeveralOwnersIsOneObject() throws {
        let container = try ModelContainer(
            for: Pupil.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        do {
            let context = ModelContext(container)
            let lessons = (0..<10).map { Lesson(title: "Lesson \($0)") }
            for index in 0..<50 {
                let pupil = Pupil(name: "Pupil \(index)")
                context.insert(pupil)
                pupil.lessons = (0..<5).map { lessons[(index + 3 * $0) % 10] }
            }
            try context.save()
        }
        let context = ModelContext(container)
        let pupils = try context.fetch(FetchDescriptor<Pupil>())
        let members = pupils.flatMap(\.lessons)
        #expect(members.count == 250)
        #expect(Set(members.map(ObjectIdentifier.init)).count == 10, "one object per row")
        let lessons = try context.fetch(FetchDescriptor<Lesson>())
        #expect(Set(lessons.map(ObjectIdentifier.init)) == Set(members.map(ObjectIdentifier.init)))
        // Both sides loaded, then read again through the context's identity map.
        #expect(lessons.map(\.pupils.count).reduce(0, +) == 250)
        for _ in 0..<3 {
            #expect(pupils.flatMap(\.lessons).count == 250)
        }
    }
}
