import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: makes a class a `PersistentModel` that is also `Observable`.
///
/// Each persisted property gets `@_PersistedProperty(index)`, which turns it into a computed property over
/// typed storage `_$name`. The class gets its bookkeeping (`_$persistentState`), an observation registrar,
/// `init(backingData:)`, `schemaMetadata`, and the functions that move values between that storage and a
/// store's rows. Only the member role reports diagnostics.
public enum ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            diagnoseNotAClass(declaration, in: context)
            return []
        }
        diagnoseMembers(of: classDecl, in: context)
        let className = classDecl.name.trimmedDescription
        let access = accessModifier(of: classDecl)
        let properties = ModelProperty.persisted(in: classDecl.memberBlock.members)

        let metadata = properties.map { property in
            "SwiftData.Schema.PropertyMetadata(name: \(literal(property.name)), keypath: \\\(className).\(property.name), defaultValue: \(defaultValue(of: property)), metadata: \(schemaProperty(of: property, in: context)))"
        }
        let loads = properties.enumerated().map { index, property in
            "case \(index): try reader.read(column, into: &_$\(property.name))"
        }
        let stores = properties.enumerated().map { index, property in
            "case \(index): try writer.write(_$\(property.name), parameter, property: \(literal("\(className).\(property.name)")))"
        }
        let gets = properties.enumerated().map { index, property in
            "case \(index): return _$\(property.name).map { $0 as Any } ?? _$linkedValue(\(index))"
        }
        let sets = properties.enumerated().map { index, property in
            """
            case \(index):
                if _$isObserved {
                    _$observationRegistrar.withMutation(of: self, keyPath: \\.\(property.name)) { _$\(property.name) = SwiftData._storedValue(value, as: _$\(property.name)) }
                } else {
                    _$\(property.name) = SwiftData._storedValue(value, as: _$\(property.name))
                }
            """
        }

        return [
            "@exclusivity(unchecked) \(raw: access)var _$persistentState = SwiftData._PersistentState()",
            "\(raw: access)let _$observationRegistrar = Observation.ObservationRegistrar()",
            // Set by the first read of a persisted property, the only way an observer can start watching the
            // model: until then changes skip the registrar, whose bookkeeping is most of a new model's cost.
            "@exclusivity(unchecked) \(raw: access)var _$isObserved = false",
            "\(raw: access)required init(backingData: any SwiftData.BackingData<\(raw: className)>) {}",
            """
            \(raw: access)var persistentBackingData: any SwiftData.BackingData<\(raw: className)> {
                get {
                    SwiftData.DefaultBackingData(for: self)
                }
                set {}
            }
            """,
            """
            \(raw: access)static var schemaMetadata: [SwiftData.Schema.PropertyMetadata] {
                [\(raw: metadata.isEmpty ? "" : "\n" + metadata.joined(separator: ",\n") + "\n")]
            }
            """,
            switchFunction(
                "\(access)func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws",
                cases: loads),
            switchFunction(
                "\(access)func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws",
                cases: stores),
            switchFunction("\(access)func _$get(_ property: Int) -> Any?", cases: gets, otherwise: "return nil"),
        ] + constraints(of: classDecl, className: className, access: access) + [
            switchFunction(
                "\(access)func _$set(_ property: Int, _ value: Any?)", cases: sets, first: "_$unlink(property)")
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self), let variable = member.as(VariableDeclSyntax.self)
        else { return [] }
        let properties = ModelProperty.persisted(in: classDecl.memberBlock.members)
        let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription
        guard variable.isPersistable, variable.bindings.count == 1, variable.bindings.first?.hasAccessors == false,
            let index = properties.firstIndex(where: { $0.name == name }),
            variable.attribute(named: "_PersistedProperty") == nil
        else { return [] }
        return ["@_PersistedProperty(\(raw: index))"]
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        let wanted = ["PersistentModel": "SwiftData.PersistentModel", "Observable": "Observation.Observable"]
        let missing = protocols.compactMap { protocolType -> String? in
            let name = protocolType.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
            return wanted[name]
        }
        guard !missing.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: missing.joined(separator: ", ")) {}")]
    }

    // MARK: Generated code

    /// `_$uniquenessConstraints`, `_$indices` and `_$spatialIndices` from the class body's `#Unique` and `#Index`,
    /// when it has any. An `#Index` argument is a list of key paths or `.binary(list)` (a binary index), or
    /// `.rtree(list)` (a spatial one).
    private static func constraints(of classDecl: ClassDeclSyntax, className: String, access: String) -> [DeclSyntax] {
        let macros = classDecl.memberBlock.members.compactMap { $0.decl.as(MacroExpansionDeclSyntax.self) }
        var lists: [String: [String]] = [:]
        for macro in macros {
            for argument in macro.arguments {
                let (member, list): (String, ExprSyntax)
                switch macro.macroName.text {
                case "Unique": (member, list) = ("_$uniquenessConstraints", argument.expression)
                case "Index":
                    let (kind, indexed) = indexKind(argument.expression)
                    (member, list) = (kind == "rtree" ? "_$spatialIndices" : "_$indices", indexed)
                default: continue
                }
                lists[member, default: []].append("\(rooted(list, at: className)) as [AnyKeyPath]")
            }
        }
        return ["_$uniquenessConstraints", "_$indices", "_$spatialIndices"].compactMap { member in
            guard let member = lists[member].map({ (member, $0) }) else { return nil }
            return
                "\(raw: access)static var \(raw: member.0): [[AnyKeyPath]] { [\(raw: member.1.joined(separator: ", "))] }"
        }
    }

    /// The kind of an `#Index` argument (`binary` or `rtree`) and its list of key paths: `.rtree([...])` and
    /// `.binary([...])` (with or without their type) name their kind, a bare list is binary.
    private static func indexKind(_ expression: ExprSyntax) -> (kind: String, list: ExprSyntax) {
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self),
            ["binary", "rtree"].contains(member.declName.baseName.text), call.arguments.count == 1,
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

    /// `public ` for a public or open class, nothing otherwise.
    private static func accessModifier(of classDecl: ClassDeclSyntax) -> String {
        classDecl.modifiers.contains { ["public", "open"].contains($0.name.text) } ? "public " : ""
    }

    private static func literal(_ text: String) -> String {
        "\"" + text.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] } + "\""
    }

    /// The default value recorded in the schema: the initial value, typed as the property is.
    private static func defaultValue(of property: ModelProperty) -> String {
        guard let initializer = property.initializer else { return "nil" }
        guard let type = property.storableType else { return initializer.trimmedDescription }
        return "(\(initializer.trimmedDescription) as \(type.trimmedDescription))"
    }

    /// `Schema.Attribute(...)` / `Schema.Relationship(...)` from the property's `@Attribute` / `@Relationship`.
    private static func schemaProperty(of property: ModelProperty, in context: some MacroExpansionContext) -> String {
        if let attribute = property.attribute {
            return "SwiftData.Schema.Attribute(\(arguments(of: attribute, droppingCascade: true)))"
        }
        if let relationship = property.relationship {
            return "SwiftData.Schema.Relationship(\(arguments(of: relationship, droppingCascade: false)))"
        }
        return "nil"
    }

    /// The attribute's arguments as written, without a misplaced `.cascade` (diagnosed separately).
    private static func arguments(of attribute: AttributeSyntax, droppingCascade: Bool) -> String {
        guard case .argumentList(let list) = attribute.arguments else { return "" }
        let kept = list.filter { !(droppingCascade && isCascade($0)) }
        return kept.map { element in
            let label = element.label.map { "\($0.text): " } ?? ""
            return label + element.expression.trimmedDescription
        }.joined(separator: ", ")
    }

    static func isCascade(_ element: LabeledExprSyntax) -> Bool {
        element.label == nil && element.expression.trimmedDescription.hasSuffix(".cascade")
    }

    private static func switchFunction(
        _ signature: String, cases: [String], otherwise: String = "break", first: String? = nil
    ) -> DeclSyntax {
        let body =
            cases.isEmpty
            ? (otherwise == "break" ? "" : otherwise)
            : "switch property {\n\(cases.joined(separator: "\n"))\ndefault: \(otherwise)\n}"
        let statements = cases.isEmpty ? body : [first, body].compactMap { $0 }.joined(separator: "\n")
        return "\(raw: signature) {\n\(raw: statements)\n}"
    }

    // MARK: Diagnostics

    private static func diagnoseNotAClass(_ declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) {
        let keyword: TokenSyntax
        if let structDecl = declaration.as(StructDeclSyntax.self) {
            keyword = structDecl.structKeyword
        } else if let actorDecl = declaration.as(ActorDeclSyntax.self) {
            keyword = actorDecl.actorKeyword
        } else if let enumDecl = declaration.as(EnumDeclSyntax.self) {
            context.diagnose(Diagnostic(node: enumDecl.enumKeyword, message: ModelDiagnostic.notAClass))
            return
        } else {
            context.diagnose(Diagnostic(node: declaration, message: ModelDiagnostic.notAClass))
            return
        }
        let replacement = keyword.with(\.tokenKind, .keyword(.class))
        context.diagnose(
            Diagnostic(
                node: keyword, message: ModelDiagnostic.notAClass,
                fixIt: FixIt(
                    message: ModelFixIt.useClass,
                    changes: [.replace(oldNode: Syntax(keyword), newNode: Syntax(replacement))])))
    }

    private static func diagnoseMembers(of classDecl: ClassDeclSyntax, in context: some MacroExpansionContext) {
        for member in classDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic,
                variable.attribute(named: "Transient") == nil
            else { continue }
            let stored = variable.bindings.filter { !$0.hasAccessors || $0.hasOnlyObservers }
            guard !stored.isEmpty else { continue }
            if variable.bindingSpecifier.tokenKind == .keyword(.let) {
                let replacement = variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))
                context.diagnose(
                    Diagnostic(
                        node: variable.bindingSpecifier, message: ModelDiagnostic.letProperty,
                        fixIt: FixIt(
                            message: ModelFixIt.useVar,
                            changes: [
                                .replace(oldNode: Syntax(variable.bindingSpecifier), newNode: Syntax(replacement))
                            ])))
                continue
            }
            if variable.modifiers.contains(where: { $0.name.text == "lazy" }) { continue }
            if variable.bindings.count > 1 {
                context.diagnose(Diagnostic(node: variable.bindings, message: ModelDiagnostic.multipleBindings))
                continue
            }
            if let binding = stored.first, binding.hasOnlyObservers, let accessors = binding.accessorBlock {
                context.diagnose(Diagnostic(node: accessors, message: ModelDiagnostic.propertyObservers))
            }
            if let attribute = variable.attribute(named: "Attribute"),
                case .argumentList(let list) = attribute.arguments,
                let cascade = list.first(where: isCascade)
            {
                let relationship: AttributeSyntax = "@Relationship(deleteRule: .cascade)"
                context.diagnose(
                    Diagnostic(
                        node: cascade.expression, message: ModelDiagnostic.cascadeAttribute,
                        fixIt: FixIt(
                            message: ModelFixIt.useRelationship,
                            changes: [
                                .replace(
                                    oldNode: Syntax(attribute),
                                    newNode: Syntax(
                                        relationship.with(\.leadingTrivia, attribute.leadingTrivia)
                                            .with(\.trailingTrivia, attribute.trailingTrivia)))
                            ])))
            }
        }
    }
}
