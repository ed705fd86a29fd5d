extension Schema {
    /// A semantic version of a schema.
    public struct Version: Codable, Comparable, CustomStringConvertible, Hashable, Sendable {
        /// The major version number.
        public let major: Int
        /// The minor version number.
        public let minor: Int
        /// The patch version number.
        public let patch: Int

        /// The version `major.minor.patch`; the numbers cannot be negative (the program stops if one is).
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            precondition(major >= 0 && minor >= 0 && patch >= 0, "schema version numbers cannot be negative")
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        public var description: String { "\(major).\(minor).\(patch)" }
    }
}
