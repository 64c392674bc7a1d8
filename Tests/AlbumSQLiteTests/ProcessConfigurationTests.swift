import CSQLite
import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// Process-wide SQLite settings are the host's call: the layer never makes them by itself.
///
/// Each test runs in a child process of its own: SQLite initializes once per process, and this
/// one has long done so by the time a test runs.
struct ProcessConfigurationTests {
    @Test func openingAConnectionLeavesMemoryStatisticsOn() async {
        await #expect(processExitsWith: .success) {
            let directory = try TemporaryDirectory()
            let connection = try directory.open()
            try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            // SQLite counts the memory it holds only while memory statistics are on.
            guard sqlite3_memory_used() > 0 else { exit(1) }
        }
    }

    @Test func configureProcessBeforeTheFirstConnectionTurnsMemoryStatisticsOff() async {
        await #expect(processExitsWith: .success) {
            guard Connection.configureProcess(memoryStatistics: false) else { exit(1) }
            let directory = try TemporaryDirectory()
            let connection = try directory.open()
            try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            guard sqlite3_memory_used() == 0 else { exit(2) }
        }
    }

    @Test func configureProcessAfterSQLiteInitializedChangesNothing() async {
        await #expect(processExitsWith: .success) {
            let directory = try TemporaryDirectory()
            let connection = try directory.open()
            guard !Connection.configureProcess(memoryStatistics: false) else { exit(1) }
            try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            guard sqlite3_memory_used() > 0 else { exit(2) }
        }
    }
}
