/// The value of a relationship property: a model, an optional model, or an array (optionally optional) of
/// models (internal plumbing; not API). `@Model`-generated setters reach relationship bookkeeping through
/// overloads constrained to this protocol, chosen at compile time.
public protocol _RelationshipValue {
    /// The related models the value holds.
    var _relatedModels: [any PersistentModel] { get }
}

extension Optional: _RelationshipValue where Wrapped: _RelationshipValue {
    public var _relatedModels: [any PersistentModel] { self?._relatedModels ?? [] }
}

extension Array: _RelationshipValue where Element: PersistentModel {
    public var _relatedModels: [any PersistentModel] { self }
}
