import SwiftDiagnostics
import SwiftSyntax

/// Every diagnostic the macros emit, with a stable identifier.
enum ModelDiagnostic: String, DiagnosticMessage {
    case notAClass
    case letProperty
    case multipleBindings
    case propertyObservers
    case cascadeAttribute
    case transientWithoutDefault
    case modelActorNotAnActor

    var message: String {
        switch self {
        case .notAClass:
            "@Model applies only to classes: models are reference types whose changes a context tracks"
        case .letProperty:
            "@Model persists only 'var' properties; declare this property with 'var'"
        case .multipleBindings:
            "@Model needs each persisted property in its own 'var' declaration"
        case .propertyObservers:
            "a persisted property cannot have willSet or didSet; observe the model with withObservationTracking, or mark the property @Transient"
        case .cascadeAttribute:
            "'.cascade' is a delete rule, and delete rules belong to relationships: use @Relationship(deleteRule: .cascade)"
        case .transientWithoutDefault:
            "a @Transient stored property needs a default value: models loaded from a store start with it"
        case .modelActorNotAnActor:
            "@ModelActor applies only to actors: declare the type with 'actor'"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "SwiftDataMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

/// The fix-its offered with those diagnostics.
enum ModelFixIt: String, FixItMessage {
    case useClass
    case useVar
    case useRelationship
    case addDefault

    var message: String {
        switch self {
        case .useClass: "Declare it as a class"
        case .useVar: "Replace 'let' with 'var'"
        case .useRelationship: "Replace with @Relationship(deleteRule: .cascade)"
        case .addDefault: "Add a default value"
        }
    }

    var fixItID: MessageID { MessageID(domain: "SwiftDataMacros", id: rawValue) }
}
