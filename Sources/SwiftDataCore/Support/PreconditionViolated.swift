/// Stops the program because its code broke a rule it can detect only at run time and that leaves a
/// non-throwing API nothing to return (a property read before it was assigned, a value its model never loaded and
/// whose type has no empty value). `message` names the model, the property and what to change.
///
/// A precondition that also holds in release builds: `preconditionFailure` drops its message there (`-O`), and
/// the message is the point.
func preconditionViolated(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line)
    -> Never
{
    fatalError(message(), file: file, line: line)
}
