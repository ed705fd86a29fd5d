import Foundation
import SwiftData

/// A readable description of a predicate's expression tree, with key path names and values. (Foundation's
/// `Predicate.description` names no key paths on Linux, and stops the program on nodes it does not know.)
func describe<T: PersistentModel>(_ predicate: Predicate<T>) -> String {
    let names = Dictionary(T.schemaMetadata.map { ($0.keyPath, $0.name) }, uniquingKeysWith: { first, _ in first })
    return describeNode(predicate.expression, names: names)
}

private func describeNode(_ node: Any, names: [AnyKeyPath: String]) -> String {
    let mirror = Mirror(reflecting: node)
    let name = String(describing: type(of: node)).prefix { $0 != "<" }
    let children = Array(mirror.children)
    switch name {
    case "Value":
        return children.first.map { String(reflecting: $0.value) } ?? "?"
    case "Variable":
        return "$" + (children.first.map { String(describing: $0.value) } ?? "")
    case "KeyPath":
        let root = children.first { $0.label == "root" }.map { describeNode($0.value, names: names) } ?? "?"
        let keyPath = children.first { $0.label == "keyPath" }?.value as? AnyKeyPath
        if let keyPath, let name = names[keyPath] { return root + "." + name }
        let text = keyPath.map { String(describing: $0) } ?? ""
        return root + (text.firstIndex(of: ".").map { String(text[$0...]) } ?? text)
    default:
        let arguments = children.map { child in
            let value =
                child.value is any PredicateExpression
                ? describeNode(child.value, names: names) : String(describing: child.value)
            return (child.label.map { "\($0): " } ?? "") + value
        }
        return "\(name)(\(arguments.joined(separator: ", ")))"
    }
}
