// The compiler plugin: the toolchain's SwiftSyntax ships without the `SwiftCompilerPlugin` convenience
// module, so the plugin starts its message loop itself.
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

struct SwiftDataMacrosPlugin: PluginProvider {
    static var macros: [String: any Macro.Type] {
        [
            "ModelMacro": ModelMacro.self,
            "PersistedPropertyMacro": PersistedPropertyMacro.self,
            "AttributeMacro": AttributeMacro.self,
            "RelationshipMacro": RelationshipMacro.self,
            "TransientMacro": TransientMacro.self,
            "ConstraintMacro": ConstraintMacro.self,
            "ModelActorMacro": ModelActorMacro.self,
        ]
    }

    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        guard let macro = Self.macros[typeName] else { throw UnknownMacro(name: typeName) }
        return macro
    }

    var features: [PluginFeature] { [] }
    func loadPluginLibrary(libraryPath: String, moduleName: String) throws {}

    struct UnknownMacro: Error, CustomStringConvertible {
        let name: String
        var description: String { "SwiftDataMacros has no macro named \(name)" }
    }
}

let connection = try StandardIOMessageConnection()
let listener = CompilerPluginMessageListener(connection: connection, provider: SwiftDataMacrosPlugin())
try listener.main()
