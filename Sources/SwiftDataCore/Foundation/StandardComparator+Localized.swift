import Foundation
@_spi(Reflection) import Swift

#if !canImport(Darwin)
    extension String.StandardComparator {
        /// Compares strings as the Finder does: case-insensitively, numbers by value ("file9" before "file10"), in the
        /// current locale. Apple's Foundation has this comparator; Foundation on Linux does not, so
        /// `SortDescriptor(\.name, comparator: .localizedStandard)` written for Apple's platforms compiles here.
        ///
        /// Sort descriptors of models built with it order exactly as Apple's (see `SortDescriptor.init(_:comparator:)`).
        /// Used anywhere else, the comparator's own `compare` is Foundation on Linux's, which ignores the locale and
        /// traps on case-insensitive comparisons of non-ASCII text; so it compares numbers by value but is
        /// case-sensitive.
        public static let localizedStandard = String.StandardComparator.configured(options: [.numeric], localized: true)

        /// Compares strings in the current locale. Sort descriptors of models built with it order exactly as Apple's;
        /// anywhere else Foundation on Linux compares without a locale, as `.lexical` does.
        public static let localized = String.StandardComparator.configured(options: [], localized: true)

        /// A comparator with the given configuration. Foundation offers no initializer for it, so this writes the
        /// two private stored properties that `.lexical` lacks, found by name and type through the runtime's
        /// reflection, and checks the result through the comparator's own `Encodable` conformance. If either step
        /// fails (a future Foundation changed the layout), it returns `.lexical` and says so once.
        private static func configured(options: String.CompareOptions, localized: Bool) -> String.StandardComparator {
            var comparator = String.StandardComparator.lexical
            var offsets: [String: Int] = [:]
            _ = _forEachField(of: String.StandardComparator.self, options: []) { name, offset, type, _ in
                let name = String(cString: name)
                if (name == "options" && type == String.CompareOptions.self)
                    || (name == "isLocalized" && type == Bool.self)
                {
                    offsets[name] = offset
                }
                return true
            }
            if let optionsOffset = offsets["options"], let localizedOffset = offsets["isLocalized"] {
                withUnsafeMutableBytes(of: &comparator) { bytes in
                    bytes.storeBytes(of: options, toByteOffset: optionsOffset, as: String.CompareOptions.self)
                    bytes.storeBytes(of: localized, toByteOffset: localizedOffset, as: Bool.self)
                }
                if comparator.encodes(options: options, localized: localized) { return comparator }
            }
            Log.warningOnce(
                "String.StandardComparator has an unexpected layout; .localizedStandard and .localized sort as .lexical"
            )
            return .lexical
        }

        /// Whether the comparator's archived form has these options and localization.
        private func encodes(options: String.CompareOptions, localized: Bool) -> Bool {
            struct Archived: Decodable {
                var options: UInt
                var isLocalized: Bool
            }
            guard let data = try? JSONEncoder().encode(self),
                let archived = try? JSONDecoder().decode(Archived.self, from: data)
            else { return false }
            return archived.options == options.rawValue && archived.isLocalized == localized
        }
    }
#endif
