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
    /// The generated text is used as written: formatting it took half of the macro program's time.
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            diagnoseNotAClass(declaration, in: context)
            return []
        }
        diagnoseMembers(of: classDecl, in: context)
        let model = GeneratedModel(classDecl, in: context)
        if let superclass = modelSuperclass(of: classDecl, conformingTo: protocols) {
            return model.subclassMembers(of: superclass)
        }
        let access = model.access
        let loaded = model.initiallyLoaded
        let state = loaded == 0 ? "()" : "(loadedProperties: \(GeneratedModel.hex(loaded)))"
        return [
            "@exclusivity(unchecked) \(raw: access)var _$persistentState = SwiftData._PersistentState\(raw: state)",
            // Set by the first read of a persisted property, the only way an observer can start watching the
            // model: until then changes skip the registrar, whose bookkeeping is most of a new model's cost.
            // Declared right after the state, it takes a byte of the state's padding.
            "@exclusivity(unchecked) \(raw: access)var _$isObserved = false",
            "\(raw: access)let _$observationRegistrar = Observation.ObservationRegistrar()",
            "\(raw: access)required init(backingData: borrowing any SwiftData.BackingData<\(raw: model.className)>) {}",
            """
            \(raw: access)var persistentBackingData: any SwiftData.BackingData<\(raw: model.className)> {
                get {
                    SwiftData.DefaultBackingData(for: self)
                }
                set {}
            }
            """,
        ] + (model.isFinal ? [model.finalSchemaMetadata] : model.openRootMembers) + [
            switchFunction(
                "\(access)func _$load(_ property: Int, from reader: any SwiftData._RowReader, column: Int32) throws",
                cases: model.loads),
            model.rowLoader,
            switchFunction(
                "\(access)func _$store(_ property: Int, into writer: any SwiftData._RowWriter, parameter: Int32) throws",
                cases: model.stores),
            switchFunction(
                "\(access)func _$get(_ property: Int) -> SwiftData._PropertyValue", cases: model.gets(),
                otherwise: "return .notLoaded"),
        ] + (model.isFinal ? model.constraints(emptyOnes: false) : []) + [
            switchFunction(
                "\(access)func _$set(_ property: Int, _ value: SwiftData._PropertyValue) throws", cases: model.sets)
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
        // A class that may have a superclass might inherit persisted properties: its properties are numbered after
        // them, and may be assigned before `super.init`.
        guard mayInheritProperties(classDecl) else { return ["@_PersistedProperty(\(raw: index))"] }
        return ["@_PersistedProperty(\(raw: index), afterInherited: true)"]
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

    /// The superclass a subclass of a `@Model` class inherits `PersistentModel` from, or `nil` for a root model.
    /// The compiler lists the protocols the class does not conform to yet: a class whose superclass clause gives
    /// it `PersistentModel` is a subclass of a model (a class that inherits from `NSObject`, or only conforms to
    /// `Identifiable`, still needs the conformance).
    static func modelSuperclass(of classDecl: ClassDeclSyntax, conformingTo protocols: [TypeSyntax]) -> TypeSyntax? {
        func name(_ type: TypeSyntax) -> String {
            type.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
        }
        guard !protocols.contains(where: { name($0) == "PersistentModel" }),
            let inherited = classDecl.inheritanceClause?.inheritedTypes,
            let first = inherited.first?.type.trimmed,
            !inherited.contains(where: { name($0.type) == "PersistentModel" })
        else { return nil }
        return first
    }

    /// Whether the class may inherit persisted properties: whether the first type of its inheritance clause, where
    /// Swift puts a superclass, may be a class. A clause that starts with one of the standard library's protocols
    /// (`@Model class Item: Identifiable`) or the model protocols names no superclass, so the class is a root.
    static func mayInheritProperties(_ classDecl: ClassDeclSyntax) -> Bool {
        guard let first = classDecl.inheritanceClause?.inheritedTypes.first?.type else { return false }
        let name = first.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
        return !standardProtocols.contains(name)
    }

    /// Protocols a model class commonly lists first in its inheritance clause; none of them is a class.
    private static let standardProtocols: Set<String> = [
        "Identifiable", "Hashable", "Equatable", "Comparable", "Codable", "Encodable", "Decodable", "Sendable",
        "CustomStringConvertible", "CustomDebugStringConvertible", "PersistentModel", "Observable",
    ]

    /// `public ` for a public or open class, nothing otherwise.
    static func accessModifier(of classDecl: ClassDeclSyntax) -> String {
        classDecl.modifiers.contains { ["public", "open"].contains($0.name.text) } ? "public " : ""
    }

    static func literal(_ text: String) -> String {
        "\"" + text.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] } + "\""
    }

    /// The attribute's arguments as written, without a misplaced `.cascade` (diagnosed separately).
    static func arguments(of attribute: AttributeSyntax, droppingCascade: Bool) -> String {
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

    static func switchFunction(
        _ signature: String, cases: [String], otherwise: String = "break", on subject: String = "property"
    ) -> DeclSyntax {
        let body =
            cases.isEmpty
            ? (otherwise == "break" ? "" : otherwise)
            : "switch \(subject) {\n\(cases.joined(separator: "\n"))\ndefault: \(otherwise)\n}"
        return "\(raw: signature) {\n\(raw: indented(body))\n}"
    }

    /// `text` with each line indented by four spaces: the macros' text is used as written, unformatted.
    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
            .joined(separator: "\n")
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
