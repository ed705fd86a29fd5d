// The module that existing SwiftData code imports: it re-exports the framework and Foundation, and
// declares the macros. It holds no logic.
@_exported import Foundation
@_exported import Observation
@_exported import SwiftDataCore
@_exported import SwiftDataSQLite
