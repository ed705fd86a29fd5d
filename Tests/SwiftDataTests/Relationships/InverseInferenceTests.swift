import SwiftData
import Testing

/// Two arrays between two models, with no `inverse:` on either side.
@Model final class Playlist {
    var title: String
    var songs: [Song] = []
    init(title: String) { self.title = title }
}

@Model final class Song {
    var title: String
    var playlists: [Playlist] = []
    init(title: String) { self.title = title }
}

/// Inverses are inferred as Apple's SwiftData infers them: a to-many relationship pairs with a to-one one back,
/// but two to-many arrays pair only when one names the other with `inverse:`.
@Suite struct InverseInferenceTests {
    @Test func twoArraysWithoutInverseAreIndependent() throws {
        let container = try ModelContainer(
            for: Playlist.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        let mix = Playlist(title: "Mix")
        let song = Song(title: "Song")
        context.insert(mix)
        context.insert(song)
        mix.songs.append(song)
        #expect(song.playlists.isEmpty, "appending to one side leaves the other alone")
        let other = Playlist(title: "Other")
        song.playlists.append(other)
        #expect(other.songs.isEmpty)
        try context.save()

        let fresh = ModelContext(container)
        let playlists = try fresh.fetch(FetchDescriptor<Playlist>(sortBy: [SortDescriptor(\.title)]))
        #expect(playlists.map { $0.songs.map(\.title) } == [["Song"], []])
        let songs = try fresh.fetch(FetchDescriptor<Song>())
        #expect(songs.map { $0.playlists.map(\.title) } == [["Other"]])
        let inMix = #Predicate<Song> { $0.playlists.contains { $0.title == "Mix" } }
        #expect(try fresh.fetchCount(FetchDescriptor(predicate: inMix)) == 0)
    }
}
