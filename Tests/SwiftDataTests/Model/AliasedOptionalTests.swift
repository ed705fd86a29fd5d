import Foundation
import SwiftData
import Testing

/// An optional type named through a type alias, which the macro cannot see is optional.
typealias MaybeNickname = String?
/// An optional to-one relationship named through a type alias.
typealias MaybeMentor = AliasedMentor?

/// A model whose optional attribute and relationship are spelled through type aliases.
@Model final class AliasedPerson {
    var name: String
    var nickname: MaybeNickname
    var mentor: MaybeMentor

    init(name: String, nickname: MaybeNickname = nil, mentor: MaybeMentor = nil) {
        self.name = name
        self.nickname = nickname
        self.mentor = mentor
    }
}

/// The target of `AliasedPerson.mentor`.
@Model final class AliasedMentor {
    var name: String
    init(name: String) { self.name = name }
}

/// Optionals hidden behind a type alias behave as spelled ones do: nil is stored and read back as nil, a value as
/// that value, and a relationship set to nil through the alias stays nil.
@Suite struct AliasedOptionalTests {
    @Test(arguments: StoreKind.all) func aliasedOptionalsRoundTrip(store: StoreKind) throws {
        let directory = store.location()
        do {
            let context = ModelContext(try makeContainer(AliasedPerson.self, AliasedMentor.self, in: directory))
            let mentor = AliasedMentor(name: "Ada")
            context.insert(AliasedPerson(name: "a", nickname: "Al", mentor: mentor))
            context.insert(AliasedPerson(name: "b"))
            try context.save()
            let b = try context.fetch(FetchDescriptor<AliasedPerson>(predicate: #Predicate { $0.name == "b" }))
            #expect(b.first?.nickname == nil)
            #expect(b.first?.mentor == nil)
        }
        let context = ModelContext(try makeContainer(AliasedPerson.self, AliasedMentor.self, in: directory))
        let people = try context.fetch(FetchDescriptor<AliasedPerson>(sortBy: [SortDescriptor(\.name)]))
        try #require(people.count == 2)
        #expect(people[0].nickname == "Al")
        #expect(people[0].mentor?.name == "Ada")
        #expect(people[1].nickname == nil)
        #expect(people[1].mentor == nil)
        // Set to nil and saved: nil again in a fresh context.
        people[0].nickname = nil
        people[0].mentor = nil
        try context.save()
        let again = ModelContext(try makeContainer(AliasedPerson.self, AliasedMentor.self, in: directory))
        let first = try again.fetch(FetchDescriptor<AliasedPerson>(predicate: #Predicate { $0.name == "a" }))
        #expect(first.first?.nickname == nil)
        #expect(first.first?.mentor == nil)
        #expect(try again.fetchCount(FetchDescriptor<AliasedMentor>()) == 1)
    }
}
