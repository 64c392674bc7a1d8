/// Each change recording's place when a mark was taken (`ConnectionHandle.markRecordings`).
///
/// The pre-update hook reports no change that SQLite undoes (`ROLLBACK TO`, a transaction's
/// rollback, a failing statement's), so whoever runs those takes a mark before the work that
/// may be undone, rolls the recordings back to it when SQLite did, and releases it either way.
struct RecordingMark {
    let positions: [(recording: ChangeRecording, position: Int)]
}

extension ConnectionHandle {
    /// A mark of every recording; `nil` when no recorder runs, so that a mark costs nothing.
    func markRecordings() -> RecordingMark? {
        guard isRecording else { return nil }
        return RecordingMark(positions: recordings.map { ($0, $0.mark()) })
    }

    /// Undoes the recorded changes made since `mark`. A recording that began after it undoes
    /// every change (which misses what SQLite undid of the work between the mark and its start).
    func rollBackRecordings(to mark: RecordingMark?) {
        for recording in recordings {
            if let position = mark?.positions.first(where: { $0.recording === recording })?.position {
                recording.rollBack(to: position)
            } else {
                recording.rollBackAll()
            }
        }
    }

    /// Closes `mark`: its recordings stop journaling once no mark of theirs is open.
    func releaseRecordings(_ mark: RecordingMark?) {
        for (recording, _) in mark?.positions ?? [] { recording.release() }
    }
}
