import FoundationEssentials

extension Library {
    /// How a library is opened, one value for every kind of location (`open(at:configuration:)`,
    /// `open(atPath:configuration:)`, `inMemory(configuration:)`), as GRDB's `Configuration`:
    ///
    /// ```swift
    /// let viewer = try Library.open(at: url, configuration: .init(access: .readOnly), configuration: .init())
    /// ```
    public struct Configuration: Sendable, Equatable {
        /// What opening may do to the file (see `Access`); `.create` by default.
        public var access: Access
        /// How long a call waits for another process's write lock, another thread's write or a
        /// free reader before failing with `StorageError` `.busy` (default 5 s).
        public var busyTimeout: Duration
        /// How many commands undo can go back (default 100; at least 1).
        public var historyLimit: Int
        /// How much of the change log other processes can catch up on.
        public var changeLogRetention: ChangeLogRetention

        public init(
            access: Access = .create, busyTimeout: Duration = .seconds(5), historyLimit: Int = 100,
            changeLogRetention: ChangeLogRetention = ChangeLogRetention()
        ) {
            self.access = access
            self.busyTimeout = busyTimeout
            self.historyLimit = historyLimit
            self.changeLogRetention = changeLogRetention
        }
    }
}
