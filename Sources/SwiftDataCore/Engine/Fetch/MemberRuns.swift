/// The members of several owners' relationship as a store reports them, one row at a time, gathered into runs: each
/// run the consecutive members of one owner. A store that sorts by owner gives each owner one run, which becomes its
/// array as it is, without copying its members or retaining them again (see `ModelList`).
///
/// One value holds what the loop over the rows changes, so that the closure a store calls for each row captures one
/// variable instead of three (each unpacked at every call).
struct MemberRuns {
    /// The finished runs, by owner.
    private var runs: [Int64: [ModelList]] = [:]
    /// The run being gathered, and its owner.
    private var run = ModelList()
    private var owner: Int64?

    /// Adds the next member, of `owner`, taking the caller's reference to it.
    mutating func append(_ model: consuming AnyObject, of owner: Int64) {
        if owner != self.owner { startRun(of: owner) }
        run.append(consume model)
    }

    /// Finishes the run being gathered, if any, and starts one of `owner`. Kept out of `append`, which the loop over
    /// the rows then runs in a few instructions.
    @inline(never)
    private mutating func startRun(of owner: Int64) {
        if let current = self.owner {
            // The next owner's run is likely as long as this one: reserved so, it is seldom grown.
            let count = run.count
            runs[current, default: []].append(run)
            run = ModelList(capacity: count)
        }
        self.owner = owner
    }

    /// Ends the rows: the run being gathered is finished.
    mutating func finish() {
        guard let current = owner else { return }
        runs[current, default: []].append(run)
        run = ModelList()
        owner = nil
    }

    /// Takes the members of `owner` out, in the order they came: one array per run (usually one).
    mutating func take(_ owner: Int64) -> [ModelList] {
        runs.removeValue(forKey: owner) ?? []
    }
}
