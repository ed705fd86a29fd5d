extension Array {
    /// The array in slices of at most `size` elements.
    package func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }

    /// The array in slices of as many keys as one statement lists (`PreparedSelect.maximumKeys`).
    package var keyChunks: [ArraySlice<Element>] { chunked(by: PreparedSelect.maximumKeys) }
}
