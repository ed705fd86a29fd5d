/// A mistake in how an example program was called: `Program.run` prints it with the usage text and exits with
/// status 2.
package struct UsageError: Error {
    package let message: String

    package init(_ message: String) { self.message = message }
}
