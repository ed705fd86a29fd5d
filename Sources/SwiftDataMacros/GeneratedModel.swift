import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The members `@Model` writes for one class, from its persisted properties.
///
/// A root model numbers its persisted properties from 0. A subclass of a model numbers its own after the ones it
/// inherits, whose count it reads once at run time (`_$InheritedProperties.count`, its superclass's
/// `schemaMetadata.count`): the macro sees only the subclass's source. Its generated functions handle its own
/// properties and pass the others to `super`. Key paths in `schemaMetadata` are rooted at the class asked, so a
/// subclass's metadata lists its inherited properties as `\Subclass.name`, the key paths its predicates use.
struct GeneratedModel {
    let classDecl: ClassDeclSyntax
    let className: String
    /// `public ` or nothing.
    let access: String
    let isFinal: Bool
    let properties: [ModelProperty]
    /// The key path of each property that the registrar is given, as the property's accessors give it.
    let keyPaths: [String]
    /// Whether the class keeps its key paths in static properties (`_$keyPath$name`).
    let cachesKeyPaths: Bool

    init(_ classDecl: ClassDeclSyntax, in context: some MacroExpansionContext) {
        self.classDecl = classDecl
        className = classDecl.name.trimmedDescription
        access = ModelMacro.accessModifier(of: classDecl)
        isFinal = classDecl.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        properties = ModelProperty.persisted(in: classDecl.memberBlock.members)
        // The static key paths `@_PersistedProperty` makes, where the class may have them.
        let cached = PersistedPropertyMacro.allowsStaticProperties(in: [Syntax(classDecl)] + context.lexicalContext)
        let name = className
        cachesKeyPaths = cached
        keyPaths = properties.map { cached ? "\(name)._$keyPath$\($0.name)" : "\\.\($0.name)" }
    }

    // MARK: Property functions

    /// Whether property `index` has plain storage (see `ModelProperty.plainInitialValue`). A class that may have a
    /// superclass numbers its properties after the ones it may inherit (see `ModelMacro.mayInheritProperties`), so
    /// keeps them optional.
    func isPlain(_ index: Int) -> Bool {
        properties[index].plainInitialValue(number: index, afterInherited: ModelMacro.mayInheritProperties(classDecl))
            != nil
    }

    /// The properties with plain storage declared with an initial value, as `_PersistentState`'s bits: they hold a
    /// value from the start.
    var initiallyLoaded: UInt32 {
        properties.indices.reduce(0) { mask, index in
            isPlain(index) && properties[index].initializer != nil ? mask | 1 << UInt32(index) : mask
        }
    }

    /// How property `index` is read from column `column + offset`: a non-optional attribute of a type the reader
    /// reads directly (see `ModelProperty.directRead`) by that call, others in plain storage by
    /// `read(_:offset:intoPlain:)`, other attributes of standard types (see `ModelProperty.isStandardAttribute`) by
    /// `readValue(_:offset:into:)`, and any other through the overloads of `read(_:into:)`, which pick by the
    /// storage's type.
    private func read(_ index: Int, offset: Int = 0) -> String {
        let property = properties[index]
        let column = offset == 0 ? "column" : "column + \(offset)"
        if let direct = property.directRead(column: column) { return "_$\(property.name) = \(direct)" }
        let storage = "&_$\(property.name)"
        let at = offset == 0 ? "column" : "column, offset: \(offset)"
        if isPlain(index) { return "try reader.read(\(at), intoPlain: \(storage))" }
        if property.isStandardAttribute { return "try reader.readValue(\(at), into: \(storage))" }
        return "try reader.read(\(column), into: \(storage))"
    }

    var loads: [String] {
        properties.indices.map { index in
            guard isPlain(index) else { return "case \(index): \(read(index))" }
            return """
                case \(index):
                    \(read(index))
                    _$persistentState._setLoaded(\(index))
                """
        }
    }

    /// `_$loadRow` of a root model: every persisted property, each from the column after the previous one's, in one
    /// call (a subclass, which has more properties, inherits it and is told apart by the count).
    var rowLoader: DeclSyntax {
        let reads = properties.indices.map { index in
            read(index, offset: index) + "\n    "
        }
        let plain = properties.indices.reduce(UInt32(0)) { isPlain($1) ? $0 | 1 << UInt32($1) : $0 }
        let loaded = plain == 0 ? "" : "_$persistentState._setLoaded(properties: \(Self.hex(plain)))\n    "
        return """
            \(raw: access)func _$loadRow(_ count: Int, from reader: any SwiftData._RowReader, column: Int32) throws -> Bool {
                guard _$readsRow(count, \(raw: properties.count)) else {
                    return false
                }
                \(raw: reads.joined())\(raw: loaded)return true
            }
            """
    }

    /// `_$store`'s cases, written as `read` reads: the writer's overloads for an attribute the reader reads directly
    /// (whose direct paths write without generic code; `writePlain` costs an insert about 4 % more instructions), a
    /// plain property's value typed where it is made, so that the type checker need not infer it through them;
    /// `writePlain` and `writeValue` for other standard attributes.
    var stores: [String] {
        properties.enumerated().map { index, property in
            let name = ModelMacro.literal("\(className).\(property.name)")
            let storage = "_$\(property.name)"
            let direct = property.directRead(column: "column") != nil
            switch (isPlain(index), direct) {
            case (true, true):
                return """
                    case \(index):
                        let value: Swift.Optional<\(property.storableType?.trimmedDescription ?? "")> = _$persistentState._isLoaded(\(index)) ? \(storage) : nil
                        try writer.write(value, parameter, property: \(name))
                    """
            case (true, false):
                return
                    "case \(index): try writer.writePlain(\(storage), loaded: _$persistentState._isLoaded(\(index)), parameter, property: \(name))"
            case (false, _):
                let write = property.isStandardAttribute && !direct ? "writeValue" : "write"
                return "case \(index): try writer.\(write)(\(storage), parameter, property: \(name))"
            }
        }
    }

    /// `_$get`'s cases. A property without a value may be a linked relationship, found by its number: the case's
    /// in a root model, `number` in a subclass, whose cases count from its own first property. A property whose type
    /// is optional goes through `_$optionalValue`, and one whose type is not written (and may be optional) unwraps
    /// its storage here, so that an empty optional is given as `nil` rather than a value holding `nil`, as it would
    /// be through `_$value`'s generic type.
    func gets(number: String? = nil) -> [String] {
        properties.enumerated().map { index, property in
            let storage = "_$\(property.name)"
            let number = number ?? "\(index)"
            if isPlain(index) { return "case \(index): return _$plainValue(\(index), \(storage))" }
            if property.isOptionalType { return "case \(index): return _$optionalValue(\(number), \(storage))" }
            guard property.type == nil else { return "case \(index): return _$value(\(number), \(storage))" }
            return
                "case \(index): if let value = \(storage) { return .loaded(value) } else { return _$linkedValue(\(number)) }"
        }
    }

    /// `_$set`'s cases: one call that stores the value and tells the registrar of the change. `.notLoaded` empties
    /// optional storage, and clears plain storage's bit, leaving the value.
    var sets: [String] {
        properties.enumerated().map { index, property in
            let (assign, number) = isPlain(index) ? ("_$assignPlain", "\(index)") : ("_$assign", "property")
            return
                "case \(index): try \(assign)(\(number), value, &_$\(property.name), \(keyPaths[index]), _$observationRegistrar)"
        }
    }

    /// `value` as a hexadecimal literal.
    static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }

    // MARK: Schema metadata

    /// `schemaMetadata` of a final root model: its properties, rooted at the class.
    var finalSchemaMetadata: DeclSyntax {
        """
        \(raw: access)static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
            [\(raw: cachesKeyPaths ? metadataList(keyPaths: keyPaths) : metadataList(root: className))]
        }
        """
    }

    /// The members of a root model that may have subclasses: its metadata for any subclass as root, the root's
    /// name for subclasses' `init(backingData:)`, and constraints that subclasses may override.
    var openRootMembers: [DeclSyntax] {
        [
            "\(raw: access)typealias _$RootModel = \(raw: className)",
            """
            \(raw: access)class var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                _$propertyMetadata(\(raw: className).self)
            }
            """,
            """
            \(raw: access)static func _$propertyMetadata<Root: \(raw: className)>(_ root: Root.Type) -> [SwiftData.Schema.PropertyMetadata] {
                [\(raw: metadataList(root: "Root"))]
            }
            """,
        ] + constraints(emptyOnes: true)
    }

    /// The properties' metadata, with key paths rooted at `root`.
    private func metadataList(root: String) -> String {
        metadataList(keyPaths: properties.map { "\\\(root).\($0.name)" })
    }

    /// The properties' metadata with the given key paths: a final class's are the ones its accessors use, so the type
    /// checker infers no key path literal's type.
    private func metadataList(keyPaths: [String]) -> String {
        let entries = zip(properties, keyPaths).map { property, keyPath in
            "SwiftData.Schema.PropertyMetadata(name: \(ModelMacro.literal(property.name)), keypath: \(keyPath), defaultValue: \(Self.defaultValue(of: property)), metadata: \(Self.schemaProperty(of: property)))"
        }
        return entries.isEmpty
            ? "" : "\n" + ModelMacro.indented(ModelMacro.indented(entries.joined(separator: ",\n"))) + "\n    "
    }

    // MARK: Subclasses

    /// The members of a subclass of the `@Model` class `superclass`.
    func subclassMembers(of superclass: TypeSyntax) -> [DeclSyntax] {
        let parent = superclass.trimmedDescription
        let list = metadataList(root: "Root")
        var members: [DeclSyntax] = [
            """
            enum _$InheritedProperties {
                static let count = \(raw: parent).schemaMetadata.count
            }
            """
        ]
        // Without an initializer of its own the class inherits every initializer of its superclass; with one, it
        // must provide the required one.
        if hasDesignatedInitializer {
            members.append(
                """
                \(raw: access)required init(backingData: borrowing any SwiftData.BackingData<_$RootModel>) {
                    super.init(backingData: backingData)
                }
                """)
        }
        members += [
            """
            \(raw: access)override class var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                _$propertyMetadata(\(raw: className).self)
            }
            """,
            """
            \(raw: access)static func _$propertyMetadata<Root: \(raw: className)>(_ root: Root.Type) -> [SwiftData.Schema.PropertyMetadata] {
                \(raw: parent)._$propertyMetadata(root) + [\(raw: list)]
            }
            """,
            override(
                "func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws",
                cases: loads, otherwise: "try super._$load(property, from: reader, column: column)"),
            override(
                "func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws",
                cases: stores, otherwise: "try super._$store(property, into: writer, parameter: parameter)"),
            override(
                "func _$get(_ property: Int) -> SwiftData._PropertyValue", cases: gets(number: "property"),
                otherwise: "return super._$get(property)"),
            override(
                "func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws", cases: sets,
                otherwise: "try super._$set(property, value)"),
        ]
        return members + constraints(emptyOnes: false, overriding: true)
    }

    private func override(_ signature: String, cases: [String], otherwise: String)
        -> DeclSyntax
    {
        ModelMacro.switchFunction(
            "\(access)override \(signature)", cases: cases, otherwise: otherwise,
            on: "property - _$InheritedProperties.count")
    }

    /// Whether the class declares a designated initializer (a convenience one keeps the inherited ones).
    private var hasDesignatedInitializer: Bool {
        classDecl.memberBlock.members.contains { member in
            guard let initializer = member.decl.as(InitializerDeclSyntax.self) else { return false }
            return !initializer.modifiers.contains { $0.name.tokenKind == .keyword(.convenience) }
        }
    }

    // MARK: Constraints

    /// `_$uniquenessConstraints`, `_$indices`, `_$spatialIndices` and `_$searchIndices` from the class body's `#Unique`
    /// and `#Index`:
    /// those it has (all of them, empty or not, with `emptyOnes`), as class members of a class that may have
    /// subclasses. An `#Index` argument is a list of key paths or `.binary(list)` (a binary index), or
    /// `.rtree(list)` (a spatial one), or `.search(list)`.
    func constraints(emptyOnes: Bool, overriding: Bool = false) -> [DeclSyntax] {
        let keyword = overriding ? "override class" : isFinal ? "static" : "class"
        let macros = classDecl.memberBlock.members.compactMap { $0.decl.as(MacroExpansionDeclSyntax.self) }
        var lists: [String: [String]] = [:]
        for macro in macros {
            for argument in macro.arguments {
                let (member, list): (String, ExprSyntax)
                switch macro.macroName.text {
                case "Unique": (member, list) = ("_$uniquenessConstraints", argument.expression)
                case "Index":
                    let (kind, indexed) = Self.indexKind(argument.expression)
                    let members = ["rtree": "_$spatialIndices", "search": "_$searchIndices"]
                    (member, list) = (members[kind] ?? "_$indices", indexed)
                default: continue
                }
                lists[member, default: []].append("\(Self.rooted(list, at: className)) as [AnyKeyPath]")
            }
        }
        return ["_$uniquenessConstraints", "_$indices", "_$spatialIndices", "_$searchIndices"].compactMap { member in
            guard let list = lists[member] ?? (emptyOnes ? [] : nil) else { return nil }
            return
                "\(raw: access)\(raw: keyword) var \(raw: member): [[AnyKeyPath]] { [\(raw: list.joined(separator: ", "))] }"
        }
    }

    /// The kind of an `#Index` argument (`binary` or `rtree`) and its list of key paths: `.rtree([...])` and
    /// `.binary([...])` (with or without their type) name their kind, a bare list is binary.
    private static func indexKind(_ expression: ExprSyntax) -> (kind: String, list: ExprSyntax) {
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            ["binary", "rtree", "search"].contains(member.declName.baseName.text), call.arguments.count == 1,
            let list = call.arguments.first?.expression
        else { return ("binary", expression) }
        return (member.declName.baseName.text, list)
    }

    /// The expression with every root-less key path (`\.name`) given the class as its root.
    private static func rooted(_ expression: ExprSyntax, at className: String) -> String {
        final class Rooter: SyntaxRewriter {
            let root: String
            init(root: String) { self.root = root }
            override func visit(_ node: KeyPathExprSyntax) -> ExprSyntax {
                guard node.root == nil else { return ExprSyntax(node) }
                return ExprSyntax(node.with(\.root, TypeSyntax(IdentifierTypeSyntax(name: .identifier(root)))))
            }
        }
        return Rooter(root: className).rewrite(expression).trimmedDescription
    }

    /// The default value recorded in the schema: the initial value, typed as the property is.
    private static func defaultValue(of property: ModelProperty) -> String {
        guard let initializer = property.initializer else { return "nil" }
        guard let type = property.storableType else { return initializer.trimmedDescription }
        return "(\(initializer.trimmedDescription) as \(type.trimmedDescription))"
    }

    /// `Schema.Attribute(...)` / `Schema.Relationship(...)` from the property's `@Attribute` / `@Relationship`.
    private static func schemaProperty(of property: ModelProperty) -> String {
        if let attribute = property.attribute {
            return "SwiftData.Schema.Attribute(\(ModelMacro.arguments(of: attribute, droppingCascade: true)))"
        }
        if let relationship = property.relationship {
            return "SwiftData.Schema.Relationship(\(ModelMacro.arguments(of: relationship, droppingCascade: false)))"
        }
        return "nil"
    }
}
