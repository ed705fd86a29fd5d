import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_PersistedProperty(index)`, added by `@Model`: turns a stored property into a computed one over typed
/// storage `_$name`, with observation and change tracking. The storage is `Optional` of the property's type
/// (`nil` means "no value yet"), so it exists before the class's own initializer runs; the storage's type comes
/// from the declared type, or from the initial value when no type is written.
///
/// With `afterInherited: true` (in a class that may inherit persisted properties), the property's number counts
/// from the inherited ones (`_$InheritedProperties.count`: zero for a root model, read once at run time for a
/// subclass), and the property has an `init` accessor, so that a subclass's initializer can assign it before
/// `super.init`, as Swift requires of a stored property.
public enum PersistedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let (property, number, afterInherited) = property(declaration, node) else { return [] }
        let name = property.name
        let index = afterInherited ? "_$InheritedProperties.count + \(number)" : "\(number)"
        // A transformable value's type is the transformer's business, not the compiler's.
        let didSet = property.isTransformable ? "_$didSetTransformable" : "_$didSet"
        let keyPath = keyPathExpression(name, in: context)
        if property.plainInitialValue(number: number, afterInherited: afterInherited) != nil {
            return plainAccessors(name, index: index, keyPath: keyPath)
        }
        let initializer: [AccessorDeclSyntax] =
            afterInherited
            ? [
                """
                @storageRestrictions(initializes: _$\(raw: name))
                init(initialValue) {
                    _$\(raw: name) = .some(initialValue)
                }
                """
            ] : []
        let hooks = Hooks(property, index: index, didSet: didSet)
        // A standard attribute is never linked: an empty storage means the value was not loaded.
        let linked =
            property.isStandardAttribute
            ? "" : "if let linked = _$linked(\(index), _$\(name)) {\n            return linked\n        }\n        "
        return initializer + [
            """
            get {
                _$isObserved = true
                _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
                if case .none = _$\(raw: name) {
                    \(raw: linked)_$fault(\(raw: index))
                }
                return _$\(raw: name)!
            }
            """,
            """
            set {
                \(raw: hooks.willSet)
                \(raw: hooks.keepOldValue)if _$isObserved {
                    _$observationRegistrar.withMutation(of: self, keyPath: \(raw: keyPath)) {
                        _$\(raw: name) = newValue
                    }
                } else {
                    _$\(raw: name) = newValue
                }
                \(raw: hooks.didSet("newValue"))
            }
            """,
            // An in-place change (`+=`, `append`) reads the value and writes it back: it tells the registrar of the
            // change only when the model was read before, since only a read can make an observer, and an observer
            // made by this read is installed after the change.
            """
            _modify {
                let observed = _$isObserved
                _$isObserved = true
                _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
                \(raw: hooks.willSet)
                if case .none = _$\(raw: name) {
                    _$fault(\(raw: index))
                }
                \(raw: hooks.keepOldValue)if observed {
                    _$observationRegistrar.willSet(self, keyPath: \(raw: keyPath))
                }
                defer {
                    if observed {
                        _$observationRegistrar.didSet(self, keyPath: \(raw: keyPath))
                    }
                    \(raw: hooks.didSet("_$\(name)!"))
                }
                yield &_$\(raw: name)!
            }
            """,
        ]
    }

    /// The calls a setter makes around the change: the attribute hooks for a standard attribute, which need no
    /// values; otherwise the overloaded hooks, which pick by the property's type what a change does (a
    /// relationship's updates its inverse), given the value before the change (`oldValue`) and after.
    private struct Hooks {
        /// Called before the change.
        let willSet: String
        /// Keeps the value before the change, for `didSet`; followed by a new line and the indentation of an
        /// accessor's body where it is not empty.
        let keepOldValue: String
        private let didSetCall: (String) -> String

        init(_ property: ModelProperty, index: String, didSet: String) {
            if property.isStandardAttribute {
                willSet = "_$attributeWillChange(\(index))"
                keepOldValue = ""
                didSetCall = { _ in "_$attributeDidChange(\(index))" }
            } else {
                willSet = "_$willSet(\(index), _$\(property.name))"
                keepOldValue = "let oldValue = _$\(property.name)\n    "
                didSetCall = { "\(didSet)(\(index), oldValue, \($0))" }
            }
        }

        /// Called after the change, with `newValue` the value after it.
        func didSet(_ newValue: String) -> String { didSetCall(newValue) }
    }

    /// The accessors of a property with plain storage (see `ModelProperty.plainInitialValue`): the state's bit for
    /// the property, not `nil`, tells whether the storage holds a value. A fixed-size attribute is never linked and
    /// never transformable.
    private static func plainAccessors(_ name: String, index: String, keyPath: String) -> [AccessorDeclSyntax] {
        [
            """
            get {
                _$isObserved = true
                _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
                if !_$persistentState._isLoaded(\(raw: index)) {
                    _$fault(\(raw: index))
                }
                return _$\(raw: name)
            }
            """,
            """
            set {
                _$attributeWillChange(\(raw: index))
                if _$isObserved {
                    _$observationRegistrar.withMutation(of: self, keyPath: \(raw: keyPath)) {
                        _$\(raw: name) = newValue
                        _$persistentState._setLoaded(\(raw: index))
                    }
                } else {
                    _$\(raw: name) = newValue
                    _$persistentState._setLoaded(\(raw: index))
                }
                _$attributeDidChange(\(raw: index))
            }
            """,
            """
            _modify {
                let observed = _$isObserved
                _$isObserved = true
                _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
                _$attributeWillChange(\(raw: index))
                if !_$persistentState._isLoaded(\(raw: index)) {
                    _$fault(\(raw: index))
                }
                if observed {
                    _$observationRegistrar.willSet(self, keyPath: \(raw: keyPath))
                }
                defer {
                    if observed {
                        _$observationRegistrar.didSet(self, keyPath: \(raw: keyPath))
                    }
                    _$attributeDidChange(\(raw: index))
                }
                yield &_$\(raw: name)
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let (property, number, afterInherited) = property(declaration, node) else { return [] }
        let storage = "_$\(property.name)"
        let keyPaths: [DeclSyntax] =
            cachedKeyPath(property.name, in: context).map { cached in
                ["private static let \(raw: cached.name) = \\\(raw: cached.className).\(raw: property.name)"]
            } ?? []
        // Only the generated accessors touch the storage, one statement at a time, so the run-time exclusivity
        // check each access of a class's stored property would make (a fifth of a fetch's time) finds nothing.
        if let initial = property.plainInitialValue(number: number, afterInherited: afterInherited),
            let type = property.storableType
        {
            return keyPaths + ["@exclusivity(unchecked) private var \(raw: storage): \(type) = \(raw: initial)"]
        }
        switch (property.storableType, property.initializer) {
        case (let type?, let initial?):
            return keyPaths + [
                "@exclusivity(unchecked) private var \(raw: storage): Swift.Optional<\(type)> = .some(\(initial.trimmed))"
            ]
        case (let type?, nil):
            // An optional property without an initial value starts as nil, as Swift's stored optionals do.
            let initial = property.isOptionalType ? ".some(nil)" : "nil"
            return keyPaths + [
                "@exclusivity(unchecked) private var \(raw: storage): Swift.Optional<\(type)> = \(raw: initial)"
            ]
        case (nil, let initial?):
            return keyPaths + [
                "@exclusivity(unchecked) private var \(raw: storage) = SwiftData._initialPersistedValue(\(initial.trimmed))"
            ]
        case (nil, nil):
            return []
        }
    }

    /// The key path the accessors give the observation registrar: the class's static one where it has them, or a
    /// literal, which costs a call into the runtime (`swift_getKeyPath`) at each read of a fetched model, and the
    /// type checker an inference of its type at each use.
    private static func keyPathExpression(_ name: String, in context: some MacroExpansionContext) -> String {
        guard let cached = cachedKeyPath(name, in: context) else { return "\\.\(name)" }
        return "\(cached.className).\(cached.name)"
    }

    /// The name of a static key path to the property, made once per class, and the class's name; `nil` where Swift
    /// allows no static stored property (see `allowsStaticProperties`).
    private static func cachedKeyPath(
        _ name: String, in context: some MacroExpansionContext
    ) -> (name: String, className: String)? {
        guard let classDecl = context.lexicalContext.first?.as(ClassDeclSyntax.self),
            allowsStaticProperties(in: context.lexicalContext)
        else { return nil }
        return ("_$keyPath$\(name)", classDecl.name.trimmedDescription)
    }

    /// Whether a class in `scopes` (the class and the types around it) may have static stored properties: not a
    /// generic class, nor one inside a generic type or an extension, whose type the macro cannot see.
    static func allowsStaticProperties(in scopes: [Syntax]) -> Bool {
        scopes.allSatisfy { scope in
            if let type = scope.as(ClassDeclSyntax.self) { return type.genericParameterClause == nil }
            if let type = scope.as(StructDeclSyntax.self) { return type.genericParameterClause == nil }
            if let type = scope.as(EnumDeclSyntax.self) { return type.genericParameterClause == nil }
            return false
        }
    }

    /// The property, its number, and whether the number counts from inherited properties.
    private static func property(
        _ declaration: some DeclSyntaxProtocol, _ node: AttributeSyntax
    ) -> (ModelProperty, Int, afterInherited: Bool)? {
        guard let variable = declaration.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
            let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
            case .argumentList(let arguments) = node.arguments,
            let index = arguments.first.flatMap({ Int($0.expression.trimmedDescription) })
        else { return nil }
        let afterInherited = arguments.contains {
            $0.label?.text == "afterInherited" && $0.expression.trimmedDescription == "true"
        }
        let property = ModelProperty(
            declaration: variable, binding: binding, name: identifier.identifier.trimmedDescription,
            type: binding.typeAnnotation?.type, initializer: binding.initializer?.value)
        return (property, index, afterInherited)
    }
}
