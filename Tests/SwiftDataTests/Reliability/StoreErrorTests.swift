import Foundation
import SharedTestModels
import SwiftData
import TestProcessSupport
import Testing

/// Errors at open say what SQLite's code means and name the store; a read-only directory or file system opens
/// for reading with `allowsSave: false`; a column dropped behind the store's back is an error, not a string.
@Suite struct StoreErrorTests {
    /// Whether this machine lets a process mount file systems in a mount namespace of its own.
    static let canMount: Bool = {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "true"]
        guard (try? process.run()) != nil else { return false }
        return (try? process.wait(timeout: 60)) == 0
    }()

    /// Whether the tests that mount file systems run: where the machine can mount, and always under `CI=true`, where
    /// a machine that cannot makes them fail rather than pass unrun.
    static let runsMountTests = canMount || ProcessInfo.processInfo.environment["CI"] == "true"

    /// Runs a shell script with the test helper program as `$child`; its status, standard output and error.
    func shell(_ script: String, unshared: Bool = false) throws -> (status: Int32, output: String, errors: String) {
        let child = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("TestChildProcess").path
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: unshared ? "/usr/bin/unshare" : "/bin/sh")
        process.arguments = (unshared ? ["-m", "/bin/sh"] : []) + ["-c", script]
        process.environment = ProcessInfo.processInfo.environment.merging(["child": child]) { $1 }
        return try RunningChild(process).finish()
    }

    /// A store of two visits, closed.
    func visits(_ directory: TemporaryDirectory) throws -> URL {
        let store = directory.store()
        let context = ModelContext(try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store)))
        context.insert(Visit(name: "a"))
        context.insert(Visit(name: "b"))
        try context.save()
        return store
    }

    @Test func aReadOnlyDirectoryOpensForReading() throws {
        let directory = TemporaryDirectory()
        let store = try visits(directory)
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path) }
        // Permission bits do not stop root: the child runs as nobody when the tests run as root, from a copy that
        // nobody can run wherever the build directory is. The shell makes the copy with `cp`: a copy this process
        // wrote could still be open for writing in a process another test forks meanwhile, and running it would
        // then fail ("Text file busy", status 126).
        var child = "\"$child\""
        let programs = TemporaryDirectory()
        if getuid() == 0 {
            let copy = programs.url.appendingPathComponent("TestChildProcess").path
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: programs.url.path)
            child = "cp \"$child\" '\(copy)' && setpriv --reuid=65534 --regid=65534 --clear-groups '\(copy)'"
        }
        let read = try shell("\(child) list-readonly '\(store.path)'")
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output == "a\nb\n")
        let write = try shell("\(child) insert-and-save '\(store.path)' c")
        #expect(write.status != 0)
        #expect(write.errors.contains(store.path), "\(write.errors)")
        #expect(write.errors.contains("permission denied") || write.errors.contains("cannot be written"))
        #expect(!write.errors.contains("damaged"), "\(write.errors)")
        #expect(!write.errors.contains("allowsSave: true"), "it is set already: \(write.errors)")
    }

    @Test(.enabled(if: runsMountTests, "needs mount namespaces (unshare -m) to mount a read-only file system"))
    func aReadOnlyFileSystemOpensForReading() throws {
        let directory = TemporaryDirectory()
        let store = try visits(directory)
        let mount = directory.url.appendingPathComponent("mount").path
        let result = try shell(
            """
            mkdir '\(mount)' && mount -t tmpfs -o size=4m tmpfs '\(mount)' && cp '\(store.path)' '\(mount)/v.store' \
            && mount -o remount,ro '\(mount)' || exit 9
            "$child" list-readonly '\(mount)/v.store' || exit 3
            "$child" insert-and-save '\(mount)/v.store' c
            """, unshared: true)
        #expect(result.status != 0 && result.status != 3 && result.status != 9, "\(result.errors)")
        #expect(result.output == "a\nb\n")
        #expect(result.errors.contains("read-only file system"), "\(result.errors)")
        #expect(result.errors.contains("\(mount)/v.store"))
        #expect(!result.errors.contains("damaged"))
    }

    @Test(.enabled(if: runsMountTests, "needs mount namespaces (unshare -m) to mount a small file system and fill it"))
    func aFullDiskIsNamedAsSuch() throws {
        let directory = TemporaryDirectory()
        let mount = directory.url.appendingPathComponent("mount").path
        let result = try shell(
            """
            mkdir '\(mount)' && mount -t tmpfs -o size=256k tmpfs '\(mount)' || exit 9
            dd if=/dev/zero of='\(mount)/filler' bs=4k 2>/dev/null
            "$child" insert-and-save '\(mount)/v.store' a
            """, unshared: true)
        #expect(result.status != 0 && result.status != 9, "\(result.errors)")
        #expect(result.errors.contains("the disk is full"), "\(result.errors)")
        #expect(result.errors.contains("\(mount)/v.store"))
        #expect(!result.errors.contains("damaged"))
    }

    @Test func aDamagedPageIsNamedWithTheStore() throws {
        let directory = TemporaryDirectory()
        let store = directory.store()
        do {
            let context = ModelContext(
                try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store)))
            for index in 0..<2000 { context.insert(Visit(name: "visit \(index) with a name long enough")) }
            try context.save()
        }
        let handle = try FileHandle(forUpdating: store)
        try handle.seek(toOffset: 4096 * 6)
        try handle.write(contentsOf: Data(repeating: 0x55, count: 4096))
        try handle.close()
        let context = ModelContext(try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store)))
        #expect {
            try context.fetch(FetchDescriptor<Visit>())
        } throws: { error in
            "\(error)".contains(store.path) && "\(error)".contains("damaged")
        }
    }

    @Test func readOnlySuggestionsFitTheConfiguration() throws {
        let directory = TemporaryDirectory()
        let store = try visits(directory)
        let context = ModelContext(
            try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store, allowsSave: false)))
        context.insert(Visit(name: "c"))
        #expect {
            try context.save()
        } throws: { error in
            "\(error)".contains("allowsSave: true")
        }
    }

    @Test func aColumnDroppedBehindTheStoresBackIsAnError() throws {
        let directory = TemporaryDirectory()
        let store = try visits(directory)
        _ = try sqlite(store, "ALTER TABLE Visit DROP COLUMN name")
        let context = ModelContext(try ModelContainer(for: Visit.self, configurations: ModelConfiguration(url: store)))
        #expect(throws: SwiftDataError.self) { try context.fetch(FetchDescriptor<Visit>()) }
        #expect(throws: SwiftDataError.self) {
            try context.fetchCount(FetchDescriptor<Visit>(predicate: #Predicate { $0.name == "name" }))
        }
    }
}
