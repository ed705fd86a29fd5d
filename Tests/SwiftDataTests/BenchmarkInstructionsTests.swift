import Foundation
import Testing

/// The benchmark program's `--instructions` mode, as far as it can be checked without valgrind's slowness (CI runs
/// it in release mode on a small store).
@Suite struct BenchmarkInstructionsTests {
    let benchmarks = ExampleRunner(program: "Benchmarks")

    @Test func withoutValgrindItSaysWhatToInstall() throws {
        let empty = TemporaryDirectory()
        let result = try benchmarks.run(
            arguments: ["--instructions", "--rows", "200", "--filter", "count"], environment: ["PATH": empty.url.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("--instructions needs valgrind"), "\(result.errors)")
        #expect(result.errors.contains("apt-get install valgrind"), "\(result.errors)")
        #expect(result.output == "")
    }

    @Test func latencyIsNotCountedInInstructions() throws {
        let result = try benchmarks.run(arguments: ["--instructions", "--filter", "fetch-during-save"])
        #expect(result.status == 2)
        #expect(result.errors.contains("waiting costs no instructions"), "\(result.errors)")
    }
}
