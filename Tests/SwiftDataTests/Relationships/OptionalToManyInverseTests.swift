import Foundation
import SwiftData
import Testing

/// A to-many relationship declared as an optional array (`[T]?`, the form Apple recommends for models that sync
/// through CloudKit) is kept in step with its to-one inverse in the same context, as `[T] = []` is: whichever side
/// a program sets, before or after `insert`, before or after `save()`, on new or fetched models.
@Suite struct OptionalToManyInverseTests {
    @Model final class Playlist {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \PlaylistEntry.playlist) var entries: [PlaylistEntry]?
        init(name: String) { self.name = name }
    }

    @Model final class PlaylistEntry {
        var title: String
        var playlist: Playlist?
        init(title: String, playlist: Playlist? = nil) {
            self.title = title
            self.playlist = playlist
        }
    }

    static func titles(_ playlist: Playlist) -> [String] { (playlist.entries ?? []).map(\.title).sorted() }

    @Test(arguments: StoreKind.all) func settingTheToOneSideOfNewModelsBeforeInsert(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Playlist.self, PlaylistEntry.self))
        let playlist = Playlist(name: "Road trip")
        let entry = PlaylistEntry(title: "One")
        entry.playlist = playlist
        #expect(Self.titles(playlist) == ["One"])
        context.insert(playlist)
        #expect(Self.titles(playlist) == ["One"])
        try context.save()
        #expect(Self.titles(playlist) == ["One"])
    }

    @Test(arguments: StoreKind.all) func settingTheToOneSideAfterInsertAndAfterSave(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Playlist.self, PlaylistEntry.self))
        let playlist = Playlist(name: "Road trip")
        context.insert(playlist)
        let first = PlaylistEntry(title: "One")
        context.insert(first)
        first.playlist = playlist
        #expect(Self.titles(playlist) == ["One"])
        try context.save()
        let second = PlaylistEntry(title: "Two")
        context.insert(second)
        second.playlist = playlist
        #expect(Self.titles(playlist) == ["One", "Two"])
        try context.save()
        #expect(Self.titles(playlist) == ["One", "Two"])
        first.playlist = nil
        #expect(Self.titles(playlist) == ["Two"])
    }

    @Test(arguments: StoreKind.all) func settingTheToOneSideOfFetchedModels(store: StoreKind) throws {
        let container = try store.makeContainer(Playlist.self, PlaylistEntry.self)
        let setup = ModelContext(container)
        setup.insert(Playlist(name: "Road trip"))
        setup.insert(Playlist(name: "Empty"))
        setup.insert(PlaylistEntry(title: "One"))
        try setup.save()

        let context = ModelContext(container)
        let playlist = try #require(
            try context.fetch(FetchDescriptor<Playlist>(predicate: #Predicate { $0.name == "Road trip" })).first)
        let entry = try #require(try context.fetch(FetchDescriptor<PlaylistEntry>()).first)
        entry.playlist = playlist
        #expect(Self.titles(playlist) == ["One"])
        let empty = try #require(
            try context.fetch(FetchDescriptor<Playlist>(predicate: #Predicate { $0.name == "Empty" })).first)
        _ = empty.entries  // loaded before the change, empty
        entry.playlist = empty
        #expect(Self.titles(empty) == ["One"])
        #expect(Self.titles(playlist) == [])
        try context.save()
        #expect(Self.titles(empty) == ["One"])

        let other = ModelContext(container)
        let reread = try #require(
            try other.fetch(FetchDescriptor<Playlist>(predicate: #Predicate { $0.name == "Empty" })).first)
        #expect(Self.titles(reread) == ["One"])
    }

    @Test(arguments: StoreKind.all) func appendingToTheOptionalArraySetsTheToOneSide(store: StoreKind) throws {
        let context = ModelContext(try store.makeContainer(Playlist.self, PlaylistEntry.self))
        let playlist = Playlist(name: "Road trip")
        context.insert(playlist)
        let entry = PlaylistEntry(title: "One")
        playlist.entries = [entry]
        #expect(entry.playlist === playlist)
        let second = PlaylistEntry(title: "Two")
        playlist.entries?.append(second)
        #expect(second.playlist === playlist)
        playlist.entries = nil
        #expect(entry.playlist == nil && second.playlist == nil)
    }
}
