/// The registered models of one model type, as a fetch looks up the targets of its rows' to-one relationships: the
/// type's identity map and the conversion of its entries to models, both found once per fetch rather than once per
/// row (a dictionary lookup and a protocol conformance check each).
struct RegisteredTargets {
    private let map: IdentityMap
    private let asModel: (AnyObject) -> any PersistentModel

    init(_ type: any PersistentModel.Type, in registry: ModelRegistry) {
        map = registry.map(for: ObjectIdentifier(type))
        asModel = Self.conversion(to: type)
    }

    /// The registered model for the row `key`.
    func model(_ key: Int64) -> (any PersistentModel)? {
        map.model(key).map(asModel)
    }

    /// Entries of `type`'s identity map are models of that type.
    private static func conversion<M: PersistentModel>(to type: M.Type) -> (AnyObject) -> any PersistentModel {
        // unsafeDowncast: the registry files each model in the identity map of its own type.
        { unsafeDowncast($0, to: M.self) }
    }
}
