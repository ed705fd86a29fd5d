import Foundation

/// Conversions between `Date` and PostgreSQL's times: microseconds (binary `timestamptz`, `timestamp`) or days
/// (binary `date`) since 2000-01-01 00:00 UTC, and the ISO text the server writes with `DateStyle` `ISO`.
enum PostgresTime {
    /// Seconds from 2000-01-01 to 2001-01-01 (Foundation's reference date): 2000 is a leap year.
    static let secondsFrom2000To2001: Int64 = 31_622_400
    /// Days from 1970-01-01 to 2000-01-01.
    static let daysFrom1970To2000: Int64 = 10_957

    /// The microseconds since 2000 of `date`, rounded to the nearest; `nil` for NaN or a date out of range.
    /// Infinite dates become PostgreSQL's `infinity` and `-infinity`.
    static func microseconds(since2000 date: Date) -> Int64? {
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds == .infinity { return .max }
        if seconds == -.infinity { return .min }
        guard seconds.isFinite, abs(seconds) < 9e12 else { return nil }
        let whole = seconds.rounded(.down)
        let micros = Int64(((seconds - whole) * 1_000_000).rounded())
        let (scaled, overflow) = (Int64(whole) + secondsFrom2000To2001).multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        let (total, overflow2) = scaled.addingReportingOverflow(micros)
        return overflow2 || total == .max || total == .min ? nil : total
    }

    /// The date `microseconds` after 2000-01-01 UTC; PostgreSQL's `infinity` and `-infinity` become infinite
    /// dates. Within 285 years of 2001 the result is the `Date` nearest to the stored microsecond (one correctly
    /// rounded division), so a date written with microseconds comes back equal; beyond, whole seconds and the
    /// fraction are converted apart.
    static func date(microsecondsSince2000 microseconds: Int64) -> Date {
        if microseconds == .max { return Date(timeIntervalSinceReferenceDate: .infinity) }
        if microseconds == .min { return Date(timeIntervalSinceReferenceDate: -.infinity) }
        let (since2001, overflow) = microseconds.subtractingReportingOverflow(secondsFrom2000To2001 * 1_000_000)
        if !overflow && since2001.magnitude < 1 << 53 {
            return Date(timeIntervalSinceReferenceDate: Double(since2001) / 1e6)
        }
        var (seconds, fraction) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1_000_000
        }
        return Date(timeIntervalSinceReferenceDate: Double(seconds - secondsFrom2000To2001) + Double(fraction) / 1e6)
    }

    /// The date at midnight UTC `days` after 2000-01-01 (binary `date`).
    static func date(daysSince2000 days: Int32) -> Date {
        if days == .max { return Date(timeIntervalSinceReferenceDate: .infinity) }
        if days == .min { return Date(timeIntervalSinceReferenceDate: -.infinity) }
        return date(microsecondsSince2000: Int64(days) * 86_400_000_000)
    }

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (astronomical years: 1 BC is 0).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Parses the text of a `timestamptz`, `timestamp` or `date` as the server writes it with `DateStyle` `ISO`:
    /// `2001-02-03 04:05:06.789+01:30`, with an optional ` BC`, or `infinity` / `-infinity`. A value without an
    /// offset is read as UTC.
    static func parse(_ text: UnsafeRawBufferPointer) -> Date? {
        var scanner = Scanner(text)
        if scanner.matches("infinity") { return Date(timeIntervalSinceReferenceDate: .infinity) }
        if scanner.matches("-infinity") { return Date(timeIntervalSinceReferenceDate: -.infinity) }
        guard var year = scanner.number(), scanner.skip("-"), let month = scanner.number(), scanner.skip("-"),
            let day = scanner.number()
        else { return nil }
        var seconds: Int64 = 0
        var micros: Int64 = 0
        if scanner.skip(" ") || scanner.skip("T") {
            guard let hour = scanner.number(), scanner.skip(":"), let minute = scanner.number(), scanner.skip(":"),
                let second = scanner.number()
            else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            if scanner.skip(".") {
                var scale: Int64 = 100_000
                while let digit = scanner.digit() {
                    micros += digit * scale
                    scale /= 10
                }
            }
            if let sign = scanner.sign() {
                guard let hours = scanner.number() else { return nil }
                var offset = hours * 3600
                if scanner.skip(":"), let minutes = scanner.number() { offset += minutes * 60 }
                if scanner.skip(":"), let extra = scanner.number() { offset += extra }
                seconds -= sign * offset
            }
        }
        if scanner.skip(" BC") { year = 1 - year }
        guard scanner.isAtEnd else { return nil }
        let days = Self.days(year: year, month: month, day: day) - daysFrom1970To2000
        return date(microsecondsSince2000: (days * 86_400 + seconds) * 1_000_000 + micros)
    }

    /// Reads ASCII text byte by byte.
    private struct Scanner {
        let text: UnsafeRawBufferPointer
        var index = 0

        init(_ text: UnsafeRawBufferPointer) { self.text = text }

        var isAtEnd: Bool { index == text.count }

        /// Whether the whole text is `word`.
        func matches(_ word: StaticString) -> Bool {
            word.utf8CodeUnitCount == text.count
                && word.withUTF8Buffer { UnsafeRawBufferPointer($0).elementsEqual(text) }
        }

        mutating func skip(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard text.count - index >= count,
                word.withUTF8Buffer({ UnsafeRawBufferPointer($0).elementsEqual(text[index..<index + count]) })
            else { return false }
            index += count
            return true
        }

        mutating func digit() -> Int64? {
            guard index < text.count, (48...57).contains(text[index]) else { return nil }
            index += 1
            return Int64(text[index - 1] - 48)
        }

        /// A run of digits (at most 12, which no field of a date needs more of).
        mutating func number() -> Int64? {
            guard var value = digit() else { return nil }
            var count = 1
            while count < 12, let next = digit() {
                value = value * 10 + next
                count += 1
            }
            return value
        }

        /// `+1` or `-1` for a sign, consumed.
        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
