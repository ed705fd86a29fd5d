import Foundation
import SwiftDataCore
import Synchronization

/// The files that hold `.externalStorage` values, in a directory beside the store: `<store file>.external/`,
/// one file per value, named by a UUID; a row's column holds the file name.
///
/// A save writes new files (and syncs them) before it commits, so a committed row never points to a missing
/// file; it deletes replaced files only after the commit, and a rollback deletes the files it wrote. Files a crash
/// left without a row are deleted when the store next opens, but only while that process holds the store's write
/// lock: every file is written inside a write transaction, so with the lock held no transaction of any process is
/// in flight, and a file no committed row names can only be left over from one that never committed.
///
/// `@unchecked Sendable`: `written` and `replaced` change only inside the store's write transaction, under its lock.
final class ExternalStorage: @unchecked Sendable {
    let directory: URL
    private var written: [String] = []
    private var replaced: [String] = []
    /// How many values were read from files (for tests).
    let reads = Atomic<Int>(0)

    init(storeURL: URL) {
        directory = URL(fileURLWithPath: storeURL.path + ".external", isDirectory: true)
    }

    /// Writes a value to a new file and returns its name.
    func write(_ data: Data) throws -> String {
        let name = UUID().uuidString
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent(name)
            try data.write(to: url)
            let handle = try FileHandle(forWritingTo: url)
            try handle.synchronize()
            try handle.close()
            SQLiteTestHooks.afterExternalWrite?()
        } catch {
            throw SwiftDataError.storeError.with(
                reason:
                    "an externally stored value could not be written to \(directory.path): \(error.localizedDescription)",
                suggestion: "Check that the directory is writable and the disk has space")
        }
        written.append(name)
        return name
    }

    /// The value in a file.
    func read(_ name: String) throws -> Data {
        reads.add(1, ordering: .relaxed)
        let url = directory.appendingPathComponent(name)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw SwiftDataError.storeError.with(
                reason: "the externally stored value in \(url.path) cannot be read: \(error.localizedDescription)",
                suggestion: "The file beside the store is missing or unreadable; restore it from a backup")
        }
    }

    /// Whether the file of a value exists.
    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    }

    /// Marks a file to delete once the transaction commits.
    func replace(_ name: String) {
        replaced.append(name)
    }

    /// The transaction committed: the replaced files go.
    func commit() {
        replaced.forEach(delete)
        written = []
        replaced = []
    }

    /// The transaction rolled back: the files it wrote go.
    func rollback() {
        written.forEach(delete)
        written = []
        replaced = []
    }

    /// Where a nested transaction (a savepoint) starts in the lists of written and replaced files.
    struct Mark {
        fileprivate let written: Int
        fileprivate let replaced: Int
    }

    /// The place to roll back to if the nested transaction starting now rolls back.
    func mark() -> Mark { Mark(written: written.count, replaced: replaced.count) }

    /// A nested transaction rolled back to its savepoint: the files it wrote go at once (no row can name them, as
    /// its rows rolled back too), and the files it marked as replaced stay, since the rows that name them stay.
    func rollback(to mark: Mark) {
        written[min(mark.written, written.count)...].forEach(delete)
        written.removeSubrange(min(mark.written, written.count)...)
        replaced.removeSubrange(min(mark.replaced, replaced.count)...)
    }

    /// Deletes every file no row refers to. The caller holds the store's write lock (see above).
    func collectGarbage(referenced: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where !referenced.contains(name) { delete(name) }
    }

    func deleteAll() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func delete(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
}
