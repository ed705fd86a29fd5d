extension String {
    /// The string with spaces before it, to fill `width` characters.
    package func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
