// swift-tools-version:6.2
// OpenSwiftData: Apple's SwiftData API on Linux, backed by SQLite.
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The toolchain's own SwiftSyntax host libraries (`<toolchain>/usr/lib/swift/host`), so the macro target
/// builds without downloading swift-syntax. `SWIFT_HOST_LIBRARIES` overrides the lookup; otherwise the
/// `swift` found on `PATH` (symlinks resolved) names the toolchain.
func toolchainHostLibraries() -> String {
    let environment = ProcessInfo.processInfo.environment
    if let explicit = environment["SWIFT_HOST_LIBRARIES"], !explicit.isEmpty { return explicit }
    let fileManager = FileManager.default
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
        guard fileManager.isExecutableFile(atPath: candidate.path) else { continue }
        let toolchainBin = candidate.resolvingSymlinksInPath().deletingLastPathComponent()
        let host = toolchainBin.deletingLastPathComponent().appendingPathComponent("lib/swift/host")
        if fileManager.fileExists(atPath: host.appendingPathComponent("SwiftSyntax.swiftmodule").path) {
            return host.path
        }
    }
    return "/usr/lib/swift/host"
}

let host = toolchainHostLibraries()
let syntaxLibraries = [
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftSyntaxBuilder", "SwiftDiagnostics", "SwiftParser",
    "SwiftBasicFormat", "SwiftOperators", "SwiftCompilerPluginMessageHandling", "SwiftSyntaxMacroExpansion",
    "SwiftParserDiagnostics",
]
// unsafeFlags: the only way to point the macro target at the toolchain's own SwiftSyntax; SwiftPM accepts them in a
// versioned dependency from tools version 6.2.
let syntaxSwiftSettings: [SwiftSetting] = [.unsafeFlags(["-I", host])]
let syntaxLinkerSettings: [LinkerSetting] =
    [.unsafeFlags(["-L", host, "-Xlinker", "-rpath", "-Xlinker", host])] + syntaxLibraries.map { .linkedLibrary($0) }

let package = Package(
    name: "OpenSwiftData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwiftData", targets: ["SwiftData"]),
        .library(name: "SwiftDataPostgres", targets: ["SwiftDataPostgres"]),
        // Opt-in: Apple's Foundation conveniences for app directories, mapped to the XDG directories.
        .library(name: "SwiftDataDirectories", targets: ["SwiftDataDirectories"]),
        .executable(name: "todo", targets: ["todo"]),
        .executable(name: "foodpin", targets: ["foodpin"]),
        .executable(name: "animals", targets: ["animals"]),
        .executable(name: "users", targets: ["users"]),
        .executable(name: "jsonstore", targets: ["jsonstore"]),
        // Tools for a store in production: inspect, dump, copy between SQLite and PostgreSQL, check.
        .executable(name: "swiftdata", targets: ["swiftdata"]),
    ],
    targets: [
        .macro(
            name: "SwiftDataMacros",
            swiftSettings: syntaxSwiftSettings,
            linkerSettings: syntaxLinkerSettings
        ),
        .target(name: "SwiftDataCore", exclude: ["Engine/ENGINE.md"]),
        .target(name: "SwiftDataDirectories"),
        .target(name: "SwiftDataSQL", dependencies: ["SwiftDataCore"]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SwiftDataSQLite", dependencies: ["SwiftDataCore", "SwiftDataSQL", "CSQLite"]),
        .target(name: "SwiftData", dependencies: ["SwiftDataCore", "SwiftDataSQLite", "SwiftDataMacros"]),
        .target(name: "ExampleSupport", dependencies: ["SwiftData", "SwiftDataPostgres"], path: "Examples/Support"),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "SwiftDataPostgres", dependencies: ["SwiftDataCore", "SwiftDataSQL", "CLibPQ"]),
        .target(name: "SwiftDataTool", dependencies: ["SwiftDataCore", "SwiftDataSQLite", "SwiftDataPostgres"]),
        .executableTarget(name: "swiftdata", dependencies: ["SwiftDataTool"]),
        .executableTarget(
            name: "todo", dependencies: ["SwiftData", "ExampleSupport"], path: "Examples/todo", exclude: ["README.md"]),
        .executableTarget(
            name: "foodpin", dependencies: ["SwiftData", "ExampleSupport"], path: "Examples/foodpin",
            exclude: ["README.md"]),
        .executableTarget(
            name: "animals", dependencies: ["SwiftData", "ExampleSupport"], path: "Examples/animals",
            exclude: ["README.md"]),
        .executableTarget(
            name: "users", dependencies: ["SwiftData", "ExampleSupport"], path: "Examples/users", exclude: ["README.md"]
        ),
        .executableTarget(
            name: "jsonstore", dependencies: ["SwiftData", "ExampleSupport"], path: "Examples/jsonstore",
            exclude: ["README.md"]),
        .executableTarget(
            name: "Benchmarks", dependencies: ["SwiftData", "SwiftDataPostgres", "CSQLite"], path: "Benchmarks"),
        .target(name: "SharedTestModels", dependencies: ["SwiftData"], path: "Tests/SharedTestModels"),
        // The examples' model files, linked into a library: tests import them from here, as SwiftPM does not order
        // a test target's build after the executables it imports.
        .target(name: "ExampleModels", dependencies: ["SwiftData"], path: "Tests/ExampleModels"),
        .executableTarget(
            name: "TestChildProcess",
            dependencies: ["SwiftData", "SwiftDataSQLite", "SwiftDataPostgres", "SharedTestModels"],
            path: "Tests/TestChildProcess"),
        // The tests' launcher of child processes, on posix_spawn (see ChildProcess.swift for why not Process).
        .target(name: "TestProcessSupport", path: "Tests/TestProcessSupport"),
        .testTarget(name: "TestProcessSupportTests", dependencies: ["TestProcessSupport"]),
        .target(name: "PostgresTestSupport", dependencies: ["TestProcessSupport"], path: "Tests/PostgresTestSupport"),
        .testTarget(
            name: "SwiftDataPostgresTests", dependencies: ["SwiftDataPostgres", "SwiftDataCore", "PostgresTestSupport"]),
        .testTarget(
            name: "SwiftDataMacrosTests",
            dependencies: ["SwiftDataMacros"],
            swiftSettings: syntaxSwiftSettings,
            linkerSettings: syntaxLinkerSettings
        ),
        .testTarget(
            name: "SwiftDataTests",
            dependencies: [
                "SwiftData", "SwiftDataSQLite", "SwiftDataSQL", "CSQLite", "SharedTestModels", "ExampleModels",
                "SwiftDataDirectories",
                "TestChildProcess",
                "todo", "foodpin", "animals", "users", "jsonstore", "Benchmarks", "SwiftDataPostgres",
                "PostgresTestSupport", "TestProcessSupport", "SwiftDataTool", "swiftdata",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
