import Foundation
import SharedTestModels
import SwiftData
import Testing

/// A program that saves to an SQLite store and exits with its container still alive leaves a complete store file:
/// a copy of the file alone, without its `-wal` file, holds the saved rows.
@Suite struct SQLiteExitCheckpointTests {
    @Test func aCopyOfTheStoreFileAloneHoldsWhatAnExitedProgramSaved() throws {
        let location = StoreKind.sqlite.location()
        let child = try location.runChild(["save-and-exit", "copied"])
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        let copies = TemporaryDirectory()
        let copy = copies.store("copy")
        try FileManager.default.copyItem(at: location.store(), to: copy)
        #expect(!FileManager.default.fileExists(atPath: copy.path + "-wal"))
        let container = try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: copy))
        #expect(try ModelContext(container).fetch(FetchDescriptor<Visit>()).map(\.name) == ["copied"])
    }

    @Test func aCopyOfTheStoreFileAloneHoldsWhatAReleasedContainerSaved() throws {
        let directory = TemporaryDirectory()
        let store = directory.store("released")
        do {
            let context = ModelContext(
                try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store)))
            context.insert(Visit(name: "released"))
            try context.save()
        }
        let copy = directory.store("copy")
        try FileManager.default.copyItem(at: store, to: copy)
        let container = try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: copy))
        #expect(try ModelContext(container).fetch(FetchDescriptor<Visit>()).map(\.name) == ["released"])
    }
}
