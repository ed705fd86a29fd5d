import Foundation

extension Schema.Attribute {
    /// The value an attribute reads as when its stored value cannot be loaded any more (the model left its context
    /// before the value was read, or the row is gone): `nil` for an optional, the declared initial value, or the
    /// type's empty value (empty data, string or collection, zero, `false`). `.notLoaded` when the type has none.
    package var unloadedValue: _PropertyValue {
        if valueType is any _OptionalValue.Type { return .loaded(nil) }
        if let defaultValue, type(of: defaultValue) == valueType { return .loaded(defaultValue) }
        if let collection = valueType as? any RangeReplaceableCollection.Type { return .loaded(collection.init()) }
        if let number = valueType as? any AdditiveArithmetic.Type { return .loaded(number.zero) }
        if valueType == Bool.self { return .loaded(false) }
        return .notLoaded
    }
}
