/// How many persisted properties a model class inherits: none, for every class that does not declare its own
/// `_$InheritedProperties` (internal plumbing for `@Model`; not API).
///
/// Generated accessors of a class that may be a subclass number its properties from
/// `_$InheritedProperties.count`. A subclass of a model declares a nested `_$InheritedProperties` whose count is
/// its superclass's number of persisted properties; any other class finds this one, whose count the compiler folds
/// away.
public enum _$InheritedProperties {
    /// No inherited properties.
    @inlinable public static var count: Int { 0 }
}
