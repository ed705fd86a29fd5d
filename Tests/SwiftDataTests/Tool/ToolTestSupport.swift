import Foundation
import PostgresTestSupport
import SwiftData
import SwiftDataTool

/// Runs a `swiftdata` command line in the test process and returns its exit code, output and errors.
func swiftdata(_ arguments: String...) -> (status: Int32, output: String, errors: String) {
    final class Collected: @unchecked Sendable {
        var output = ""
        var errors = ""
    }
    let collected = Collected()
    let status = SwiftDataTool.run(
        arguments, output: ToolOutput(write: { collected.output += $0 }, writeError: { collected.errors += $0 }))
    return (status, collected.output, collected.errors)
}

extension StoreLocation {
    /// How `swiftdata` names the location's store: the SQLite file's path, or the server's URL with the schema.
    func toolAddress(_ name: String = "test") throws -> String {
        switch kind {
        case .sqlite: store(name).path
        case .postgres, .pooled: "\(try PostgresTestServer.shared().url)#\(postgresSchema)"
        }
    }
}

/// The files of an SQLite store (the file, its `-wal` and its external files) with their bytes, to tell that
/// nothing wrote to it. An empty `-wal` counts as none: a read-only connection to a store in WAL mode makes the
/// empty one SQLite needs to read it.
func storeFiles(_ store: URL) throws -> [String: Data] {
    let fileManager = FileManager.default
    let wal = (try? fileManager.attributesOfItem(atPath: store.path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
    var paths = [store.path] + (wal > 0 ? [store.path + "-wal"] : [])
    let external = store.path + ".external"
    paths += ((try? fileManager.contentsOfDirectory(atPath: external)) ?? []).map { external + "/" + $0 }
    return try Dictionary(uniqueKeysWithValues: paths.map { ($0, try Data(contentsOf: URL(fileURLWithPath: $0))) })
}
