import SwiftData

extension ModelContext {
    /// Saves the command's changes; when that fails, drops them, so that the autosave at exit does not try them (and
    /// report the failure) a second time.
    @MainActor package func saveOrDiscard() throws {
        do {
            try save()
        } catch {
            rollback()
            throw error
        }
    }
}
