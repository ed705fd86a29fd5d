import Foundation
import SwiftData

/// The root of a hierarchy whose subclass keeps a value in external storage.
@Model class StoredAsset {
    var name: String

    init(name: String) {
        self.name = name
    }
}

/// A subclass with an externally stored attribute of its own.
@Model final class StoredPicture: StoredAsset {
    @Attribute(.externalStorage) var pixels = Data()
}
