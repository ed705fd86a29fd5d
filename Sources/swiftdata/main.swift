import Foundation
import SwiftDataTool

// The `swiftdata` tool; its commands live in SwiftDataTool. `exit` flushes what `print` buffered.
let output = ToolOutput(
    write: { print($0, terminator: "") }, writeError: { FileHandle.standardError.write(Data($0.utf8)) },
    isTerminal: isatty(2) == 1)
exit(SwiftDataTool.run(Array(CommandLine.arguments.dropFirst()), output: output))
