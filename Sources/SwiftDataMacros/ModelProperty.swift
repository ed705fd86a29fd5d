import SwiftSyntax

/// A stored property of a `@Model` class, as the macros see it in the source.
struct ModelProperty {
    let declaration: VariableDeclSyntax
    let binding: PatternBindingSyntax
    let name: String
    /// The declared type, if written.
    let type: TypeSyntax?
    /// The initial value, if written.
    let initializer: ExprSyntax?

    /// The `@Attribute(...)` or `@Relationship(...)` written on the property.
    var attribute: AttributeSyntax? { declaration.attribute(named: "Attribute") }
    var relationship: AttributeSyntax? { declaration.attribute(named: "Relationship") }

    /// Whether `@Attribute(...)` stores the property through a value transformer.
    var isTransformable: Bool {
        guard case .argumentList(let arguments) = attribute?.arguments else { return false }
        return arguments.contains { $0.expression.trimmedDescription.hasPrefix(".transformable") }
    }

    /// Whether the declared type is optional (`T?`, `T!` or `Optional<T>`).
    var isOptionalType: Bool {
        guard let type else { return false }
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text == "Optional" }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.name.text == "Optional" && member.baseType.trimmedDescription == "Swift"
        }
        return false
    }

    /// The declared type with an implicitly unwrapped optional spelled as an optional, usable as a generic
    /// argument.
    var storableType: TypeSyntax? {
        guard let type else { return nil }
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return TypeSyntax(OptionalTypeSyntax(wrappedType: iuo.wrappedType.trimmed))
        }
        return type.trimmed
    }

    /// The value the property's storage starts with when it is plain, not optional; `nil` when it is optional.
    ///
    /// Storage is plain for a property numbered below 32 whose number does not count after inherited properties
    /// (`afterInherited`), of a fixed-size type `@Model` recognises by its spelling (`Int`, `Int8` to `UInt64`,
    /// `Double`, `Float`, `Bool`, `Date`, `UUID`, optionally qualified with `Swift.` or `Foundation.`), not optional,
    /// not transformable and not a relationship. Whether it holds a value is then a bit in the model's state
    /// (`_PersistentState._isLoaded(_:)`): an optional of such a type would take twice the bytes. The value is the
    /// initial one, or the type's zero, which no read returns (a read of a property without a value loads it).
    func plainInitialValue(number: Int, afterInherited: Bool) -> String? {
        guard number < 32, !afterInherited, !isTransformable, relationship == nil,
            let name = type?.as(IdentifierTypeSyntax.self).flatMap({
                $0.genericArgumentClause == nil ? $0.name.text : nil
            })
                ?? qualifiedTypeName
        else { return nil }
        let zero: String
        switch name {
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float":
            zero = "0"
        case "Bool": zero = "false"
        case "Date": zero = ".init(timeIntervalSinceReferenceDate: 0)"
        case "UUID": zero = ".init(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))"
        default: return nil
        }
        return initializer?.trimmedDescription ?? zero
    }

    /// The name of a type written `Swift.Name` or `Foundation.Name`.
    private var qualifiedTypeName: String? {
        guard let member = type?.as(MemberTypeSyntax.self) else { return nil }
        return Self.standardName(member)
    }

    /// Whether the property is an attribute of a standard type `@Model` recognises by its spelling: one of
    /// `plainInitialValue`'s fixed-size types, `String`, `Data`, `URL` or `Decimal`, or an optional of one, not
    /// transformable and not a relationship. Such a value is `Codable`, never `RawRepresentable` and never a model,
    /// so its accessors call the attribute hooks (`_$attributeWillChange`, `_$attributeDidChange`) directly and never
    /// look for a link: the overloads of `_$willSet`, `_$didSet` and `_$linked` that would pick the same hooks cost
    /// the type checker more than the rest of the accessors.
    var isStandardAttribute: Bool {
        guard !isTransformable, relationship == nil, var type else { return false }
        if let optional = type.as(OptionalTypeSyntax.self) {
            type = optional.wrappedType
        } else if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            type = optional.wrappedType
        } else if let wrapped = Self.optionalArgument(of: type) {
            type = wrapped
        }
        let name: String?
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            name = identifier.genericArgumentClause == nil ? identifier.name.text : nil
        } else if let member = type.as(MemberTypeSyntax.self) {
            name = Self.standardName(member)
        } else {
            name = nil
        }
        return name.map(Self.standardTypeNames.contains) ?? false
    }

    /// How a store's reader reads the value of a non-optional standard attribute of a type it reads without a
    /// conversion of its own (`Int` through `int(_:)`, an `Int64`), given the column; `nil` for other attributes. Generated code
    /// calls the reader as the overloads of `read(_:into:)` do for these types, so the value is read without
    /// generic code at run time.
    func directRead(column: String) -> String? {
        guard isStandardAttribute, !isOptionalType, let type else { return nil }
        let name = type.as(IdentifierTypeSyntax.self)?.name.text ?? type.as(MemberTypeSyntax.self)?.name.text
        switch name {
        case "Int", "Int64", "Bool", "Double", "String", "Data", "Date":
            return "try reader.\(name!.prefix(1).lowercased() + name!.dropFirst())(\(column))"
        default: return nil
        }
    }

    /// `T` of a type written `Optional<T>` or `Swift.Optional<T>`.
    private static func optionalArgument(of type: TypeSyntax) -> TypeSyntax? {
        let clause: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional" {
            clause = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional",
            member.baseType.trimmedDescription == "Swift"
        {
            clause = member.genericArgumentClause
        } else {
            clause = nil
        }
        guard let arguments = clause?.arguments, arguments.count == 1 else { return nil }
        return arguments.first?.argument.as(TypeSyntax.self)
    }

    private static let standardTypeNames: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
        "Bool", "Date", "UUID", "String", "Data", "URL", "Decimal",
    ]

    /// The name of a type written `Swift.Name` or `Foundation.Name`.
    private static func standardName(_ member: MemberTypeSyntax) -> String? {
        guard member.genericArgumentClause == nil, ["Swift", "Foundation"].contains(member.baseType.trimmedDescription)
        else { return nil }
        return member.name.text
    }

    /// The stored properties of a class that `@Model` persists, in declaration order: every instance `var`
    /// without accessors that is not `@Transient`.
    static func persisted(in members: MemberBlockItemListSyntax) -> [ModelProperty] {
        members.compactMap { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isPersistable,
                variable.bindings.count == 1, let binding = variable.bindings.first,
                let identifier = binding.pattern.as(IdentifierPatternSyntax.self), !binding.hasAccessors
            else { return nil }
            return ModelProperty(
                declaration: variable, binding: binding, name: identifier.identifier.trimmedDescription,
                type: binding.typeAnnotation?.type, initializer: binding.initializer?.value)
        }
    }
}

extension VariableDeclSyntax {
    /// Whether the declaration could be persisted: an instance `var`, not `lazy`, not `@Transient`.
    var isPersistable: Bool {
        bindingSpecifier.tokenKind == .keyword(.var) && !isStatic && !modifiers.contains { $0.name.text == "lazy" }
            && attribute(named: "Transient") == nil
    }

    var isStatic: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// The attribute with the given name (`Attribute`, or `SwiftData.Attribute`).
    func attribute(named name: String) -> AttributeSyntax? {
        attributes.lazy.compactMap { $0.as(AttributeSyntax.self) }.first { attribute in
            let written = attribute.attributeName.trimmedDescription
            return written == name || written == "SwiftData.\(name)"
        }
    }
}

extension PatternBindingSyntax {
    /// Whether the binding has accessors: a computed property, or a stored one with observers.
    var hasAccessors: Bool { accessorBlock != nil }

    /// Whether the accessors are only `willSet` / `didSet`.
    var hasOnlyObservers: Bool {
        guard let accessorBlock, case .accessors(let accessors) = accessorBlock.accessors else { return false }
        return accessors.allSatisfy {
            $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
        }
    }
}
