import Foundation

/// Translates a predicate on `DefaultHistoryTransaction`s into a `HistoryFilter`, by asking each node of its
/// expression tree for its part (as the SQL translator does for models). Comparisons of the token, transaction
/// identifier, timestamp, author, store, bundle and process identifiers with values, joined by `&&`, `||` and `!`,
/// translate; the parts of a top-level `&&` that do not are left to memory.
struct HistoryPredicateTranslator {
    /// Why a part of a predicate has no translation.
    struct Unsupported: Error {}

    /// The fields of a transaction a filter can test.
    enum Field {
        case token, number, timestamp, store
        case text(HistoryTextField)
    }

    /// The filter of `predicate` (`nil`: every transaction) and whether it selects exactly its transactions;
    /// otherwise it selects more, which the predicate then filters in memory.
    static func translate(_ predicate: Predicate<DefaultHistoryTransaction>) -> (filter: HistoryFilter?, isExact: Bool)
    {
        HistoryPredicateTranslator().partial(predicate.expression)
    }

    /// The filter of a Boolean node, or of the parts of a conjunction that translate.
    func partial(_ node: Any) -> (filter: HistoryFilter?, isExact: Bool) {
        if let conjunction = node as? any HistoryConjunctionNode {
            let lhs = partial(conjunction.lhsNode)
            let rhs = partial(conjunction.rhsNode)
            let filter: HistoryFilter? =
                switch (lhs.filter, rhs.filter) {
                case (let left?, let right?): .and(left, right)
                case (let one?, nil), (nil, let one?): one
                case (nil, nil): nil
                }
            return (filter, lhs.isExact && rhs.isExact)
        }
        do {
            return (try filter(node), true)
        } catch {
            return (nil, false)
        }
    }

    /// The filter of a Boolean node, whole.
    func filter(_ node: Any) throws -> HistoryFilter {
        if let convertible = node as? any HistoryPredicateNode { return try convertible.historyFilter(in: self) }
        guard let value = try constant(node) as? Bool else { throw Unsupported() }
        return .constant(value)
    }

    /// `lhs op rhs`, where one side is a field of the transaction and the other a value.
    func compare(_ lhs: Any, _ comparison: HistoryComparison, _ rhs: Any) throws -> HistoryFilter {
        if let field = field(lhs) { return try compare(field, comparison, try constant(rhs)) }
        if let field = field(rhs) { return try compare(field, comparison.swapped, try constant(lhs)) }
        throw Unsupported()
    }

    private func compare(_ field: Field, _ comparison: HistoryComparison, _ value: Any) throws -> HistoryFilter {
        let isEquality = comparison == .equal || comparison == .notEqual
        switch field {
        case .token:
            guard let token = value as? DefaultHistoryToken else { throw Unsupported() }
            return .token(comparison, token)
        case .number:
            guard let number = value as? Int64 else { throw Unsupported() }
            return .number(comparison, number)
        case .timestamp:
            guard let date = value as? Date else { throw Unsupported() }
            return .timestamp(comparison, date)
        case .text(let field):
            guard isEquality, let text = value as? String? else { throw Unsupported() }
            return .text(field, isEqual: comparison == .equal, text)
        case .store:
            guard isEquality, let identifier = value as? String else { throw Unsupported() }
            return .store(isEqual: comparison == .equal, identifier)
        }
    }

    /// The transaction's field a node reads, if it is a key path of the transaction.
    private func field(_ node: Any) -> Field? {
        guard let node = node as? any HistoryKeyPathNode, node.readsVariable else { return nil }
        let fields: [(AnyKeyPath, Field)] = [
            (\DefaultHistoryTransaction.token, .token),
            (\DefaultHistoryTransaction.transactionIdentifier, .number), (\DefaultHistoryTransaction.id, .number),
            (\DefaultHistoryTransaction.timestamp, .timestamp), (\DefaultHistoryTransaction.storeIdentifier, .store),
            (\DefaultHistoryTransaction.author, .text(.author)),
            (\DefaultHistoryTransaction.bundleIdentifier, .text(.bundleIdentifier)),
            (\DefaultHistoryTransaction.processIdentifier, .text(.processIdentifier)),
        ]
        return fields.first { $0.0 == node.historyKeyPath }?.1
    }

    /// The value of a node that reads no transaction: evaluating it without one throws otherwise.
    private func constant(_ node: Any) throws -> Any {
        guard let expression = node as? any PredicateExpression else { throw Unsupported() }
        func evaluate<Expression: PredicateExpression>(_ expression: Expression) throws -> Any {
            try expression.evaluate(PredicateBindings())
        }
        do {
            return try evaluate(expression)
        } catch {
            throw Unsupported()
        }
    }
}

/// A `PredicateExpressions` node that has a history filter.
protocol HistoryPredicateNode {
    func historyFilter(in translator: HistoryPredicateTranslator) throws -> HistoryFilter
}

/// A conjunction, whose sides translate on their own.
protocol HistoryConjunctionNode {
    var lhsNode: Any { get }
    var rhsNode: Any { get }
}

/// A key path node, which may read a field of the transaction.
protocol HistoryKeyPathNode {
    var historyKeyPath: AnyKeyPath { get }
    /// Whether the key path applies to the predicate's variable (the transaction).
    var readsVariable: Bool { get }
}

/// The predicate's variable.
protocol HistoryVariableNode {}

extension PredicateExpressions.Variable: HistoryVariableNode {}

extension PredicateExpressions.KeyPath: HistoryKeyPathNode {
    var historyKeyPath: AnyKeyPath { keyPath }
    var readsVariable: Bool { root is any HistoryVariableNode }
}

extension PredicateExpressions.Conjunction: HistoryPredicateNode, HistoryConjunctionNode {
    var lhsNode: Any { lhs }
    var rhsNode: Any { rhs }
    func historyFilter(in translator: HistoryPredicateTranslator) throws -> HistoryFilter {
        .and(try translator.filter(lhs), try translator.filter(rhs))
    }
}

extension PredicateExpressions.Disjunction: HistoryPredicateNode {
    func historyFilter(in translator: HistoryPredicateTranslator) throws -> HistoryFilter {
        .or(try translator.filter(lhs), try translator.filter(rhs))
    }
}

extension PredicateExpressions.Negation: HistoryPredicateNode {
    func historyFilter(in translator: HistoryPredicateTranslator) throws -> HistoryFilter {
        .not(try translator.filter(wrapped))
    }
}

extension PredicateExpressions.Equal: HistoryPredicateNode {
    func historyFilter(in translator: HistoryPredicateTranslator) throws -> HistoryFilter {
        try translator.compare(lhs, .equal, rhs)
    }
}

extension PredicateExpressions.NotEqual: HistoryPredicateNode {
    func historyFilter(in translator: HistoryPredicateTranslator) throws -> HistoryFilter {
        try translator.compare(lhs, .notEqual, rhs)
    }
}

extension PredicateExpressions.Comparison: HistoryPredicateNode {
    func historyFilter(in translator: HistoryPredicateTranslator) throws -> HistoryFilter {
        let comparison: HistoryComparison =
            switch op {
            case .lessThan: .less
            case .lessThanOrEqual: .lessOrEqual
            case .greaterThan: .greater
            case .greaterThanOrEqual: .greaterOrEqual
            }
        return try translator.compare(lhs, comparison, rhs)
    }
}
