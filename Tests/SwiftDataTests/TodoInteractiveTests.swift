import Foundation
import Testing

/// The interactive `todo`, driven through a pseudo-terminal by tmux as a user drives it, with a second `todo`
/// process changing the same store. Needs `tmux` (`apt-get install tmux`).
@Suite struct TodoInteractiveTests {
    let example = ExampleRunner(program: "todo")
    /// A tmux server of this test's own, so parallel runs and the user's sessions stay apart.
    let socket = "openswiftdata-\(UUID().uuidString.prefix(8))"
    let outputs = TemporaryDirectory()

    /// Runs a tmux command and returns its output. Spawned directly, not with `Process`: the tmux server that the
    /// first command starts would inherit, and keep open, the descriptor `Process` watches for the child's exit.
    @discardableResult
    func tmux(_ arguments: String...) throws -> String {
        let file = outputs.url.appendingPathComponent(UUID().uuidString).path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// The screen once it satisfies `condition`, or after five seconds, whatever it shows then.
    func screen(until condition: (String) -> Bool) throws -> String {
        var text = ""
        for _ in 0..<100 {
            text = try tmux("capture-pane", "-p", "-t", "todo")
            if condition(text) { return text }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return text
    }

    /// The item lines of the screen, trimmed.
    func items(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("○") || $0.hasPrefix("✓") }
    }

    @Test func theListIsDrivenByKeysAndFollowsOtherProcesses() throws {
        let version = try tmux("-V")
        try #require(version.hasPrefix("tmux"), "tmux is needed for this test: apt-get install tmux (\(version))")
        let program = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("todo").path
        try tmux(
            "new-session", "-d", "-s", "todo", "-x", "80", "-y", "24",
            // Without the backtracer, which on a terminal would wait for keys after a crash.
            "env SWIFT_BACKTRACE=enable=no XDG_DATA_HOME='\(example.dataHome.url.path)' '\(program)'")
        defer { _ = try? tmux("kill-server") }

        #expect(try screen { $0.contains("Nothing to do") }.contains("0 items"))

        try tmux("send-keys", "-t", "todo", "a")
        try tmux("send-keys", "-t", "todo", "-l", "Walk the dog")
        try tmux("send-keys", "-t", "todo", "Enter", "Enter")
        try tmux("send-keys", "-t", "todo", "a")
        try tmux("send-keys", "-t", "todo", "-l", "Buy milk")
        try tmux("send-keys", "-t", "todo", "Enter", "h")
        #expect(
            items(try screen { items($0).count == 2 }) == ["○ Buy milk ●", "○ Walk the dog ●"], "high priority first")

        try tmux("send-keys", "-t", "todo", "Down", "Space")
        #expect(items(try screen { $0.contains("1 done") }) == ["○ Buy milk ●", "✓ Walk the dog ●"])

        try tmux("send-keys", "-t", "todo", "Up", "d")
        #expect(items(try screen { items($0).count == 1 }) == ["✓ Walk the dog ●"])
        try tmux("send-keys", "-t", "todo", "u")
        #expect(
            items(try screen { items($0).count == 2 }) == ["○ Buy milk ●", "✓ Walk the dog ●"], "undo brings it back")

        // Another process adds an item: the screen shows it without a key press.
        #expect(try example.run("add", "Read a book", "--priority", "low").status == 0)
        #expect(items(try screen { items($0).count == 3 }).last == "○ Read a book ●")
        #expect(try example.run("toggle", "3").status == 0)
        #expect(items(try screen { $0.contains("2 done") }).last == "✓ Read a book ●")

        try tmux("send-keys", "-t", "todo", "q")
        #expect(try screen { !$0.contains("To Do") }.contains("To Do") == false, "q leaves the full-screen list")
        #expect(
            try example.run("list").output == "1 ○ Buy milk (high)\n2 ✓ Walk the dog (normal)\n3 ✓ Read a book (low)\n")
    }
}
