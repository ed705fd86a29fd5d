import Foundation
import SwiftDataCore

extension URL {
    /// The URL an SQL store keeps as text (its `absoluteString`); a text that is none is a corrupt value.
    package init(storedText text: String) throws {
        guard let url = URL(string: text) else { throw SwiftDataError.corruptValue("'\(text)' is not a valid URL") }
        self = url
    }
}
