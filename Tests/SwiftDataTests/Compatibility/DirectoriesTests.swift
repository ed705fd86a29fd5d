import Foundation
import SwiftData
import SwiftDataDirectories
import Testing

/// The store locations SwiftData apps write with Apple's Foundation compile with `SwiftDataDirectories` and name the
/// XDG base directories.
@Suite struct DirectoriesTests {
    static func expected(_ variable: String, _ relative: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value).path }
        return URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(relative).path
    }

    @Test func directoriesNameTheXDGDirectories() {
        #expect(URL.applicationSupportDirectory.path == Self.expected("XDG_DATA_HOME", ".local/share"))
        #expect(URL.cachesDirectory.path == Self.expected("XDG_CACHE_HOME", ".cache"))
        #expect(URL.documentsDirectory.path == Self.expected("XDG_DOCUMENTS_DIR", "Documents"))
        // The default store's directory is in the application support directory, as on Apple's platforms.
        #expect(
            ModelConfiguration.defaultDirectory.deletingLastPathComponent().path == URL.applicationSupportDirectory.path
        )
    }

    @Test func aStoreURLAsAppsWriteIt() throws {
        let url = URL.applicationSupportDirectory.appending(path: "Trips.store")
        let configuration = ModelConfiguration(url: url)
        #expect(configuration.url.lastPathComponent == "Trips.store")
    }

    @Test func anAppGroupContainer() throws {
        let group = "group.org.openswiftdata.tests-\(UUID().uuidString)"
        let url = try #require(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(url.lastPathComponent == group)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "../elsewhere") == nil)
        #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "") == nil)
    }
}
