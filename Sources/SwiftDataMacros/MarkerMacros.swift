import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute(...)`: a marker `@Model` reads; it generates nothing itself.
public enum AttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

/// `@Relationship(...)`: a marker `@Model` reads; it generates nothing itself.
public enum RelationshipMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

/// `@Transient`: keeps a property out of storage. A stored transient property needs a default value, the
/// value a model loaded from a store starts with.
public enum TransientMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else { return [] }
        for binding in variable.bindings
        where binding.initializer == nil && (!binding.hasAccessors || binding.hasOnlyObservers) {
            let isOptional =
                binding.typeAnnotation.map {
                    $0.type.is(OptionalTypeSyntax.self) || $0.type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
                } ?? false
            // `var x: T?` starts as nil, like any stored optional.
            if isOptional && variable.bindingSpecifier.tokenKind == .keyword(.var) { continue }
            var fixIts: [FixIt] = []
            if let annotation = binding.typeAnnotation {
                let withDefault = binding.with(\.typeAnnotation, annotation.with(\.trailingTrivia, .space))
                    .with(
                        \.initializer,
                        InitializerClauseSyntax(
                            equal: .equalToken(trailingTrivia: .space), value: ExprSyntax("<#default value#>")))
                fixIts.append(
                    FixIt(
                        message: ModelFixIt.addDefault,
                        changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(withDefault))]))
            }
            context.diagnose(
                Diagnostic(node: binding.pattern, message: ModelDiagnostic.transientWithoutDefault, fixIts: fixIts))
        }
        return []
    }
}

/// `#Unique` and `#Index`: markers `@Model` reads from the class body; they generate nothing themselves.
public enum ConstraintMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}
