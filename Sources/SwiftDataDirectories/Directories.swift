import Foundation

// Apple's Foundation has these conveniences for the places apps keep their files; the Foundation of the Swift
// toolchain for Linux does not (yet). Here they name the XDG base directories the default store already uses. Each
// is `@_disfavoredOverload`, so that once Foundation has a member of the same name, code calls Foundation's without
// ambiguity and this module can simply be dropped.

extension URL {
    /// The user's documents directory: `$XDG_DOCUMENTS_DIR` when it is set to an absolute path, else
    /// `$HOME/Documents`, as on macOS outside a sandbox. An addition for Linux; Foundation's, where it exists, wins.
    @_disfavoredOverload public static var documentsDirectory: URL {
        XDGDirectories.directory(variable: "XDG_DOCUMENTS_DIR", default: "Documents")
    }

    /// Where programs keep their data: `$XDG_DATA_HOME` (`$HOME/.local/share` when unset), the directory that holds
    /// each program's default store (`<executable>/default.store`). An addition for Linux; Foundation's, where it
    /// exists, wins.
    @_disfavoredOverload public static var applicationSupportDirectory: URL {
        XDGDirectories.directory(variable: "XDG_DATA_HOME", default: ".local/share")
    }

    /// Where programs keep caches: `$XDG_CACHE_HOME` (`$HOME/.cache` when unset). An addition for Linux;
    /// Foundation's, where it exists, wins.
    @_disfavoredOverload public static var cachesDirectory: URL {
        XDGDirectories.directory(variable: "XDG_CACHE_HOME", default: ".cache")
    }
}

extension FileManager {
    /// The directory an app group shares: `$XDG_DATA_HOME/<groupIdentifier>` (created when missing; `nil` when it
    /// cannot be, or the identifier is not a single path component). Programs of one user that name the same
    /// group share it, as apps of one app group do on Apple's platforms. An addition for Linux; Foundation's, where
    /// it exists, wins.
    @_disfavoredOverload
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard !groupIdentifier.isEmpty, !groupIdentifier.contains("/"), groupIdentifier != ".",
            groupIdentifier != ".."
        else { return nil }
        let url = URL.applicationSupportDirectory.appendingPathComponent(groupIdentifier, isDirectory: true)
        do {
            try createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        return url
    }
}

/// The XDG base directory specification's rule: a variable counts only when it holds an absolute path.
enum XDGDirectories {
    static func directory(variable: String, default relative: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(relative, isDirectory: true)
    }
}
