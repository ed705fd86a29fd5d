import Foundation

/// The text a terminal shows, from the bytes a program writes to it: enough of an xterm for full-screen programs
/// that move the cursor, clear the screen and lines, and switch to the alternate screen. Styles (colours, bold,
/// reverse) are read and dropped; every character takes one cell.
struct TerminalScreen {
    let rows: Int
    let columns: Int
    private var main: [[Character]]
    private var alternate: [[Character]]?
    private var row = 0
    private var column = 0
    private var savedCursor = (row: 0, column: 0)
    private var pending: [UInt8] = []

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        main = Self.blank(rows: rows, columns: columns)
    }

    /// Whether the program switched to the alternate screen, as full-screen programs do, and has not left it.
    var isAlternate: Bool { alternate != nil }

    /// The screen's lines, each without its trailing spaces, joined by newlines; blank lines at the end dropped.
    var text: String {
        var lines = (alternate ?? main).map {
            String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    private static func blank(rows: Int, columns: Int) -> [[Character]] {
        Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// Adds what the program wrote; an escape sequence or a character split between writes waits for its rest.
    mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        pending += bytes
        var index = 0
        while index < pending.count {
            guard let consumed = interpret(pending[index...]) else { break }
            index += consumed
        }
        pending.removeFirst(index)
    }

    /// Interprets the sequence at the start of `bytes`; the bytes it took, or `nil` when it is incomplete.
    private mutating func interpret(_ bytes: ArraySlice<UInt8>) -> Int? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B:
            return escape(bytes)
        case 0x0D:
            column = 0
        case 0x0A:
            lineFeed()
        case 0x08:
            column = max(0, column - 1)
        case 0x00..<0x20, 0x7F:
            break
        default:
            let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
            guard bytes.count >= length else { return nil }
            let end = bytes.startIndex + length
            put(String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self).first ?? "?")
            return length
        }
        return 1
    }

    /// An escape sequence: CSI (`ESC [ parameters final`), or a two-byte one (`ESC 7`, `ESC 8`, others ignored).
    private mutating func escape(_ bytes: ArraySlice<UInt8>) -> Int? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let kind = bytes[start + 1]
        guard kind == UInt8(ascii: "[") else {
            if kind == UInt8(ascii: "7") { savedCursor = (row, column) }
            if kind == UInt8(ascii: "8") { (row, column) = savedCursor }
            return 2
        }
        var end = start + 2
        while end < bytes.endIndex, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.endIndex else { return nil }
        let parameterText = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let isPrivate = parameterText.hasPrefix("?")
        let parameters = parameterText.drop { $0 == "?" }.split(separator: ";", omittingEmptySubsequences: false)
            .map { Int($0) }
        func parameter(_ index: Int, default value: Int) -> Int {
            index < parameters.count ? parameters[index] ?? value : value
        }
        switch Character(UnicodeScalar(bytes[end])) {
        case "H", "f":
            row = min(max(parameter(0, default: 1), 1), rows) - 1
            column = min(max(parameter(1, default: 1), 1), columns) - 1
        case "A": row = max(0, row - parameter(0, default: 1))
        case "B": row = min(rows - 1, row + parameter(0, default: 1))
        case "C": column = min(columns - 1, column + parameter(0, default: 1))
        case "D": column = max(0, column - parameter(0, default: 1))
        case "G": column = min(max(parameter(0, default: 1), 1), columns) - 1
        case "J": eraseScreen(parameter(0, default: 0))
        case "K": eraseLine(parameter(0, default: 0))
        case "h" where isPrivate && parameters.contains(1049):
            savedCursor = (row, column)
            alternate = Self.blank(rows: rows, columns: columns)
        case "l" where isPrivate && parameters.contains(1049):
            alternate = nil
            (row, column) = savedCursor
        default: break  // styles, cursor visibility and the rest change nothing this text shows
        }
        return end - start + 1
    }

    private mutating func put(_ character: Character) {
        if column >= columns {
            column = 0
            lineFeed()
        }
        let (row, column) = (row, column)
        update { $0[row][column] = character }
        self.column += 1
    }

    private mutating func lineFeed() {
        if row < rows - 1 {
            row += 1
        } else {
            let columns = columns
            update { cells in
                cells.removeFirst()
                cells.append(Array(repeating: " ", count: columns))
            }
        }
    }

    private mutating func eraseScreen(_ mode: Int) {
        let (row, column, rows, columns) = (row, column, rows, columns)
        update { cells in
            for line in 0..<rows {
                for cell in 0..<columns
                where mode == 2 || mode == 3
                    || (mode == 0 ? (line, cell) >= (row, column) : (line, cell) <= (row, column))
                {
                    cells[line][cell] = " "
                }
            }
        }
    }

    private mutating func eraseLine(_ mode: Int) {
        let (row, column, columns) = (row, min(column, columns - 1), columns)
        update { cells in
            let range = mode == 0 ? column..<columns : mode == 1 ? 0..<(column + 1) : 0..<columns
            for cell in range { cells[row][cell] = " " }
        }
    }

    /// Changes the screen being shown.
    private mutating func update(_ change: (inout [[Character]]) -> Void) {
        if alternate != nil {
            change(&alternate!)
        } else {
            change(&main)
        }
    }
}
