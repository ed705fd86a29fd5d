import Foundation
import Synchronization

/// The name a value transformer is registered under: Foundation's type on Apple's platforms, which Linux
/// Foundation lacks, so this package provides it (with `ValueTransformer`).
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    /// The name.
    public let rawValue: String
    /// The name `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name `rawValue`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Foundation's value transformer, which Linux Foundation lacks: converts a value to another form and back.
/// `@Attribute(.transformable(by:))` stores a property through one, as `Data`. Subclass it and override
/// `transformedValue(_:)` (value to `Data`) and `reverseTransformedValue(_:)` (`Data` to value).
open class ValueTransformer: NSObject {
    /// The registered transformers.
    private static let registry = Mutex<[NSValueTransformerName: Registered]>([:])

    /// A registered transformer. `@unchecked Sendable`: as in Foundation, a transformer is registered once and then
    /// used from any thread.
    private struct Registered: @unchecked Sendable {
        let transformer: ValueTransformer
    }

    public required override init() {}

    /// Registers `transformer` under `name`; `nil` removes the registration.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        registry.withLock { $0[name] = transformer.map(Registered.init) }
    }

    /// The transformer registered under `name`.
    public static func named(_ name: NSValueTransformerName) -> ValueTransformer? {
        registry.withLock { $0[name] }?.transformer
    }

    /// The names of the registered transformers.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        registry.withLock { Array($0.keys) }
    }

    /// Whether `reverseTransformedValue(_:)` is supported.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The class of the transformed values.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// The value in its transformed form; the default returns it unchanged.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The value back from its transformed form; the default returns it unchanged.
    open func reverseTransformedValue(_ value: Any?) -> Any? { value }
}
