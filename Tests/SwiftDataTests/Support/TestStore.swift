import Foundation
import SwiftData

/// A directory of its own for one test, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("openswiftdata-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The URL of a store file in the directory.
    func store(_ name: String = "test") -> URL { url.appendingPathComponent("\(name).store") }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A container on a new store file in `directory`.
func makeContainer(
    _ types: any PersistentModel.Type..., in directory: TemporaryDirectory, name: String = "test",
    allowsSave: Bool = true
) throws -> ModelContainer {
    try ModelContainer(
        for: Schema(types), configurations: [ModelConfiguration(url: directory.store(name), allowsSave: allowsSave)])
}

/// A container on a new in-memory store.
func makeMemoryContainer(_ types: any PersistentModel.Type...) throws -> ModelContainer {
    try ModelContainer(for: Schema(types), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
}
