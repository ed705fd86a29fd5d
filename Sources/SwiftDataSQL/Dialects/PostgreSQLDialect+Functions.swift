extension PostgreSQLDialect {
    /// The PL/pgSQL functions that the dialect's SQL calls, for a PostgreSQL store to create in its schema: Swift's
    /// integer arithmetic (computed in `numeric`, truncating, and raising where Swift traps), the force unwrap, and
    /// a failure. Each raises an error whose message starts with `SQLFunction.errorPrefix`, as the SQLite store's
    /// functions do. They are `VOLATILE` so that the planner never evaluates them ahead of the `CASE` that guards
    /// them (it folds immutable calls with constant arguments while planning).
    package static let supportFunctions: [String] = [
        checked("swiftdata_add", "a::numeric + b"),
        checked("swiftdata_subtract", "a::numeric - b"),
        checked("swiftdata_multiply", "a::numeric * b"),
        """
        CREATE OR REPLACE FUNCTION swiftdata_negate(a bigint, lo bigint, hi bigint) RETURNS bigint
        LANGUAGE plpgsql VOLATILE STRICT AS $$
        DECLARE r numeric := -(a::numeric);
        BEGIN
            IF r < lo OR r > hi THEN RAISE EXCEPTION 'swiftdata: arithmetic overflow'; END IF;
            RETURN r;
        END $$
        """,
        division("swiftdata_divide", "div(a::numeric, b::numeric)"),
        division("swiftdata_remainder", "mod(a::numeric, b::numeric)"),
        """
        CREATE OR REPLACE FUNCTION swiftdata_unwrap(x anyelement) RETURNS anyelement
        LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            IF x IS NULL THEN RAISE EXCEPTION 'swiftdata: force unwrap of nil'; END IF;
            RETURN x;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION swiftdata_fail(message text) RETURNS boolean
        LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            RAISE EXCEPTION 'swiftdata: %', message;
        END $$
        """,
    ]

    /// `(a, b, lo, hi)`: `result`, or an overflow error outside `lo...hi`; `NULL` for a `NULL` argument.
    private static func checked(_ name: String, _ result: String) -> String {
        """
        CREATE OR REPLACE FUNCTION \(name)(a bigint, b bigint, lo bigint, hi bigint) RETURNS bigint
        LANGUAGE plpgsql VOLATILE STRICT AS $$
        DECLARE r numeric := \(result);
        BEGIN
            IF r < lo OR r > hi THEN RAISE EXCEPTION 'swiftdata: arithmetic overflow'; END IF;
            RETURN r;
        END $$
        """
    }

    /// `(a, b, lo, hi)`: `result` of a truncating division, with Swift's traps: a zero divisor, `lo / -1` and
    /// `lo % -1`, a result outside `lo...hi`.
    private static func division(_ name: String, _ result: String) -> String {
        """
        CREATE OR REPLACE FUNCTION \(name)(a bigint, b bigint, lo bigint, hi bigint) RETURNS bigint
        LANGUAGE plpgsql VOLATILE STRICT AS $$
        DECLARE r numeric;
        BEGIN
            IF b = 0 THEN RAISE EXCEPTION 'swiftdata: division by zero'; END IF;
            IF b = -1 AND a = lo THEN RAISE EXCEPTION 'swiftdata: arithmetic overflow'; END IF;
            r := \(result);
            IF r < lo OR r > hi THEN RAISE EXCEPTION 'swiftdata: arithmetic overflow'; END IF;
            RETURN r;
        END $$
        """
    }
}
