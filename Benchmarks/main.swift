// The benchmark program: each workload through SwiftData and through the raw SQLite C API, compared.
//
// `swift run -c release Benchmarks [--rows N] [--repetitions R] [--filter WORKLOADS] [--instructions] [--json]
// [--no-history]`
//
// The parent process builds each side's stores once, then starts this program again as a child (`--child`) for
// each repetition of each side of each workload; a child reports its time and its peak resident memory (see
// `PeakMemory`). Only the workload itself is timed: creating and copying stores, opening them, and what a
// workload starts from (such as the registered models of workloads 5 to 7) are setup. With `--instructions`,
// each child runs under valgrind's callgrind, which counts the instructions of the timed part (see `Callgrind`).
import Foundation
import SwiftData
import SwiftDataPostgres

let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("error: \(message)\n\n\(Options.usage)\n".utf8))
        exit(2)
    }
    print(Options.usage)
    exit(0)
}

// A measure of what history costs (the README's benchmark section has the figures).
SQLiteStore.keepsHistory = !options.withoutHistory
PostgresRowStore.keepsHistory = !options.withoutHistory

do {
    if let url = options.postgres, options.requests {
        print(try RequestsWorkload.run(url: url, replicas: options.replicas, pooler: options.pooler, options: options))
    } else if let url = options.postgres {
        var report = Report(
            results: try PostgresBenchmark.run(url: url, options: options), rows: options.rows,
            repetitions: options.instructions ? 1 : options.repetitions, instructions: options.instructions,
            leftOut: [])
        report.backend = .postgres
        print(try report.text(json: options.json))
    } else if options.search {
        print(try SearchWorkloads.run(rows: options.rows, repetitions: options.repetitions, json: options.json))
    } else if let (workload, side) = options.child {
        guard let directory = options.directory else { throw ChildError("--child needs --directory") }
        try ChildProcess.run(
            workload, side: side, rows: options.rows, directory: URL(fileURLWithPath: directory),
            countsStatements: options.statements)
    } else {
        let results = try Runner.run(options)
        let report = Report(
            results: results, rows: options.rows, repetitions: options.repetitions, instructions: options.instructions,
            leftOut: Workload.selected(by: options.filter).filter { !options.workloads.contains($0) })
        print(try report.text(json: options.json))
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
