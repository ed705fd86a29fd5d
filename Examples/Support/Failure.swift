/// Anything else that stops an example program (a number that names nothing, a file it cannot read): `Program.run`
/// prints it as is and exits with status 1.
package struct Failure: Error {
    package let message: String

    package init(_ message: String) { self.message = message }
}
