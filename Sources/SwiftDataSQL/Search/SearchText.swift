import Foundation

/// Text as a `.search` index keeps it, and as needles are looked up in it: compatibility-decomposed (`ﬁ` is `fi`,
/// `é` is `e` and a mark), without marks or default-ignorable characters, each letter lower-, upper-, then lowercased (so
/// that `ß`, `SS` and `ss`, or `ς`, `Σ` and `σ`, meet). Each scalar folds on its own, so a text that contains
/// another, by `Character`s, case- or diacritic-insensitively, folds to a text that contains the other's folding:
/// the index finds a superset of the matches, and the predicate decides.
package enum SearchText {
    /// The folded text.
    package static func folded(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var folded = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCompatibilityMapping.unicodeScalars where isKept(scalar) {
            if scalar.isASCII {
                folded.append(contentsOf: String(scalar).lowercased().unicodeScalars)
                continue
            }
            let cased = scalar.properties.lowercaseMapping.uppercased().lowercased()
            folded.append(contentsOf: cased.decomposedStringWithCompatibilityMapping.unicodeScalars.filter(isKept))
        }
        return String(folded)
    }

    /// Whether a needle has a character that folds to several (`ß`, `ﬁ`): Foundation's case- and diacritic-insensitive
    /// search matches such a character in ways no folding reproduces (`"ẞ sÉẞ"` contains `"SS ß"`), so the index is
    /// not used for it.
    package static func expands(_ needle: String) -> Bool {
        needle.unicodeScalars.contains { !$0.isASCII && folded(String($0)).unicodeScalars.count > 1 }
    }

    /// Whether a scalar is kept: not a mark, not default-ignorable.
    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: false
        default: !scalar.properties.isDefaultIgnorableCodePoint
        }
    }
}
