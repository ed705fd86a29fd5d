/// Fetched models grouped into sections by a common value, in the order the sections first appear in the sorted
/// results. `ResultsObserver.sections` holds one.
public struct SectionedResults<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection {
    private let sections: [ResultsSection<Element, SectionTitle>]
    private let positions: [SectionTitle: Int]

    /// Groups `models`, already sorted by their titles, into sections.
    init(_ models: some Sequence<Element>, title: (Element) -> SectionTitle) {
        var sections: [ResultsSection<Element, SectionTitle>] = []
        var positions: [SectionTitle: Int] = [:]
        for model in models {
            let sectionTitle = title(model)
            if let position = positions[sectionTitle] {
                sections[position].elements.append(model)
            } else {
                positions[sectionTitle] = sections.count
                sections.append(ResultsSection(title: sectionTitle, elements: [model]))
            }
        }
        self.sections = sections
        self.positions = positions
    }

    /// The section titles, in order.
    public var sectionTitles: [SectionTitle] { sections.map(\.title) }

    /// The section with the title, found in constant time.
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        positions[title].map { sections[$0] }
    }

    /// The position of the section with the title, found in constant time.
    public func index(ofSectionTitled title: SectionTitle) -> Int? { positions[title] }

    public var startIndex: Int { 0 }
    public var endIndex: Int { sections.count }
    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> { sections[position] }
}

/// The fetched models that share one section title, in result order.
public struct ResultsSection<Element: PersistentModel, SectionTitle: Hashable>: RandomAccessCollection, Identifiable {
    /// The value every model of the section has at the section key path.
    public let title: SectionTitle
    fileprivate(set) var elements: [Element]

    /// The section's identity: its title.
    public var id: SectionTitle { title }
    public var startIndex: Int { 0 }
    public var endIndex: Int { elements.count }
    public subscript(position: Int) -> Element { elements[position] }
}

/// Two sections are equal when they have the same title and the same models in the same order, as Apple's.
extension ResultsSection: Equatable {}
