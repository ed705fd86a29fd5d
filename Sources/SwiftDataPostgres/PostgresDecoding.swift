import Foundation

/// Parsers of PostgreSQL's text forms and of its binary `numeric`, over the bytes libpq hands out.
enum PostgresDecoding {
    static func decoding(_ reason: String) -> PostgresError { PostgresError.decoding(reason) }

    static func mismatch(_ type: PostgresType, _ wanted: String, _ count: Int) -> PostgresError {
        PostgresError.decoding("a value of type \(type) (\(count) bytes) cannot be read as \(wanted)")
    }

    /// An `int2`, `int4`, `int8` or `oid` value in either form.
    static func integer(_ bytes: UnsafeRawBufferPointer, _ type: PostgresType, _ isBinary: Bool) throws -> Int64 {
        guard isBinary else { return try integer(text: bytes) }
        switch (type, bytes.count) {
        case (.int8, 8): return Int64(bigEndian: bytes.loadUnaligned(as: Int64.self))
        case (.int4, 4): return Int64(Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)))
        case (.int2, 2): return Int64(Int16(bigEndian: bytes.loadUnaligned(as: Int16.self)))
        case (.oidType, 4): return Int64(UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)))
        default: throw mismatch(type, "an integer", bytes.count)
        }
    }

    /// A decimal integer, such as `-9223372036854775808`.
    static func integer(text: UnsafeRawBufferPointer) throws -> Int64 {
        var index = 0
        let isNegative = text.first == UInt8(ascii: "-")
        if isNegative || text.first == UInt8(ascii: "+") { index = 1 }
        guard index < text.count else { throw decoding("not an integer") }
        // Accumulated negatively, so that Int64.min fits.
        var value: Int64 = 0
        while index < text.count {
            let digit = Int64(text[index]) - 48
            guard (0...9).contains(digit) else { throw decoding("not an integer") }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = scaled.subtractingReportingOverflow(digit)
            guard !overflow && !overflow2 else { throw decoding("the integer is out of range") }
            value = next
            index += 1
        }
        if isNegative { return value }
        guard value != .min else { throw decoding("the integer is out of range") }
        return -value
    }

    /// A float's text: digits, `NaN`, `Infinity` or `-Infinity`.
    static func double(text: UnsafeRawBufferPointer) throws -> Double {
        guard let value = Double(String(decoding: text, as: UTF8.self)) else { throw decoding("not a number") }
        return value
    }

    /// `bytea`'s hex text: `\x` followed by two hex digits a byte.
    static func bytea(text: UnsafeRawBufferPointer) throws -> Data {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
            throw decoding("bytea text is not in hex form (set bytea_output to hex)")
        }
        func nibble(_ byte: UInt8) throws -> UInt8 {
            switch byte {
            case 48...57: return byte - 48
            case 97...102: return byte - 87
            case 65...70: return byte - 55
            default: throw decoding("bytea text has a character that is not a hex digit")
            }
        }
        var data = Data(count: (text.count - 2) / 2)
        try data.withUnsafeMutableBytes { output in
            for index in 0..<output.count {
                output[index] = try nibble(text[2 + 2 * index]) << 4 | nibble(text[3 + 2 * index])
            }
        }
        return data
    }

    /// A `numeric`'s text: `-123.45`, `1.5e+40` or `NaN`.
    static func numeric(text: UnsafeRawBufferPointer) throws -> Decimal {
        let string = String(decoding: text, as: UTF8.self)
        if string == "NaN" { return .nan }
        guard let value = Decimal(string: string, locale: nil), !value.isNaN else {
            throw decoding("\(string) cannot be represented as a Decimal")
        }
        return value
    }

    /// A binary `numeric`: digit count, weight (of the first digit, in powers of 10,000), sign, display scale, then
    /// the base-10,000 digits, each an `int16`, big-endian.
    static func numeric(binary bytes: UnsafeRawBufferPointer) throws -> Decimal {
        func int16(_ offset: Int) -> Int {
            Int(Int16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
        }
        guard bytes.count >= 8 else { throw decoding("a binary numeric is too short") }
        let count = int16(0)
        let weight = int16(2)
        let sign = UInt16(truncatingIfNeeded: int16(4))
        guard count >= 0, bytes.count == 8 + 2 * count else { throw decoding("a binary numeric has a wrong length") }
        switch sign {
        case 0x0000, 0x4000: break
        case 0xC000: return .nan
        default: throw decoding("an infinite numeric cannot be represented as a Decimal")
        }
        guard count > 0 else { return 0 }
        // The significand gathers the digits sixteen decimal digits at a time; the last digit's trailing zeros go
        // to the exponent, so that a value of 38 significant digits stays within Decimal's 38.
        var last = int16(8 + 2 * (count - 1))
        var lastWidth = 4
        while last != 0 && last % 10 == 0 {
            last /= 10
            lastWidth -= 1
        }
        var significand = Decimal()
        var chunk: UInt64 = 0
        var chunkWidth = 0
        for index in 0..<count {
            let isLast = index == count - 1
            let digit = isLast ? last : int16(8 + 2 * index)
            guard (0..<10_000).contains(digit) else { throw decoding("a binary numeric has a digit out of range") }
            let width = isLast ? lastWidth : 4
            chunk = chunk * UInt64(pow10(width)) + UInt64(digit)
            chunkWidth += width
            if chunkWidth > 12 || isLast {
                significand = chunkWidth == 0 ? significand : significand * Decimal(pow10(chunkWidth)) + Decimal(chunk)
                chunk = 0
                chunkWidth = 0
            }
        }
        let exponent = 4 * (weight - count + 1) + (4 - lastWidth)
        guard (-128...127).contains(exponent + significand.exponent) else {
            throw decoding("the numeric is beyond Decimal's range")
        }
        return Decimal(sign: sign == 0x4000 ? .minus : .plus, exponent: exponent, significand: significand)
    }

    private static func pow10(_ exponent: Int) -> UInt64 {
        var value: UInt64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
