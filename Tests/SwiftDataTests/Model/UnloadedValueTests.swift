import Foundation
import SwiftData
import Testing

/// Reading a value that can no longer be loaded (its model left the context first) never stops the program: the
/// value as last loaded, or an empty one, with the reason logged.
@Suite struct UnloadedValueTests {
    /// A store with one palette whose external values were saved, and a new context that fetched it without
    /// reading them (and the store's location, which must outlive them).
    private func fetchedPalette(_ store: StoreKind) throws -> (ModelContext, Palette, StoreLocation) {
        let location = store.location()
        let container = try location.container(Palette.self)
        let writer = ModelContext(container)
        let palette = Palette(name: "photo", hue: Hue(degrees: 1))
        palette.thumbnail = Data(repeating: 7, count: 5_000)
        palette.original = Data(repeating: 8, count: 5_000)
        writer.insert(palette)
        try writer.save()
        let context = ModelContext(container)
        let fetched = try #require(try context.fetch(FetchDescriptor<Palette>()).first)
        return (context, fetched, location)
    }

    @Test(arguments: StoreKind.all) func externalValuesOfADeletedModelReadAsEmpty(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let (context, palette, location) = try fetchedPalette(store)
            defer { withExtendedLifetime(location) {} }
            context.delete(palette)
            try context.save()
            #expect(palette.modelContext == nil)
            #expect(palette.thumbnail == Data(), "never loaded: empty")
            #expect(palette.original == nil, "never loaded: nil")
            #expect(palette.name == "photo", "loaded with the row")
        }
        #expect(
            log
                == ["thumbnail", "original"].map {
                    "SwiftData error: Palette.\($0) reads as empty: the model left its context (it was deleted, or replaced by an upsert) before the value was read; read it before the model leaves its context"
                }, "\(log)")
    }

    @Test(arguments: StoreKind.all) func externalValuesReadBeforeDeletingStay(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let (context, palette, location) = try fetchedPalette(store)
            defer { withExtendedLifetime(location) {} }
            #expect(palette.thumbnail.count == 5_000)
            context.delete(palette)
            try context.save()
            #expect(palette.thumbnail.count == 5_000 && palette.thumbnail.allSatisfy { $0 == 7 }, "as last loaded")
            #expect(palette.original == nil, "never loaded: nil")
        }
        #expect(
            log
                == ["original"].map {
                    "SwiftData error: Palette.\($0) reads as empty: the model left its context (it was deleted, or replaced by an upsert) before the value was read; read it before the model leaves its context"
                }, "\(log)")
    }

    @Test(arguments: StoreKind.all) func externalValuesOfAModelDeletedElsewhereReadAsEmpty(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let (context, palette, location) = try fetchedPalette(store)
            defer { withExtendedLifetime(location) {} }
            let other = ModelContext(context.container)
            try other.delete(model: Palette.self)
            try other.save()
            _ = try context.fetch(FetchDescriptor<Palette>())
            #expect(palette.modelContext == nil)
            #expect(palette.thumbnail == Data())
            #expect(palette.original == nil)
        }
        #expect(
            log
                == ["thumbnail", "original"].map {
                    "SwiftData error: Palette.\($0) reads as empty: the model left its context (it was deleted, or replaced by an upsert) before the value was read; read it before the model leaves its context"
                }, "\(log)")
    }

    @Test(arguments: StoreKind.all) func attributesLeftOutOfAFetchReadAsEmptyOnceDeleted(store: StoreKind) throws {
        let (_, log) = try capturingLog {
            let (context, _, location) = try fetchedPalette(store)
            defer { withExtendedLifetime(location) {} }
            let other = ModelContext(context.container)
            var descriptor = FetchDescriptor<Palette>()
            descriptor.propertiesToFetch = [\.name]
            let partial = try #require(try other.fetch(descriptor).first)
            other.delete(partial)
            try other.save()
            #expect(partial.modelContext == nil)
            #expect(partial.name == "photo", "fetched")
            #expect(partial.note == "", "left out: the declared initial value")
            #expect(partial.swatches == [], "left out: the declared initial value")
            #expect(partial.thumbnail == Data())
            #expect(partial.original == nil)
        }
        #expect(
            log
                == ["note", "swatches", "thumbnail", "original"].map {
                    "SwiftData error: Palette.\($0) reads as empty: the model left its context (it was deleted, or replaced by an upsert) before the value was read; read it before the model leaves its context"
                }, "\(log)")
    }
}
