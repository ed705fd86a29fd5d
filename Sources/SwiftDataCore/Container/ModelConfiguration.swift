import Foundation

/// Where and how a group of models is stored.
///
/// On Linux the default store lives at `$XDG_DATA_HOME/<executable>/<name>.store` (`$XDG_DATA_HOME`
/// defaults to `~/.local/share`); `name` defaults to `default`. CloudKit and group containers do not exist
/// here: those options are accepted and ignored.
public struct ModelConfiguration: Identifiable, Hashable, Sendable, CustomDebugStringConvertible {
    /// The store file, or `/dev/null` for an in-memory store.
    public let url: URL
    /// The configuration's name: the store file's name without `.store`, `default` unless given.
    public let name: String
    /// Always `nil`: app group containers do not exist on Linux.
    public let groupAppContainerIdentifier: String?
    /// Always `nil`: CloudKit does not exist on Linux.
    public let cloudKitContainerIdentifier: String?
    /// The group container option given; it has no effect on Linux.
    public let groupContainer: GroupContainer
    /// The CloudKit option given; it has no effect on Linux.
    public let cloudKitDatabase: CloudKitDatabase
    /// The models this configuration stores; `nil` means all of the container's.
    public var schema: Schema?
    /// `false` opens the store read-only: saving throws.
    public let allowsSave: Bool
    /// Whether the store lives in memory only, and is gone when the container is.
    public let isStoredInMemoryOnly: Bool

    /// Accepted for compatibility; CloudKit does not exist on Linux.
    public struct CloudKitDatabase: Hashable, Sendable {
        private let identifier: String?
        /// Apple's default: the app's CloudKit database when it has one.
        public static var automatic: CloudKitDatabase { CloudKitDatabase(identifier: nil) }
        /// No CloudKit database.
        public static var none: CloudKitDatabase { CloudKitDatabase(identifier: "") }
        /// A private CloudKit database of the given name.
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase {
            CloudKitDatabase(identifier: privateDBName)
        }
    }

    /// Accepted for compatibility; app group containers do not exist on Linux.
    public struct GroupContainer: Hashable, Sendable {
        private let identifier: String?
        /// Apple's default: the app's group container when it has one.
        public static var automatic: GroupContainer { GroupContainer(identifier: nil) }
        /// No group container.
        public static var none: GroupContainer { GroupContainer(identifier: "") }
        /// The app group container of the given identifier.
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(identifier: groupName) }
    }

    /// The default store, or an in-memory one.
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// A configuration for the given models.
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// A named store in the default location, or in memory.
    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic, cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        let name = name ?? "default"
        self.init(
            name: name, schema: schema,
            url: isStoredInMemoryOnly ? URL(fileURLWithPath: "/dev/null") : ModelConfiguration.defaultURL(name: name),
            isStoredInMemoryOnly: isStoredInMemoryOnly, allowsSave: allowsSave, groupContainer: groupContainer,
            cloudKitDatabase: cloudKitDatabase)
    }

    /// A named store at the given file.
    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.init(
            name: name ?? url.deletingPathExtension().lastPathComponent, schema: schema, url: url,
            isStoredInMemoryOnly: url.path == "/dev/null", allowsSave: allowsSave, groupContainer: .automatic,
            cloudKitDatabase: cloudKitDatabase)
    }

    /// Apple's label is `isStoredInMemoryOnly:`; `inMemory:` belongs to SwiftUI's `.modelContainer` modifier.
    @available(*, unavailable, renamed: "init(isStoredInMemoryOnly:)")
    public init(inMemory: Bool) {
        self.init(isStoredInMemoryOnly: inMemory)
    }

    private init(
        name: String, schema: Schema?, url: URL, isStoredInMemoryOnly: Bool, allowsSave: Bool,
        groupContainer: GroupContainer, cloudKitDatabase: CloudKitDatabase
    ) {
        self.name = name
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
        self.groupAppContainerIdentifier = nil
        self.cloudKitContainerIdentifier = nil
    }

    public var id: URL { url }

    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.isStoredInMemoryOnly == rhs.isStoredInMemoryOnly
            && lhs.allowsSave == rhs.allowsSave
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
    }

    public var debugDescription: String {
        "ModelConfiguration(\(name), \(isStoredInMemoryOnly ? "in memory" : url.path)\(allowsSave ? "" : ", read-only"))"
    }

    /// The directory that holds this executable's default stores: `$XDG_DATA_HOME/<executable>`.
    public static var defaultDirectory: URL {
        defaultDirectory(
            environment: ProcessInfo.processInfo.environment, executable: CommandLine.arguments.first ?? "swiftdata")
    }

    /// `$XDG_DATA_HOME/<executable name>`, where `XDG_DATA_HOME` defaults to `$HOME/.local/share` and must be
    /// absolute to count, as the XDG Base Directory specification says.
    package static func defaultDirectory(environment: [String: String], executable: String) -> URL {
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share")
        }
        return dataHome.appendingPathComponent(URL(fileURLWithPath: executable).lastPathComponent, isDirectory: true)
    }

    static func defaultURL(name: String) -> URL {
        defaultDirectory.appendingPathComponent("\(name).store")
    }

    /// Throws when the name cannot be a file name.
    public func validate() throws {
        if name.utf8.count > 255 - ".store".utf8.count {
            throw SwiftDataError.configurationFileNameTooLong.with(
                reason: "the configuration name is \(name.utf8.count) bytes long", suggestion: "Use a shorter name")
        }
        if name.isEmpty || name.contains("/") || name.contains("\0") {
            throw SwiftDataError.configurationFileNameContainsInvalidCharacters.with(
                reason: "'\(name)' cannot be a file name", suggestion: "Use a name without '/' or NUL characters")
        }
    }
}
