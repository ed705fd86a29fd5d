/// How values are compared, in Swift's terms. A dialect compares values this way with a collation, a normalizing
/// function, or natively, or it cannot (see `SQLDialect.reasonUnsupported(_:)`).
package enum ValueComparison: Hashable, Sendable, CaseIterable {
    /// `String`'s `==` and `<` (Unicode canonical equivalence, then scalar order).
    case string
    /// `Decimal`'s `<`.
    case decimal
    /// `String.StandardComparator.lexical`.
    case lexical
    /// `localizedStandardCompare`: how model sort descriptors with the `.localizedStandard` comparator order.
    case localizedStandard
    /// `localizedCompare`: how model sort descriptors with the `.localized` comparator order.
    case localized
}
