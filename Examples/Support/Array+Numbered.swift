extension Array {
    /// The element a user names by its number in a listing that counts from 1, as `todo list` prints it. `noun`
    /// names an element in messages; `listing` is the command that prints the numbers.
    package func element(numbered argument: String?, noun: String, listing: String) throws -> Element {
        guard let argument else { throw UsageError("which \(noun)? Give its number from `\(listing)`") }
        guard let number = Int(argument), number > 0 else { throw UsageError("'\(argument)' is not a \(noun) number") }
        guard number <= count else {
            throw Failure("there is no \(noun) \(number); the list has \(count) \(noun)\(count == 1 ? "" : "s")")
        }
        return self[number - 1]
    }
}
