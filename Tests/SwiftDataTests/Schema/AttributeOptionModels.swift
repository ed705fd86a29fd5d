import Foundation
import SwiftData

/// A type that is not `Codable`: only a value transformer can store it.
final class Hue: Equatable {
    let degrees: Double
    init(degrees: Double) { self.degrees = degrees }
    static func == (lhs: Hue, rhs: Hue) -> Bool { lhs.degrees == rhs.degrees }
}

final class HueTransformer: ValueTransformer {
    override func transformedValue(_ value: Any?) -> Any? {
        guard let hue = value as? Hue else { return nil }
        return withUnsafeBytes(of: hue.degrees.bitPattern.bigEndian) { Data($0) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 8 else { return nil }
        let bits = data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Hue(degrees: Double(bitPattern: bits))
    }
}

/// Every attribute option.
@Model final class Palette {
    var name: String
    @Attribute(.transformable(by: HueTransformer.self)) var hue: Hue
    @Attribute(.transformable(by: HueTransformer.self)) var accent: Hue?
    @Attribute(.codable) var swatches: [String] = []
    @Attribute(.ephemeral) var draft: String = "unsaved"
    @Attribute(.externalStorage) var thumbnail = Data()
    @Attribute(.externalStorage) var original: Data?
    @Attribute(.preserveValueOnDeletion, .spotlight, .allowsCloudEncryption, hashModifier: "v2") var note = ""

    init(name: String, hue: Hue) {
        self.name = name
        self.hue = hue
    }
}

/// `Palette` before its thumbnail moved out of the rows.
enum InlinePalette {
    @Model final class Palette {
        var name: String
        @Attribute(.transformable(by: HueTransformer.self)) var hue: Hue
        @Attribute(.transformable(by: HueTransformer.self)) var accent: Hue?
        @Attribute(.codable) var swatches: [String] = []
        var thumbnail = Data()
        @Attribute(.externalStorage) var original: Data?
        var note = ""
        init(name: String, hue: Hue) {
            self.name = name
            self.hue = hue
        }
    }
}
