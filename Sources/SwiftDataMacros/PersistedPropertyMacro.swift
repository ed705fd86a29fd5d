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
    /// The generated text is used as written: formatting it took half of the macro program's time.
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let (property, number, afterInherited) = property(declaration, node) else { return [] }
        // Indented here, as the compiler leaves the text unformatted.
        return accessors(property, number: number, afterInherited: afterInherited, in: context).map {
            "\(raw: ModelMacro.indented($0))"
        }
    }

    /// The text of the property's accessors.
    private static func accessors(
        _ property: ModelProperty, number: Int, afterInherited: Bool, in context: some MacroExpansionContext
    ) -> [String] {
        let name = property.name
        let index = afterInherited ? "_$InheritedProperties.count + \(number)" : "\(number)"
        // A transformable value's type is the transformer's business, not the compiler's.
        let didSet = property.isTransformable ? "_$didSetTransformable" : "_$didSet"
        let keyPath = keyPathExpression(name, in: context)
        let observe = "\(keyPath), _$observationRegistrar"
        if property.plainInitialValue(number: number, afterInherited: afterInherited) != nil {
            return standardAccessors(name, index: index, observe: observe, plain: true)
        }
        let initializer: [String] =
            afterInherited
            ? [
                """
                @storageRestrictions(initializes: _$\(name))
                init(initialValue) {
                    _$\(name) = .some(initialValue)
                }
                """
            ] : []
        guard !property.isStandardAttribute else {
            return initializer + standardAccessors(name, index: index, observe: observe)
        }
        // Other types' hooks are overloaded: they pick by the property's type what a change does (a relationship's
        // updates its inverse), given the value before the change (`oldValue`) and after.
        return initializer + [
            """
            get {
                _$access(\(observe))
                if case .none = _$\(name) {
                    if let linked = _$linked(\(index), _$\(name)) {
                        return linked
                    }
                    _$fault(\(index))
                }
                return _$\(name)!
            }
            """,
            """
            set {
                _$willSet(\(index), _$\(name))
                let oldValue = _$\(name)
                let observed = _$willMutate(\(observe))
                _$\(name) = newValue
                _$didMutate(\(observe), observed)
                \(didSet)(\(index), oldValue, newValue)
            }
            """,
            // An in-place change (`+=`, `append`) reads the value and writes it back: it tells the registrar of the
            // change only when the model was read before, since only a read can make an observer, and an observer
            // made by this read is installed after the change.
            """
            _modify {
                let observed = _$isObserved
                _$access(\(observe))
                _$willSet(\(index), _$\(name))
                if case .none = _$\(name) {
                    _$fault(\(index))
                }
                let oldValue = _$\(name)
                if observed {
                    _$observationRegistrar.willSet(self, keyPath: \(keyPath))
                }
                defer {
                    _$didMutate(\(observe), observed)
                    \(didSet)(\(index), oldValue, _$\(name)!)
                }
                yield &_$\(name)!
            }
            """,
        ]
    }

    /// The accessors of an attribute of a standard type (see `ModelProperty.isStandardAttribute`), which is never
    /// linked and needs no values for its hooks: each is a few calls of `PersistentModel`'s accessor functions,
    /// given the property's number, key path and registrar (`observe`). Its storage is an optional, or plain (see
    /// `ModelProperty.plainInitialValue`), where the state's bit for the property, not `nil`, tells whether it holds
    /// a value.
    private static func standardAccessors(
        _ name: String, index: String, observe: String, plain: Bool = false
    ) -> [String] {
        let (suffix, unwrap) = plain ? ("Plain", "") : ("", "!")
        let stored = plain ? "" : ", _$\(name)"
        return [
            // Storage is read after the registrar's call, so that no copy of the value is kept across it.
            plain
                ? """
                get {
                    _$readPlain(\(index), \(observe))
                    return _$\(name)
                }
                """
                : """
                get {
                    _$access(\(observe))
                    if case .none = _$\(name) {
                        _$fault(\(index))
                    }
                    return _$\(name)!
                }
                """,
            """
            set {
                let observed = _$willChange(\(index), \(observe))
                _$\(name) = newValue
                _$didChange\(suffix)(\(index), \(observe), observed)
            }
            """,
            // An in-place change tells the registrar only when the model was read before (see `_$willModify`).
            """
            _modify {
                let observed = _$willModify\(suffix)(\(index), \(observe)\(stored))
                defer {
                    _$didChange(\(index), \(observe), observed)
                }
                yield &_$\(name)\(unwrap)
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
