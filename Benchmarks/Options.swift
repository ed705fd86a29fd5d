/// The command line.
struct Options {
    /// Counting instructions with valgrind's callgrind instead of measuring time and memory.
    var instructions = false
    /// The rows given on the command line; 100,000 by default, 10,000 when counting instructions.
    private var givenRows: Int?
    /// The repetitions given on the command line; 5 by default, 1 when counting instructions.
    private var givenRepetitions: Int?
    var filter: String?
    var json = false
    /// Whether SwiftData's stores record no history (`--no-history`), to measure what history costs.
    var withoutHistory = false
    /// `--statements`: count the SQL statements each side's timed part runs, by kind (see `StatementCount`).
    var statements = false
    /// Set in a child process: the workload and side it measures (see `Child`).
    var child: (workload: Workload, side: Side)?
    /// Set in a child process: where the templates are, and where its stores go.
    var directory: String?
    /// `--postgres URL`: the PostgreSQL workloads, against raw libpq, on that database (see `PostgresBenchmark`).
    var postgres: String?
    /// `--requests`: with `--postgres`, the concurrent requests workload instead (see `RequestsWorkload`).
    var requests = false
    /// `--replica URL` (repeatable): with `--requests`, streaming replicas of the database, to run the requests
    /// again reading from them.
    var replicas: [String] = []
    /// `--pooler URL`: with `--requests`, PgBouncer in transaction mode in front of the database, which both sides'
    /// requests go through instead.
    var pooler: String?
    /// `--tasks T`: how many threads serve requests at once in `--requests` (32 by default).
    var tasks = 32
    /// `--search`: the search and batch-update measurements (see `SearchWorkloads`).
    var search = false

    static let usage = """
        USAGE: swift run -c release Benchmarks [--rows N] [--repetitions R] [--filter WORKLOADS] [--instructions]
                                               [--json] [--no-history] [--statements]
               swift run -c release Benchmarks --postgres URL [--rows N] [--repetitions R] [--filter WORKLOADS]
                                               [--instructions] [--json] [--statements]
               swift run -c release Benchmarks --postgres URL --requests [--replica URL... | --pooler URL]
                                               [--tasks T] [--rows N] [--repetitions R] [--instructions]
                                               [--statements]
               swift run -c release Benchmarks --search [--rows N] [--repetitions R] [--json]

        Runs each workload through SwiftData and through the raw SQLite C API (or libpq), and prints a table of
        their median times, the ratio, the project's goal and whether it was met, and each side's peak memory.

        OPTIONS:
          --rows N             rows of the stores the workloads use (default 100000; 10000 with --instructions)
          --repetitions R      timed repetitions of each side of each workload (default 5; 1 with --instructions)
          --filter WORKLOADS   only these workloads: comma-separated numbers or names, or parts of names
                               (\(Workload.allCases.map(\.slug).joined(separator: ", ")))
          --instructions       count the instructions of each side instead, with valgrind's callgrind (which
                               must be installed), and print them with their ratio; workloads that measure
                               latency are left out: waiting costs no instructions
          --json               print the results as JSON instead of a table
          --postgres URL       run workloads 1 to 9 on the PostgreSQL database at URL instead, through
                               SwiftData and through libpq, in schemas bench_swiftdata and bench_raw (replaced);
                               with --instructions, count this process's instructions (not the server's)
          --requests           with --postgres: T threads at once serve 100 requests each (a new context fetches
                               one record by key, changes it and saves; or only reads it), against libpq with
                               a pool of the same size doing the same statements; prints the time per request,
                               the ratio, and the p50 and p99 latency of a request; with --instructions,
                               each side's client instructions per request instead (one thread, under
                               callgrind); with --statements, also each side's statements per request
          --replica URL        with --requests: a streaming replica of the database (repeat it for each);
                               the requests run on the primary alone, then again with SwiftData reading
                               from the replicas and the raw side reading its read-only requests from them
          --pooler URL         with --requests: PgBouncer in transaction mode in front of the database; the
                               requests of both sides go through it (SwiftData with transactionPooling:
                               true, libpq with unnamed statements), the rest directly to the database
          --tasks T            the threads of --requests (default 32)
          --search             measure a rare-term localizedStandardContains with a .search index, without
                               it and with raw FTS5, and a batch update of every row against a raw UPDATE
          --no-history         SwiftData's stores record no history of saves (they always do otherwise), to
                               compare with a run that records it
          --statements         also count the SQL statements each side's timed part runs, by kind (SELECT,
                               INSERT, BEGIN, ...), and show them in the JSON (SQLite's trace of every
                               connection, or every libpq connection's); tracing them slows both sides
          --help               print this text
        """

    var rows: Int { givenRows ?? (instructions ? 10_000 : 100_000) }
    var repetitions: Int { givenRepetitions ?? (instructions ? 1 : 5) }

    /// The workloads to run: those `--filter` selects, without those that measure latency when counting
    /// instructions.
    var workloads: [Workload] {
        Workload.selected(by: filter).filter { !instructions || !$0.measuresLatency }
    }

    /// Reads the arguments after the program name.
    init(arguments: [String]) throws(OptionsError) {
        var remaining = arguments[...]
        func value(of option: String) throws(OptionsError) -> String {
            guard let value = remaining.popFirst() else { throw OptionsError("\(option) needs a value") }
            return value
        }
        func count(of option: String) throws(OptionsError) -> Int {
            let text = try value(of: option)
            guard let number = Int(text.filter { $0 != "_" && $0 != "," }), number > 0 else {
                throw OptionsError("\(option) needs a positive number, not '\(text)'")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--rows": givenRows = try count(of: argument)
            case "--repetitions": givenRepetitions = try count(of: argument)
            case "--instructions": instructions = true
            case "--filter": filter = try value(of: argument)
            case "--json": json = true
            case "--postgres": postgres = try value(of: argument)
            case "--no-history": withoutHistory = true
            case "--requests": requests = true
            case "--replica": replicas.append(try value(of: argument))
            case "--pooler": pooler = try value(of: argument)
            case "--tasks": tasks = try count(of: argument)
            case "--statements": statements = true
            case "--search": search = true
            case "--help", "-h": throw OptionsError(nil)
            case "--directory": directory = try value(of: argument)
            case "--child":
                let slug = try value(of: argument)
                let sideName = try value(of: argument)
                guard let workload = Workload.allCases.first(where: { $0.slug == slug }),
                    let side = Side(rawValue: sideName)
                else { throw OptionsError("--child needs a workload and a side, not '\(slug) \(sideName)'") }
                child = (workload, side)
            default: throw OptionsError("unknown argument '\(argument)'")
            }
        }
        if filter != nil, Workload.selected(by: filter).isEmpty {
            throw OptionsError("no workload matches '\(filter ?? "")'")
        }
        if requests && (postgres == nil || json) {
            throw OptionsError("--requests needs --postgres URL and prints a table")
        }
        if (!replicas.isEmpty || pooler != nil) && !requests {
            throw OptionsError("--replica and --pooler need --requests")
        }
        if !replicas.isEmpty && pooler != nil {
            throw OptionsError("--replica and --pooler are separate runs")
        }
        if instructions && (!replicas.isEmpty || pooler != nil) {
            throw OptionsError("--instructions counts the requests on the primary alone, without --replica or --pooler")
        }
        if child == nil, !requests, workloads.isEmpty {
            throw OptionsError("--instructions counts no workload that measures latency: waiting costs no instructions")
        }
    }
}

/// A command line the program cannot run; `nil` message for `--help`.
struct OptionsError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
