import CLibPQ
import Foundation

/// Parameters encoded for libpq: one byte buffer holding every value, and the arrays `PQexecParams` and
/// `PQexecPrepared` take. A connection keeps one and reuses its storage from one execution to the next.
struct PostgresParameters {
    private var bytes: [UInt8] = []
    /// Where each value starts in `bytes`, or -1 for SQL `NULL`.
    private var offsets: [Int] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []
    private(set) var types: [Oid] = []

    var count: Int { offsets.count }

    /// Empties the parameters, keeping the storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        formats.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
    }

    /// Encodes `values` in place of the current parameters.
    mutating func set(_ values: [PostgresValue]) throws {
        removeAll()
        for (index, value) in values.enumerated() { try append(value, index: index) }
    }

    private mutating func appendInteger<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends one value. Every value is followed by a NUL byte, so that text values are C strings and no value's
    /// pointer is `NULL` (which would mean SQL `NULL`), even an empty one.
    mutating func append(_ value: PostgresValue, index: Int) throws {
        let start = bytes.count
        switch value {
        case .null:
            offsets.append(-1)
            lengths.append(0)
            formats.append(PostgresFormat.binary.rawValue)
            types.append(PostgresType.unspecified.oid)
            return
        case .bool(let value): bytes.append(value ? 1 : 0)
        case .int8(let value): appendInteger(value)
        case .float8(let value): appendInteger(value.bitPattern)
        case .text(let value): bytes.append(contentsOf: value.utf8)
        case .bytea(let value): bytes.append(contentsOf: value)
        case .numeric(let value):
            bytes.append(contentsOf: value.isNaN ? Array("NaN".utf8) : Array(value.description.utf8))
        case .numericText(let text): bytes.append(contentsOf: text.utf8)
        case .uuid(let value): withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
        case .timestamptz(let value):
            guard let microseconds = PostgresTime.microseconds(since2000: value) else {
                throw PostgresError.invalidParameter(
                    index, "the date \(value.timeIntervalSinceReferenceDate) is not a time")
            }
            appendInteger(microseconds)
        case .jsonb(let value):
            bytes.append(1)  // the version of jsonb's binary form
            bytes.append(contentsOf: value.utf8)
        case .int8Array(let values):
            // An array's binary form: dimensions, a has-NULLs flag, the element type, each dimension's length and
            // lower bound, then each element's length and binary form, all big-endian.
            let header: [Int32] =
                values.isEmpty
                ? [0, 0, Int32(bitPattern: PostgresType.int8.oid)]
                : [1, 0, Int32(bitPattern: PostgresType.int8.oid), Int32(values.count), 1]
            bytes.append(contentsOf: repeatElement(0, count: header.count * 4 + values.count * 12))
            bytes.withUnsafeMutableBytes { buffer in
                var offset = start
                for field in header {
                    buffer.storeBytes(of: field.bigEndian, toByteOffset: offset, as: Int32.self)
                    offset += 4
                }
                for value in values {
                    buffer.storeBytes(of: Int32(8).bigEndian, toByteOffset: offset, as: Int32.self)
                    buffer.storeBytes(of: value.bigEndian, toByteOffset: offset + 4, as: Int64.self)
                    offset += 12
                }
            }
        }
        guard bytes.count - start <= Int(Int32.max) else {
            throw PostgresError.invalidParameter(index, "the value has \(bytes.count - start) bytes, more than 2 GiB")
        }
        offsets.append(start)
        lengths.append(Int32(bytes.count - start))
        formats.append(value.format.rawValue)
        types.append(value.type.oid)
        bytes.append(0)
    }

    /// Calls `body` with the array of value pointers libpq takes (`NULL` for SQL `NULL`).
    func withValuePointers<Result>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) throws -> Result) rethrows -> Result
    {
        if offsets.isEmpty { return try body(nil) }
        return try bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard offset >= 0, let base else { return nil }
                return (base + offset).assumingMemoryBound(to: CChar.self)
            }
            return try pointers.withUnsafeBufferPointer { try body($0.baseAddress) }
        }
    }
}
